/**
 * The seam to the state's boundary file. Its import (src/boundaries/, being built on branch
 * `boundaries`; `buckeye boundaries status --json` names the active version and when it was
 * imported) is not merged yet, so no boundary file is ever loaded and this answers null. When it
 * lands, read the active version from its store here: `data status` and the dashboard take it
 * from this one function and show it with its age.
 */
import type { Db } from "../store/database.ts";

export interface BoundaryFileVersion {
  /** The state's name for the file's version. */
  version: string;
  /** ISO 8601 instant of the import. */
  imported_at: string;
}

export async function activeBoundaryFile(_db: Db): Promise<BoundaryFileVersion | null> {
  return null;
}
