/**
 * Row shapes of the tables added by migrations 2026-11-23-060 (the SST boundary file, by version),
 * 2026-11-24-080 (the import lease), 2026-11-25-100 (each version's import report), 2026-11-27-250
 * (the city names a version gives its ZIPs) and 2026-12-02-450 (its streets per ZIP, prepared for the street index).
 */
import type { Selectable } from "kysely";

/** loading: records being written, invisible to lookups; ready: complete (active, or kept for rollback). */
export type BoundaryVersionStatus = "loading" | "ready";

export interface BoundaryVersionsTable {
  version: string;
  status: BoundaryVersionStatus;
  /** The path or URL it was read from (with the archive's entry). */
  source: string;
  records: number;
  address_ranges: number;
  zip4_ranges: number;
  zip5_ranges: number;
  started_at: string;
  imported_at: string | null;
  /** The import's report as JSON (src/boundaries/import-file.ts ImportReport); null while loading, and for versions imported before reports were kept. */
  report: string | null;
}

export interface BoundaryPointerTable {
  /** Always "active": the one row every instance reads. */
  name: string;
  version: string | null;
  previous_version: string | null;
  switched_at: string | null;
}

/** Always one row, "import": the running import's lease, if any. */
export interface BoundaryImportLeaseTable {
  name: string;
  /** Who holds it (an id per import); null when no import runs. */
  holder: string | null;
  /** What that import reads, for the refusal of a second one. */
  source: string | null;
  taken_at: string | null;
  /** The lease holds until then unless renewed; an import that died lets it lapse. */
  expires_at: string | null;
}

export interface BoundaryRecordsTable {
  version: string;
  line: number;
  record_type: "A" | "4" | "Z";
  effective_from: string;
  effective_to: string | null;
  zip5: string;
  zip5_high: string;
  plus4_low: string | null;
  plus4_high: string | null;
  /** The Pub 28 street key (src/boundaries/pub28.ts); null for 4 and Z records. */
  street: string | null;
  house_low: number | null;
  house_high: number | null;
  parity: "O" | "E" | "B" | null;
  unit_designator: string | null;
  unit_low: string | null;
  unit_high: string | null;
  unit_parity: "O" | "E" | "B" | null;
  county_fips: string;
  transit_code: string | null;
}

/** One distinct (ZIP, city name) of a version's records (column 15; a synthetic file's mark taken off). */
export interface BoundaryCitiesTable {
  version: string;
  zip5: string;
  city: string;
}

export type BoundaryVersion = Selectable<BoundaryVersionsTable>;

/** A version's streets in one ZIP, as the street index files them (src/boundaries/street-index.ts preparedStreets). */
export interface BoundaryStreetsTable {
  version: string;
  zip5: string;
  streets: string;
}
