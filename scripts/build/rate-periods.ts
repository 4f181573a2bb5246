import { compareText } from "./compare-text.ts";
import { formatMillionths, rateMillionths } from "./rate-text.ts";
import type { Component, CountyRate, RateChange, RateSources } from "./rate-sources.ts";

/** A local levy at one rate over [effectiveFrom, effectiveTo); null ends are unknown or open. */
export interface RatePeriod {
  readonly fips: string;
  readonly component: Component;
  readonly authority: string;
  readonly rate: string;
  readonly effectiveFrom: string | null;
  readonly effectiveTo: string | null;
  readonly source: string;
}

/** The sources contradict each other; the message names the county, levy and date. */
export class RateChainError extends Error {
  override readonly name = "RateChainError";
}

export const STATE_RATE = "0.0575";
/** The date county-rates.csv describes: rates in force from the 2026 Q1 SST rate file on. */
export const RATES_AS_OF = "2026-01-01";
export const CURRENT_SOURCE = "county-rates.csv (SST OHR2026Q1NOV28)";

const STATE = rateMillionths(STATE_RATE, "state rate");
/** R.C. 5739.021, 5739.023 and 5739.026 allow county and transit rates in steps of 0.05%. */
const RATE_STEP = 500;
/** Counties and transit authorities may change rates only on the first day of a calendar quarter. */
const QUARTER_START = /^\d{4}-(01|04|07|10)-01$/;

/**
 * Rate periods for every county levy, built from the current rates by walking the dated changes
 * backwards (newest first: the period before each change had its old rate), then checked against
 * every combined rate the sources state.
 */
export function buildRatePeriods(sources: RateSources): RatePeriod[] {
  const periods: RatePeriod[] = [];
  for (const county of sources.counties) {
    const levies = currentLevies(county, sources);
    const changes = sources.history.filter((change) => change.fips === county.fips);
    for (const change of changes) {
      if (change.county !== county.name) throw chainError(change, `county name ${change.county} does not match ${county.name}`);
      if (!levies.some((levy) => levy.component === change.component)) {
        throw chainError(change, `${county.name} has no ${change.component} levy in the current rates`);
      }
    }
    const countyPeriods = levies.flatMap((levy) =>
      walkBack(levy, changes.filter((change) => change.component === levy.component)),
    );
    checkCombinedRates(county, changes, countyPeriods, sources);
    periods.push(...countyPeriods);
  }
  return periods.sort(comparePeriods);
}

/** The rate of one levy at the instant `date` begins (0 where the county has no such levy). */
export function rateAt(periods: readonly RatePeriod[], fips: string, component: Component, date: string): number {
  const period = periods.find(
    (p) =>
      p.fips === fips &&
      p.component === component &&
      (p.effectiveFrom === null || p.effectiveFrom <= date) &&
      (p.effectiveTo === null || date < p.effectiveTo),
  );
  return period === undefined ? 0 : rateMillionths(period.rate, `${fips} ${component}`);
}

interface CurrentLevy {
  readonly fips: string;
  readonly component: Component;
  readonly authority: string;
  readonly rate: string;
  readonly source: string;
}

function currentLevies(county: CountyRate, sources: RateSources): CurrentLevy[] {
  const context = `${county.name} (${county.fips})`;
  const levies: CurrentLevy[] = [
    { fips: county.fips, component: "county", authority: `${county.name} County`, rate: county.countyRate, source: CURRENT_SOURCE },
  ];
  const transit = rateMillionths(county.transitRate, `${context} transit_rate`);
  if ((transit > 0) !== (county.transitAuthority !== null)) {
    throw new RateChainError(`${context}: a transit rate needs a transit authority and the reverse`);
  }
  if (county.transitAuthority !== null) {
    levies.push({ fips: county.fips, component: "transit", authority: county.transitAuthority, rate: county.transitRate, source: CURRENT_SOURCE });
  }
  const district = sources.districts.find((d) => d.fips === county.fips);
  if (district !== undefined) {
    levies.push({
      fips: county.fips,
      component: "district",
      authority: district.authority,
      rate: district.rate,
      source: `transit-districts.md (SST OHR2026Q1NOV28 code ${district.sstCode})`,
    });
  }
  for (const levy of levies) {
    if (rateMillionths(levy.rate, `${context} ${levy.component}`) % RATE_STEP !== 0) {
      throw new RateChainError(`${context}: ${levy.component} rate ${levy.rate} is not a multiple of 0.05%`);
    }
  }
  return levies;
}

