/** Calendar dates as ISO strings (YYYY-MM-DD): they compare correctly as plain strings. */
export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (rejects 2025-02-30). */
export function isIsoDate(text: string): text is IsoDate {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * Why `text` is not a date Buckeye reads, in words that say what to send instead; null when it is one.
 * A date written YYYY-MM-DD that no calendar has (2025-02-30) is told so, not that it is written wrongly;
 * a date written as Americans write it (03/31/2025) is shown in the form to send.
 */
export function dateProblem(text: string): string | null {
  if (isIsoDate(text)) return null;
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    if (month < 1 || month > 12) return `${text} is written YYYY-MM-DD but is not a calendar date: there is no month ${iso[2]}`;
    const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return `${text} is written YYYY-MM-DD but is not a calendar date: ${MONTH_NAMES[month - 1]} ${year} has ${days} days`;
  }
  const us = US_DATE.exec(text);
  if (us) {
    const written = `${us[3]}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}`;
    if (isIsoDate(written)) return `must be written YYYY-MM-DD: for ${text} send ${written}`;
  }
  return "must be a calendar date written YYYY-MM-DD";
}

const newYork = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/New_York",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

let cachedMinute = Number.NaN;
let cachedDate: IsoDate = "";

/**
 * "Today" for an Ohio sale is the calendar date in America/New_York, not in UTC: a sale at 9 p.m.
 * in Columbus on the last day of a quarter still falls in that quarter.
 * Every request asks, so the answer is kept for the minute it was computed in: New York's
 * offset is whole hours, so a date never changes within a UTC minute.
 */
export function dateInOhio(instant: Date): IsoDate {
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute !== cachedMinute) {
    cachedMinute = minute;
    cachedDate = newYork.format(instant);
  }
  return cachedDate;
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
