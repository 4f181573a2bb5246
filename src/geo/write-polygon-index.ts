/**
 * Parses the polygon files and writes the indexes built from them to a file (boundaries-bytes.ts):
 * `buckeye data fetch-geo` writes the polygon index beside the polygons (polygon-index-file.ts), and
 * the child process that builds them when there is none (workers/build-boundaries.ts) writes its
 * hand-over file. The file appears whole or not at all, so a reader never sees half of one.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { boundariesData, loadBoundaries } from "./boundaries.ts";
import { encodeBoundaries } from "./boundaries-bytes.ts";
import type { BoundaryFiles } from "./boundary-files.ts";
import { sourcesKey } from "./polygon-index-file.ts";

export async function writePolygonIndex(files: Extract<BoundaryFiles, { available: true }>, path: string): Promise<void> {
  const chunks = encodeBoundaries(boundariesData(await loadBoundaries(files)), sourcesKey(files));
  // Named by process, so two instances writing the same folder at once never write into one file.
  const partial = `${path}.${process.pid}.partial`;
  const fd = openSync(partial, "w");
  let written = false;
  try {
    for (const chunk of chunks) {
      for (let done = 0; done < chunk.byteLength; ) done += writeSync(fd, chunk, done);
    }
    written = true;
  } finally {
    closeSync(fd);
    if (!written) rmSync(partial, { force: true });
  }
  renameSync(partial, path);
}