function walkBack(levy: CurrentLevy, changes: readonly RateChange[]): RatePeriod[] {
  const newestFirst = [...changes].sort((a, b) => compareText(b.effectiveDate, a.effectiveDate));
  const periods: RatePeriod[] = [];
  let later: Omit<RatePeriod, "effectiveFrom"> = { ...levy, effectiveTo: null };
  for (const change of newestFirst) {
    if (!QUARTER_START.test(change.effectiveDate)) throw chainError(change, "the date is not the first day of a quarter");
    if (change.effectiveDate > RATES_AS_OF) throw chainError(change, `the change is later than the current rates (${RATES_AS_OF})`);
    if (later.effectiveTo !== null && change.effectiveDate >= later.effectiveTo) {
      throw chainError(change, `two changes of the same levy on or after ${later.effectiveTo}`);
    }
    if (rateMillionths(change.newRate, "new_rate") !== rateMillionths(later.rate, "rate")) {
      throw chainError(change, `new_rate ${change.newRate} differs from the rate that follows it, ${later.rate}`);
    }
    if (rateMillionths(change.oldRate, "old_rate") % RATE_STEP !== 0) throw chainError(change, "old_rate is not a multiple of 0.05%");
    periods.push({ ...later, effectiveFrom: change.effectiveDate, source: change.sourceNote });
    later = { ...levy, rate: change.oldRate, effectiveTo: change.effectiveDate, source: change.sourceNote };
  }
  periods.push({ ...later, effectiveFrom: null });
  return periods;
}

function checkCombinedRates(county: CountyRate, changes: readonly RateChange[], periods: readonly RatePeriod[], sources: RateSources): void {
  const context = `${county.name} (${county.fips})`;
  const countywide = (date: string): number =>
    STATE + rateAt(periods, county.fips, "county", date) + rateAt(periods, county.fips, "transit", date);
  const combined = (date: string, withDistrict: boolean): number =>
    countywide(date) + (withDistrict ? rateAt(periods, county.fips, "district", date) : 0);

  for (const change of changes) {
    const withDistrict = change.component === "district";
    const before = combined(dayBefore(change.effectiveDate), withDistrict);
    const after = combined(change.effectiveDate, withDistrict);
    if (before !== rateMillionths(change.oldCombined, "old_combined")) {
      throw chainError(change, `old_combined ${change.oldCombined} but the levies before it sum to ${formatMillionths(before)}`);
    }
    if (after !== rateMillionths(change.newCombined, "new_combined")) {
      throw chainError(change, `new_combined ${change.newCombined} but the levies from it sum to ${formatMillionths(after)}`);
    }
  }

  const current = countywide(RATES_AS_OF);
  if (current !== rateMillionths(county.combinedRate, `${context} combined_rate`)) {
    throw new RateChainError(`${context}: combined_rate ${county.combinedRate} but state + county + transit = ${formatMillionths(current)}`);
  }
  const district = sources.districts.find((d) => d.fips === county.fips);
  if (district !== undefined && combined(RATES_AS_OF, true) !== rateMillionths(district.inDistrictCombined, `${context} district`)) {
    throw new RateChainError(`${context}: in-district combined ${district.inDistrictCombined} but the levies sum to ${formatMillionths(combined(RATES_AS_OF, true))}`);
  }

  // The current countywide rate began when the latest of its county and transit periods began.
  const starts = periods
    .filter((p) => p.component !== "district" && p.effectiveTo === null && p.effectiveFrom !== null)
    .map((p) => p.effectiveFrom ?? "");
  const start = starts.length === 0 ? null : starts.reduce((a, b) => (a > b ? a : b));
  if (start !== county.effectiveFrom) {
    throw new RateChainError(`${context}: the history starts the current rate on ${start ?? "no known date"}, county-rates.csv on ${county.effectiveFrom ?? "no known date"}`);
  }
}

/** The last day before a quarter start, for "just before the change" look-ups. */
function dayBefore(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

function chainError(change: RateChange, problem: string): RateChainError {
  return new RateChainError(`${change.county} (${change.fips}) ${change.component} change of ${change.effectiveDate}: ${problem}`);
}

function comparePeriods(a: RatePeriod, b: RatePeriod): number {
  return (
    compareText(a.fips, b.fips) ||
    compareText(a.component, b.component) ||
    compareText(a.effectiveFrom ?? "", b.effectiveFrom ?? "")
  );
}
