/**
 * Builds the boundary indexes in a child process and adopts them as shared arrays.
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
import type { BoundaryFiles } from "../geo/boundary-files.ts";
import type { BoundariesData } from "../geo/boundaries.ts";
import { readBoundaries } from "../geo/boundaries-bytes.ts";
import { processEntry } from "../worker-entries.ts";

export async function buildBoundariesInProcess(files: Extract<BoundaryFiles, { available: true }>): Promise<BoundariesData> {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-boundaries-"));
  const output = join(dir, "indexes.bin");
  try {
    const args = [...processEntry("build-boundaries"), JSON.stringify(files), output];
    await promisify(execFile)(process.execPath, args);
    return readBoundaries(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
