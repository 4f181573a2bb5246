/**
 * Filing periods as the API names them: `2026-11` for a monthly filer's November, `2026-H1` and
 * `2026-H2` for a semiannual filer's January–June and July–December. Ohio's returns are due on the
 * 23rd of the month after the period (R.C. 5739.12), as the filing.due reminders say.
 */
import { addDays, type IsoDate } from "../rates/calendar.ts";
import type { FilingFrequency } from "../store/database.ts";

export interface FilingPeriod {
  /** `2026-11`, `2026-H1` or `2026-H2`. */
  label: string;
  frequency: FilingFrequency;
  start: IsoDate;
  /** The last day of the period, inclusive. */
  end: IsoDate;
  /** The 23rd of the month after the period. */
  dueDate: IsoDate;
}

const MONTHLY = /^(\d{4})-(0[1-9]|1[0-2])$/;
const SEMIANNUAL = /^(\d{4})-H([12])$/;

const firstOfMonth = (year: number, month: number): IsoDate => new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10);

function period(label: string, frequency: FilingFrequency, year: number, firstMonth: number, months: number): FilingPeriod {
  const next = firstOfMonth(year, firstMonth + months);
  return { label, frequency, start: firstOfMonth(year, firstMonth), end: addDays(next, -1), dueDate: `${next.slice(0, 8)}23` };
}

/** The period a label names, or null when it is written neither way. */
export function parsePeriod(label: string): FilingPeriod | null {
  const monthly = MONTHLY.exec(label);
  if (monthly) return period(label, "monthly", Number(monthly[1]), Number(monthly[2]), 1);
  const half = SEMIANNUAL.exec(label);
  if (half) return period(label, "semiannual", Number(half[1]), half[2] === "1" ? 1 : 7, 6);
  return null;
}

/** The label of the period that starts on `start` for a frequency: what a filing.due reminder names. */
export function periodLabel(frequency: FilingFrequency, start: IsoDate): string {
  if (frequency === "monthly") return start.slice(0, 7);
  return `${start.slice(0, 4)}-H${Number(start.slice(5, 7)) <= 6 ? 1 : 2}`;
}

/** Where a period's worksheet is: the API's JSON or CSV (by the caller's key, its ledger), and the dashboard's page. */
export const returnPaths = (label: string) => ({ api: `/api/v1/returns/${label}`, dashboard: `/dashboard/returns/${label}` });

/** The periods of a frequency from the one holding `today` back, newest first: the dashboard's list. */
export function recentPeriods(frequency: FilingFrequency, today: IsoDate, count: number): FilingPeriod[] {
  const out: FilingPeriod[] = [];
  let start = `${today.slice(0, 7)}-01`;
  if (frequency === "semiannual") start = `${today.slice(0, 4)}-${Number(today.slice(5, 7)) <= 6 ? "01" : "07"}-01`;
  while (out.length < count) {
    out.push(parsePeriod(periodLabel(frequency, start))!);
    start = addDays(start, -1).slice(0, 7) + "-01";
    if (frequency === "semiannual") start = `${start.slice(0, 4)}-${Number(start.slice(5, 7)) <= 6 ? "01" : "07"}-01`;
  }
  return out;
}
