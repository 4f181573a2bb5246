/**
 * How current the rates are, from the shipped data and the reconciliation log. Pure.
 *
 * - last reconciled: the day of the latest successful reconciliation, else the shipped data's.
 * - confirmed through: the last day whose rates a source confirmed. The shipped data says it
 *   itself (data/meta.json `verified_through`). A successful reconciliation confirms the quarter
 *   its state file is for (OHR2027Q1… through 2027-03-31): the file lists every rate in force in
 *   that quarter, and the run recorded its future periods. A run that found a figure differing
 *   from ours confirms nothing: the differences wait for a person, so our answers are not the
 *   file's. The latest date any source confirmed wins.
 */
import { daysBetween, type IsoDate } from "../rates/calendar.ts";
import { quarterEnd } from "../jobs/sst-rate-file.ts";

/** What data/meta.json says of the shipped rates. */
export interface ShippedCurrency {
  last_reconciled: IsoDate;
  verified_through: IsoDate;
  rate_file: string;
}

/** A successful run as the reconciliation log holds it. */
export interface SuccessfulRun {
  id: string;
  file_name: string | null;
  reconciled_on: IsoDate;
  finished_at: string;
  /** JSON array of discrepancies (src/jobs/compare-rates.ts). */
  discrepancies: string;
}

/** Where a date comes from: the shipped data, or a reconciliation run and the file it read. */
export interface CurrencySource {
  reconciliationId: string | null;
  file: string | null;
}

export interface RatesCurrency {
  lastReconciled: IsoDate;
  lastReconciledBy: CurrencySource;
  confirmedThrough: IsoDate;
  confirmedBy: CurrencySource;
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

/** `runs` newest first, as the log lists them. */
export function ratesCurrency(shipped: ShippedCurrency, runs: readonly SuccessfulRun[]): RatesCurrency {
  const shippedSource: CurrencySource = { reconciliationId: null, file: shipped.rate_file };
  const latest = runs[0];
  let confirmedThrough = shipped.verified_through;
  let confirmedBy = shippedSource;
  for (const run of runs) {
    const through = run.file_name === null ? null : quarterEnd(run.file_name);
    if (through === null || through <= confirmedThrough || foundDifferences(run.discrepancies)) continue;
    confirmedThrough = through;
    confirmedBy = { reconciliationId: run.id, file: run.file_name };
  }
  return {
    lastReconciled: latest?.reconciled_on ?? shipped.last_reconciled,
    lastReconciledBy: latest ? { reconciliationId: latest.id, file: latest.file_name } : shippedSource,
    confirmedThrough,
    confirmedBy,
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
