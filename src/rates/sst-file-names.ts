/**
 * What the names of the state's Streamlined Sales Tax files say: `<ST><kind><YYYY>Q<n><MON><D>`,
 * kind R for a rate file (OHR2026Q1NOV28) and B for a boundary file (OHB2026Q4SEP17). The year
 * and quarter are the ones the file is for; the month and day are when it was posted, and a
 * posting month after the quarter's first month belongs to the year before (OHR2026Q1NOV28 was
 * posted 2025-11-28). Pure; the rate reconciliation, the data-freshness report and the boundary
 * file job all read names through here.
 */
import { isIsoDate, type IsoDate } from "./calendar.ts";

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const QUARTER_LAST_DAY = ["03-31", "06-30", "09-30", "12-31"];

/** The posting date of the file for `year` Q`quarter`, posted on `day` of the month named `mon` (JAN…DEC). */
export function postedOn(year: number, quarter: number, mon: string, day: number): IsoDate | null {
  const month = MONTHS.indexOf(mon.toUpperCase()) + 1;
  if (month === 0) return null;
  const quarterStart = (quarter - 1) * 3 + 1;
  const iso = `${year - (month > quarterStart ? 1 : 0)}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return isIsoDate(iso) ? iso : null;
}

/** The posting date in a rate file's name (`<ST>R<YYYY>Q<n><MON><D>`, maybe with an extension), or null. */
export function postingDate(fileName: string): IsoDate | null {
  const match = /^[A-Z]{2}R(\d{4})Q([1-4])([A-Z]{3})(\d{1,2})(?:\.|$)/i.exec(fileName);
  return match ? postedOn(Number(match[1]), Number(match[2]), match[3]!, Number(match[4])) : null;
}

/**
 * The last day of the quarter a rate file is for: OHR2027Q1NOV30 lists the rates in force from
 * 2027-01-01 through 2027-03-31. The reconciliation log names an archive with its entry beside
 * it ("rates.zip (OHR2027Q1NOV30.csv)"), so either name may carry the quarter.
 */
export function quarterEnd(loggedName: string): IsoDate | null {
  for (const name of loggedName.split(/ \(|\)$/)) {
    const match = /^[A-Z]{2}R(\d{4})Q([1-4])/i.exec(name.trim());
    if (match) return `${match[1]}-${QUARTER_LAST_DAY[Number(match[2]) - 1]}`;
  }
  return null;
}
