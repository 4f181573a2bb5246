/**
 * How current the rates are, from the shipped data and the latest successful reconciliation. Pure.
 *
 * - last reconciled: the day of the latest successful reconciliation, else the shipped data's.
 * - confirmed through: the last day whose rates a source confirmed. The shipped data says it
 *   itself (data/meta.json `verified_through`). A successful reconciliation confirms the quarter
 *   its state file is for (OHR2027Q1… through 2027-03-31): the file lists every rate in force in
 *   that quarter, and the run recorded its future periods. Only the latest run counts: each run
 *   lays its own file's future periods over ours, so an earlier run's newer file no longer speaks
 *   for our answers. A run that found a figure differing from ours confirms nothing: the
 *   differences wait for a person, so our answers are not the file's. The later of the shipped
 *   date and the run's wins.
 */
import { daysBetween, type IsoDate } from "../rates/calendar.ts";
import { quarterEnd } from "../rates/sst-file-names.ts";

/** What data/meta.json says of the shipped rates. */
export interface ShippedFreshness {
  last_reconciled: IsoDate;
  verified_through: IsoDate;
  rate_file: string;
}

/** A successful run as the reconciliation log holds it. */
export interface SuccessfulRun {
  id: string;
  file_name: string | null;
  reconciled_on: IsoDate;
  /** JSON array of discrepancies (src/scheduled/compare-rates.ts). */
  discrepancies: string;
}

/** Where a date comes from: the shipped data, or a reconciliation run and the file it read. */
export interface FreshnessSource {
  reconciliationId: string | null;
  file: string | null;
}

export interface RatesFreshness {
  lastReconciled: IsoDate;
  lastReconciledBy: FreshnessSource;
  confirmedThrough: IsoDate;
  confirmedBy: FreshnessSource;
}

/** True when a run's log lists a figure (state, county, transit or district) that differs from ours; an ignored unknown code does not count. */
function foundDifferences(discrepancies: string): boolean {
  try {
    const list = JSON.parse(discrepancies) as Array<{ component?: string | null }>;
    return list.some((d) => d.component !== null && d.component !== undefined);
  } catch {
    // An unreadable log cannot vouch for the run.
    return true;
  }
}

/** `latest`: the latest successful run, if there is one. */
export function ratesFreshness(shipped: ShippedFreshness, latest: SuccessfulRun | undefined): RatesFreshness {
  const shippedSource: FreshnessSource = { reconciliationId: null, file: shipped.rate_file };
  if (!latest) return { lastReconciled: shipped.last_reconciled, lastReconciledBy: shippedSource, confirmedThrough: shipped.verified_through, confirmedBy: shippedSource };
  const run: FreshnessSource = { reconciliationId: latest.id, file: latest.file_name };
  const through = latest.file_name === null ? null : quarterEnd(latest.file_name);
  const confirms = through !== null && through > shipped.verified_through && !foundDifferences(latest.discrepancies);
  return {
    lastReconciled: latest.reconciled_on,
    lastReconciledBy: run,
    confirmedThrough: confirms ? through : shipped.verified_through,
    confirmedBy: confirms ? run : shippedSource,
  };
}

export interface Staleness {
  ageDays: number;
  stale: boolean;
}

/** Stale when the last successful reconciliation is more than `staleAfterDays` days before `today`. */
export function staleness(lastReconciled: IsoDate, today: IsoDate, staleAfterDays: number): Staleness {
  const ageDays = daysBetween(lastReconciled, today);
  return { ageDays, stale: ageDays > staleAfterDays };
}
