/**
 * The seam to the state's boundary file (src/boundaries/): the active version and when its import
 * finished, as `buckeye boundaries status` shows it. `data status` and the dashboard take it from
 * this one function and show it with its age.
 */
import { boundaryStatus } from "../boundaries/versions.ts";
import type { Db } from "../store/database.ts";

export interface BoundaryFileVersion {
  /** The state's name for the file's version. */
  version: string;
  /** ISO 8601 instant of the import. */
  imported_at: string;
}

export async function activeBoundaryFile(db: Db): Promise<BoundaryFileVersion | null> {
  const { active } = await boundaryStatus(db);
  return active?.imported_at ? { version: active.version, imported_at: active.imported_at } : null;
}
