import type { StreetIndex } from "./street-index.ts";

/**
 * The boundary index: what the lookup room asks of the state's SST boundary file once it is
 * imported (docs/guides/address-resolution.md). A query names a ZIP5, maybe a +4 and maybe a street
 * address, and a date; the answer is the most specific record in effect on that date in the
 * active version, or null. Every query is answered from one version, so no request sees half a file.
 */

/** The parts of a parsed street address, as the lookup room's parser gives them (raw, not yet normalised). */
export interface StreetAddress {
  /** "1234", "1234A" or "12-34": compared by its leading whole number (1234, 1234, 12). */
  readonly houseNumber: string;
  /** "N", "North", ... */
  readonly preDirectional?: string;
  /** "High", "Martin Luther King Jr" */
  readonly streetName: string;
  /** "St", "Street", "Ave", ... */
  readonly suffix?: string;
  readonly postDirectional?: string;
  /**
   * "Apt 4", "#4", "Ste 200". A record with a secondary-unit range matches only a unit inside it and
   * wins over a record without one; a record without a unit range matches every unit.
   */
  readonly unit?: string;
}

export interface BoundaryQuery {
  readonly zip5: string;
  readonly zip4?: string;
  /** Absent for a ZIP / ZIP+4 lookup. */
  readonly street?: StreetAddress;
  /**
   * The street's key as the file stores it, when the address matcher found it among the file's
   * streets (src/lookup/address-match.ts): probed as it is, without trying directionals again.
   */
  readonly filedStreet?: string;
  /** YYYY-MM-DD, the lookup date (records have begin/end dates). */
  readonly date: string;
}

export type BoundaryRecordType = "A" | "4";

export interface BoundaryMatch {
  /** e.g. "OHB2026Q4SEP17" */
  readonly version: string;
  /** Address range or ZIP+4 range. Whole-ZIP (Z) records are imported and counted but never answer a probe. */
  readonly recordType: BoundaryRecordType;
  /** "39049" */
  readonly countyFips: string;
  /** The SST code of the record's first special-district (transit) triplet, e.g. "25000"; null when none. */
  readonly transitCode: string | null;
  /** The record's line number in the imported file, for audit. */
  readonly line: number;
  /** The record's begin date, YYYY-MM-DD. */
  readonly effectiveFrom: string;
  /** The record's end date as the file gives it (the last day it applies, inclusive), YYYY-MM-DD; null = open. */
  readonly effectiveTo: string | null;
}

/** One jurisdiction set (county and transit code) the file's records for a ZIP name on a date. */
export interface ZipRecordSet {
  readonly countyFips: string;
  readonly transitCode: string | null;
  /** How many of the ZIP's records in effect on the date carry this set. */
  readonly records: number;
  /** The record cited for it: a whole-ZIP (Z) record when there is one, else the earliest line. */
  readonly record: { readonly recordType: "A" | "4" | "Z"; readonly line: number; readonly effectiveFrom: string; readonly effectiveTo: string | null };
}

/** What the active file says of a whole ZIP on a date: the sets its Z, 4 and A records name. */
export interface ZipSummary {
  readonly version: string;
  readonly zip5: string;
  readonly date: string;
  /** At least one; ordered by county FIPS, then transit code. */
  readonly sets: readonly ZipRecordSet[];
}

export interface BoundaryIndex {
  /** The active version, or null when no boundary file has been imported (as last read from the store). */
  activeVersion(): string | null;
  /** The active version every probe now answers from: the cached pointer, read again once it is older than the refresh interval. */
  version(): Promise<string | null>;
  /** Reads the active pointer now instead of waiting for the cache to expire; answers the active version. */
  refresh(): Promise<string | null>;
  /** The most specific record in effect on `date`: an address range (A) for a street address, else a ZIP+4 range (4) when zip4 is given. */
  probe(query: BoundaryQuery): Promise<BoundaryMatch | null>;
  /** The same for many queries at once, answers in the same order: one statement per chunk on PostgreSQL, one prepared statement on SQLite. */
  probeMany(queries: readonly BoundaryQuery[]): Promise<(BoundaryMatch | null)[]>;
  /**
   * The ZIP's jurisdiction sets from the active file's records in effect on `date` (Z, 4 and A), or
   * null when no file is active or it holds no record for the ZIP on that date. Cached per version,
   * ZIP and date.
   */
  zipSummary(zip5: string, date: string): Promise<ZipSummary | null>;
  /** The active version's streets and cities per ZIP (street-index.ts), read once per version; null when no file is active. */
  streets(): Promise<StreetIndex | null>;
  close(): Promise<void>;
}
