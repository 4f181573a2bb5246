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
