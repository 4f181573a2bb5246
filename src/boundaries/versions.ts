/** Which boundary file version is active, which is kept for rollback, and the rollback itself. */
import type { Db } from "../store/database.ts";
import { findVersion, readPointer, swapToPrevious, zipRangeCounties } from "../store/boundaries.repository.ts";
import type { BoundaryVersion } from "../store/boundaries.table.ts";
import type { ImportReport } from "./import-file.ts";
import { isSyntheticVersion } from "./synthetic-label.ts";
import type { ZipCounties } from "./zip-table.ts";

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

/**
 * How the active file's ZIPs compare with the shipped ZIP table (the Census ZCTA table ZIP lookups
 * answered from before the file): a ZIP differs when the counties the file's records name for it
 * (any date) are not the counties the table lists, or the table does not list it at all.
 */
export interface ZipSourcesComparison {
  /** ZIPs the file's records cover (a Z range counts the ZIPs in it the table knows, and its ends). */
  zips: number;
  /** Of those, the ones whose counties differ between the two sources; ZIP lookups of these answer differently now. */
  differing: number;
  /** Of the differing, the ones the table does not list (no ZCTA): these answered zip-not-found before. */
  not_in_table: number;
  /** The first few differing ZIPs, in order. */
  examples: string[];
}

export interface BoundaryStatus {
  active: VersionSummary | null;
  previous: VersionSummary | null;
  /** When the active pointer last moved (an import or a rollback). */
  switched_at: string | null;
  /** The active file's ZIPs against the shipped ZIP table; absent when not asked for (no table given), null with no active file. */
  zip_sources?: ZipSourcesComparison | null;
}

const EXAMPLES = 10;

/** The ZIPs whose counties differ between the version's records and the shipped ZIP table. */
export async function compareZipSources(db: Db, version: string, table: ZipCounties): Promise<ZipSourcesComparison> {
  const known = [...table.keys()].sort();
  const fromFile = new Map<string, Set<string>>();
  const add = (zip: string, county: string) => fromFile.set(zip, (fromFile.get(zip) ?? new Set()).add(county));
  for (const { zip5, zip5_high, county_fips } of await zipRangeCounties(db, version)) {
    add(zip5, county_fips);
    if (zip5_high > zip5) {
      add(zip5_high, county_fips);
      for (const zip of known) if (zip > zip5 && zip < zip5_high) add(zip, county_fips);
    }
  }
  const differing: string[] = [];
  let notInTable = 0;
  for (const [zip, counties] of fromFile) {
    const listed = table.get(zip);
    if (!listed) notInTable++;
    if (!listed || listed.size !== counties.size || [...counties].some((c) => !listed.has(c))) differing.push(zip);
  }
  differing.sort();
  return { zips: fromFile.size, differing: differing.length, not_in_table: notInTable, examples: differing.slice(0, EXAMPLES) };
}

function summary(row: BoundaryVersion | undefined): VersionSummary | null {
  if (!row) return null;
  const { version, source, records, address_ranges, zip4_ranges, zip5_ranges, imported_at, report } = row;
  return {
    version, synthetic: isSyntheticVersion(version), source, records: Number(records), address_ranges: Number(address_ranges), zip4_ranges: Number(zip4_ranges), zip5_ranges: Number(zip5_ranges), imported_at,
    report: report === null ? null : (JSON.parse(report) as ImportReport),
  };
}

/** With `zipTable` (the shipped ZIP table), also how many of the active file's ZIPs differ from it (`zip_sources`). */
export async function boundaryStatus(db: Db, zipTable?: ZipCounties): Promise<BoundaryStatus> {
  const pointer = await readPointer(db);
  return {
    active: pointer.version === null ? null : summary(await findVersion(db, pointer.version)),
    previous: pointer.previousVersion === null ? null : summary(await findVersion(db, pointer.previousVersion)),
    switched_at: pointer.switchedAt,
    ...(zipTable !== undefined && { zip_sources: pointer.version === null ? null : await compareZipSources(db, pointer.version, zipTable) }),
  };
}

/** Null when there is no previous version. */
export async function rollbackBoundaries(db: Db, at = new Date()): Promise<BoundaryStatus | null> {
  const swapped = await swapToPrevious(db, at);
  return swapped === null ? null : boundaryStatus(db);
}
