/**
 * Child process entry (src/lookup/build-boundaries.ts): builds the county and place indexes from
 * the boundary files named in argv[2] (JSON), writes them as bytes to the file argv[3], then
 * exits, and with it every byte parsing the files took.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { BoundaryFiles } from "../src/geo/boundary-files.ts";
import { boundariesData, loadBoundaries } from "../src/geo/boundaries.ts";
import { encodeBoundaries } from "../src/geo/boundaries-bytes.ts";

const files = JSON.parse(process.argv[2]!) as Extract<BoundaryFiles, { available: true }>;
const fd = openSync(process.argv[3]!, "w");
try {
  for (const chunk of encodeBoundaries(boundariesData(await loadBoundaries(files)))) {
    for (let done = 0; done < chunk.byteLength; ) done += writeSync(fd, chunk, done);
  }
} finally {
  closeSync(fd);
}
