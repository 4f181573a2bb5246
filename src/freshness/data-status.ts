/**
 * The data status document behind `buckeye data status` and the dashboard's freshness line: how
 * current the rates are and how old the boundaries are, each item with its age in days (today
 * in Ohio minus the item's date; negative while the date is still ahead). Pure.
 */
import { dateInOhio, daysBetween, type IsoDate } from "../rates/calendar.ts";
import type { PolygonFiles, LayerFile } from "../geo/polygon-files.ts";
import type { BoundaryFileVersion } from "./boundary-file.ts";
import { RATE_FILE_DOWNLOAD } from "./rate-file-download.ts";
import { staleness, type FreshnessSource, type RatesFreshness } from "./rates-freshness.ts";

export interface DatedItem {
  date: IsoDate;
  age_days: number;
  /** The shipped data (data/meta.json) or a reconciliation run in this database. */
  source: "shipped" | "reconciliation";
  /** The run it comes from; null for the shipped data. */
  reconciliation_id: string | null;
  /** The state rate file it rests on. */
  file: string | null;
}

export interface LastRun {
  id: string;
  status: "succeeded" | "failed";
  date: IsoDate;
  file: string | null;
  error: string | null;
}

export interface Vintage {
  vintage: number;
  /** TIGER/Line boundaries are those in effect on January 1 of their vintage year. */
  as_of: IsoDate;
  age_days: number;
  file: string;
}

export interface DataStatus {
  /** Today in America/New_York, the day every age is counted to. */
  today: IsoDate;
  rates: {
    confirmed_through: DatedItem;
    last_reconciled: DatedItem;
    stale: boolean;
    stale_after_days: number;
    /** The latest run of any outcome, so a failing reconciliation shows before it makes the rates stale. */
    last_run: LastRun | null;
  };
  boundaries: {
    counties: Vintage | null;
    places: Vintage | null;
    /** Why the county and place polygons are missing; null when both are there. */
    polygons_unavailable: string | null;
    zctas: Vintage;
    /** The state's boundary file in force (src/freshness/boundary-file.ts); null while none is loaded. */
    boundary_file: (BoundaryFileVersion & { age_days: number }) | null;
  };
}

export interface DataStatusInputs {
  today: IsoDate;
  staleAfterDays: number;
  freshness: RatesFreshness;
  lastRun: LastRun | null;
  polygons: PolygonFiles;
  zctaVintage: number;
  boundaryFile: BoundaryFileVersion | null;
}

/** Where zip-counties.csv's ZIP areas come from (data/SOURCES.md). */
const ZCTA_FILE = "data/zip-counties.csv (2020 ZCTA to County Relationship File)";

function dated(date: IsoDate, source: FreshnessSource, today: IsoDate): DatedItem {
  return {
    date,
    age_days: daysBetween(date, today),
    source: source.reconciliationId === null ? "shipped" : "reconciliation",
    reconciliation_id: source.reconciliationId,
    file: source.file,
  };
}

function vintage(year: number, file: string, today: IsoDate): Vintage {
  const asOf = `${year}-01-01`;
  return { vintage: year, as_of: asOf, age_days: daysBetween(asOf, today), file };
}

function layer(file: LayerFile | undefined, today: IsoDate): Vintage | null {
  return file ? vintage(file.vintage, file.path, today) : null;
}

export function dataStatus(inputs: DataStatusInputs): DataStatus {
  const { today, freshness, polygons, boundaryFile } = inputs;
  return {
    today,
    rates: {
      confirmed_through: dated(freshness.confirmedThrough, freshness.confirmedBy, today),
      last_reconciled: dated(freshness.lastReconciled, freshness.lastReconciledBy, today),
      stale: staleness(freshness.lastReconciled, today, inputs.staleAfterDays).stale,
      stale_after_days: inputs.staleAfterDays,
      last_run: inputs.lastRun,
    },
    boundaries: {
      counties: layer(polygons.available ? polygons.counties : undefined, today),
      places: layer(polygons.available ? polygons.places : undefined, today),
      polygons_unavailable: polygons.available ? null : polygons.reason,
      zctas: vintage(inputs.zctaVintage, ZCTA_FILE, today),
      boundary_file: boundaryFile && { ...boundaryFile, age_days: daysBetween(dateInOhio(new Date(boundaryFile.imported_at)), today) },
    },
  };
}

/** "today", "1 day ago", "54 days ago", "in 12 days". */
export function ago(days: number): string {
  if (days === 0) return "today";
  const count = Math.abs(days) === 1 ? "1 day" : `${Math.abs(days)} days`;
  return days > 0 ? `${count} ago` : `in ${count}`;
}

function origin(item: DatedItem): string {
  const file = item.file ?? "no file name";
  return item.source === "shipped" ? `${file}, shipped data (data/meta.json)` : `${file}, reconciliation ${item.reconciliation_id}`;
}

function vintageLine(label: string, item: Vintage | null): string {
  return item ? `  ${label.padEnd(19)}${String(item.vintage).padEnd(12)}as of ${item.as_of}, ${ago(item.age_days)}  ${item.file}` : `  ${label.padEnd(19)}not found`;
}

/** The human form of `buckeye data status`. */
export function formatDataStatus(status: DataStatus): string {
  const { rates, boundaries } = status;
  const run = rates.last_run;
  const lines = [
    `as of ${status.today} (America/New_York)`,
    "rates",
    `  confirmed through  ${rates.confirmed_through.date}  ${ago(rates.confirmed_through.age_days).padEnd(13)}${origin(rates.confirmed_through)}`,
    `  last reconciled    ${rates.last_reconciled.date}  ${ago(rates.last_reconciled.age_days).padEnd(13)}${origin(rates.last_reconciled)}`,
    `  staleness          ${rates.stale ? "STALE" : "ok"} (stale after ${rates.stale_after_days} days without a successful reconciliation, RECONCILE_STALE_AFTER_DAYS)`,
    ...(rates.stale ? [`  ${"".padEnd(19)}${RATE_FILE_DOWNLOAD}`] : []),
    `  last run           ${run ? `${run.date} ${run.status} ${run.id} ${run.file ?? ""}${run.error ? `: ${run.error}` : ""}` : "none in this database"}`,
    "boundaries (TIGER/Line vintage)",
    vintageLine("counties", boundaries.counties),
    vintageLine("places", boundaries.places),
    ...(boundaries.polygons_unavailable ? [`  ${"".padEnd(19)}${boundaries.polygons_unavailable}`] : []),
    vintageLine("ZIP areas (ZCTA)", boundaries.zctas),
    `  ${"boundary file".padEnd(19)}${boundaries.boundary_file ? `${boundaries.boundary_file.version}, imported ${boundaries.boundary_file.imported_at}, ${ago(boundaries.boundary_file.age_days)}` : "none loaded"}`,
  ];
  return lines.join("\n");
}
