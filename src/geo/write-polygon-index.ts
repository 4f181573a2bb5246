/**
 * Parses the polygon files and writes the indexes built from them to a file (polygons-bytes.ts):
 * `buckeye data fetch-geo` writes the polygon index beside the polygons (polygon-index-file.ts), and
 * the child process that builds them when there is none (workers/build-polygon-index.ts) writes its
 * hand-over file. The file appears whole or not at all, so a reader never sees half of one.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { polygonsData, loadPolygons } from "./polygons.ts";
import { encodePolygons } from "./polygons-bytes.ts";
import type { PolygonFiles } from "./polygon-files.ts";
import { sourcesKey } from "./polygon-index-file.ts";

export async function writePolygonIndex(files: Extract<PolygonFiles, { available: true }>, path: string): Promise<void> {
  const chunks = encodePolygons(polygonsData(await loadPolygons(files)), sourcesKey(files));
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
