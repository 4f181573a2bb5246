/** Which boundary file version is active, which is kept for rollback, and the rollback itself. */
import type { Db } from "../store/database.ts";
import { findVersion, readPointer, swapToPrevious } from "../store/boundaries.repository.ts";
import type { BoundaryVersion } from "../store/boundaries.table.ts";
import type { ImportReport } from "./import-file.ts";
import { isSyntheticVersion } from "./synthetic-label.ts";

export interface VersionSummary {
  version: string;
  /** Imported with --synthetic: made-up data, never the state's. */
  synthetic: boolean;
  source: string;
  records: number;
  address_ranges: number;
  zip4_ranges: number;
  zip5_ranges: number;
  /** When its import finished. */
  imported_at: string | null;
  /** What its import found (rows skipped, by reason); null for a version imported before reports were kept. */
  report: ImportReport | null;
}

export interface BoundaryStatus {
  active: VersionSummary | null;
  previous: VersionSummary | null;
  /** When the active pointer last moved (an import or a rollback). */
  switched_at: string | null;
}

function summary(row: BoundaryVersion | undefined): VersionSummary | null {
  if (!row) return null;
  const { version, source, records, address_ranges, zip4_ranges, zip5_ranges, imported_at, report } = row;
  return {
    version, synthetic: isSyntheticVersion(version), source, records: Number(records), address_ranges: Number(address_ranges), zip4_ranges: Number(zip4_ranges), zip5_ranges: Number(zip5_ranges), imported_at,
    report: report === null ? null : (JSON.parse(report) as ImportReport),
  };
}

export async function boundaryStatus(db: Db): Promise<BoundaryStatus> {
  const pointer = await readPointer(db);
  return {
    active: pointer.version === null ? null : summary(await findVersion(db, pointer.version)),
    previous: pointer.previousVersion === null ? null : summary(await findVersion(db, pointer.previousVersion)),
    switched_at: pointer.switchedAt,
  };
}

/** Null when there is no previous version. */
export async function rollbackBoundaries(db: Db, at = new Date()): Promise<BoundaryStatus | null> {
  const swapped = await swapToPrevious(db, at);
  return swapped === null ? null : boundaryStatus(db);
}
