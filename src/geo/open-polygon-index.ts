/**
 * The polygon indexes as shared arrays: read from the polygon index file `buckeye data fetch-geo`
 * wrote beside the polygons (src/geo/polygon-index-file.ts) when it matches them; else built in a
 * child process, as for polygons an operator placed by hand. The polygons' folder is never written
 * here: it may be read-only, or shared by several instances.
 *
 * Why a process: parsing 13 MB of GeoJSON takes over 100 MB, and a thread that exits does not give
 * it back (measured: a thread that only parsed the place file left the process 47 MB larger after
 * it exited). A process that exits gives back everything. It writes the 8 MB the indexes are made
 * of to a temporary file, which is read straight into the SharedArrayBuffers the pool threads share.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { PolygonFiles } from "./polygon-files.ts";
import type { PolygonsData } from "./polygons.ts";
import { readPolygons } from "./polygons-bytes.ts";
import { readFreshPolygonIndex } from "./polygon-index-file.ts";
import { processEntry } from "../worker-entries.ts";

/**
 * `damaged` hears of an index file that matches the polygons but cannot be read (cut short, or
 * altered): the indexes are then built from the polygons as if there were none, and an operator
 * learns why this start took longer and that `buckeye data fetch-geo` would write the file again.
 */
export async function openPolygonIndex(files: Extract<PolygonFiles, { available: true }>, damaged: (error: Error) => void): Promise<PolygonsData> {
  try {
    const written = readFreshPolygonIndex(files);
    if (written) return written;
  } catch (error) {
    damaged(new Error("the polygon index file beside the polygons could not be read; the indexes are built from the polygons instead", { cause: error }));
  }
  return buildPolygonIndexInProcess(files);
}

export async function buildPolygonIndexInProcess(files: Extract<PolygonFiles, { available: true }>): Promise<PolygonsData> {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-polygons-"));
  const output = join(dir, "indexes.bin");
  try {
    const args = [...processEntry("build-polygon-index"), JSON.stringify(files), output];
    await promisify(execFile)(process.execPath, args);
    return readPolygons(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
