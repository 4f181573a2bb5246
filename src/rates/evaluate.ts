/**
 * Evaluates a county's statutory rate at a date: picks the period of each component that
 * covers the date, adds them to the state rate, and finds the next enacted change.
 * Pure: takes the loaded table, returns data.
 */
import type { IsoDate } from "./calendar.ts";
import type { Millionths } from "./millionths.ts";
import type { County, RateComponent, RatePeriod, RateTable, TransitDistrict } from "./rate-table.ts";

/**
 * Where a sale stands against a transit district that covers part of its county: unknown for
 * county and ZIP lookups; inside or outside once an address settles it.
 */
export type TransitStatus = "inside" | "outside" | "unknown";

export interface Components {
  state: Millionths;
  county: Millionths;
  transit: Millionths;
}

export interface DistrictEvaluation {
  district: TransitDistrict;
  levy: Millionths;
  combinedInside: Millionths;
  status: TransitStatus;
}

export interface Upcoming {
  effectiveDate: IsoDate;
  combined: Millionths;
  components: Components;
  /** Present when the county is split by a transit district and the location is not settled. */
  combinedInside: Millionths | null;
}

export interface CountyRate {
  county: County;
  date: IsoDate;
  combined: Millionths;
  components: Components;
  effectiveFrom: IsoDate | null;
  /** null unless a transit district with a levy splits the county at this date. */
  district: DistrictEvaluation | null;
  upcoming: Upcoming | null;
}

type Snapshot = Omit<CountyRate, "upcoming">;

function periodAt(periods: readonly RatePeriod[], component: RateComponent, date: IsoDate): RatePeriod | null {
  for (const period of periods) {
    if (period.component !== component) continue;
    if (period.effectiveFrom !== null && period.effectiveFrom > date) continue;
    if (period.effectiveTo !== null && period.effectiveTo <= date) continue;
    return period;
  }
  return null;
}

/** The combined rate took effect when its most recently started component did; null if none is known. */
function latestStart(periods: Array<RatePeriod | null>): IsoDate | null {
  let latest: IsoDate | null = null;
  for (const period of periods) {
    const from = period?.effectiveFrom ?? null;
    if (from !== null && (latest === null || from > latest)) latest = from;
  }
  return latest;
}

function snapshot(table: RateTable, county: County, date: IsoDate, status: TransitStatus): Snapshot {
  const periods = table.periods.get(county.fips) ?? [];
  const countyLevy = periodAt(periods, "county", date);
  const countywideTransit = periodAt(periods, "transit", date);
  const districtLevy = periodAt(periods, "district", date);
  const info = table.districts.get(county.fips);

  const base: Components = {
    state: table.stateRate,
    county: countyLevy?.rate ?? 0,
    transit: countywideTransit?.rate ?? 0,
  };
  const baseCombined = base.state + base.county + base.transit;
  const district: DistrictEvaluation | null =
    info && districtLevy && districtLevy.rate > 0
      ? { district: info, levy: districtLevy.rate, combinedInside: baseCombined + districtLevy.rate, status }
      : null;
  // Inside the district its levy joins the transit component; outside or unsettled, the countywide rate stands.
  const inside = district !== null && status === "inside";
  return {
    county,
    date,
    combined: inside ? district.combinedInside : baseCombined,
    components: inside ? { ...base, transit: base.transit + district.levy } : base,
    effectiveFrom: latestStart(inside ? [countyLevy, countywideTransit, districtLevy] : [countyLevy, countywideTransit]),
    district,
  };
}

function sameFigures(a: Snapshot, b: Snapshot): boolean {
  return (
    a.combined === b.combined &&
    a.components.county === b.components.county &&
    a.components.transit === b.components.transit &&
    (a.district?.combinedInside ?? null) === (b.district?.combinedInside ?? null)
  );
}

/**
 * The next enacted change after `date` to the figures this record shows: the combined rate,
 * its components and, while the transit district is not settled, the in-district rate.
 */
function nextChange(table: RateTable, current: Snapshot, status: TransitStatus): Upcoming | null {
  const periods = table.periods.get(current.county.fips) ?? [];
  const boundaries = [
    ...new Set(
      periods
        .filter((p) => p.component !== "district" || status !== "outside")
        .flatMap((p) => [p.effectiveFrom, p.effectiveTo])
        .filter((d): d is IsoDate => d !== null && d > current.date),
    ),
  ].sort();
  for (const boundary of boundaries) {
    const later = snapshot(table, current.county, boundary, status);
    if (sameFigures(current, later)) continue;
    return {
      effectiveDate: boundary,
      combined: later.combined,
      components: later.components,
      combinedInside: status === "unknown" ? (later.district?.combinedInside ?? null) : null,
    };
  }
  return null;
}

export function evaluateCounty(
  table: RateTable,
  county: County,
  date: IsoDate,
  status: TransitStatus = "unknown",
): CountyRate {
  const current = snapshot(table, county, date, status);
  return { ...current, upcoming: nextChange(table, current, status) };
}

/** "Van Wert", "van-wert", "VAN_WERT County" → "van-wert": the slug form every county is keyed by. */
export function countyKey(text: string): string {
  return text.trim().toLowerCase().replace(/[\s_-]+/g, "-").replace(/-county$/, "");
}

/** Looks a county up by FIPS, slug or canonical name, in any case. */
export function findCounty(table: RateTable, text: string): County | null {
  return table.byFips.get(text.trim()) ?? table.byKey.get(countyKey(text)) ?? null;
}
