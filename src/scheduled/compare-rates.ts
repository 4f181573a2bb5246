/**
 * Compares a parsed SST rate file with the rate table. Pure. Three results:
 *  - the file is partial (a county, or the state, has no row in force today): use nothing of it;
 *  - enacted future changes: periods the file has after today that the table does not, to record;
 *  - discrepancies: today's or past figures that differ. These are logged for a person to check,
 *    never applied: the shipped data cites a source for each figure.
 */
import { z } from "zod";
import { type IsoDate } from "../rates/calendar.ts";
import { formatRate, type Millionths } from "../rates/millionths.ts";
import type { RateComponent, RatePeriod, RateTable } from "../rates/rate-table.ts";
import type { SstRow } from "./sst-rate-file.ts";

/** The SST codes of one county's jurisdictions. */
export interface CountyCodes {
  fips: string;
  county: string;
  /** Countywide transit authority: ODT's county number × 1000 ("25000" for Franklin). */
  transit: string;
  /** A transit district covering part of the county ("96000" COTA in Delaware), if any. */
  district: string | null;
}

/** One figure of the state's file that differs from ours; also what GET /api/v1/reconciliations lists. */
export const discrepancySchema = z.strictObject({
  fips: z.string().nullable(),
  county: z.string().nullable(),
  component: z.enum(["county", "transit", "district", "state"]).nullable(),
  code: z.string(),
  date: z.string().nullable(),
  file_rate: z.string().nullable(),
  our_rate: z.string().nullable(),
  reason: z.string(),
});
export type Discrepancy = z.infer<typeof discrepancySchema>;

export type Comparison =
  | { ok: false; error: string }
  | { ok: true; periods: RatePeriod[]; discrepancies: Discrepancy[] };

/**
 * ODT numbers counties 01–88 alphabetically; county FIPS = 2 × number − 1, since Ohio's county FIPS
 * codes are the odd numbers in the same order.
 */
export function countyCodes(table: RateTable, districtCodes: ReadonlyMap<string, string>): CountyCodes[] {
  return table.counties.map((county) => {
    const odt = (Number(county.fips.slice(2)) + 1) / 2;
    return {
      fips: county.fips,
      county: county.name,
      transit: `${String(odt).padStart(2, "0")}000`,
      district: districtCodes.get(county.fips) ?? null,
    };
  });
}

function rateAt(periods: readonly { rate: Millionths; from: IsoDate | null; to: IsoDate | null }[], date: IsoDate): Millionths {
  const period = periods.find((p) => (p.from === null || p.from <= date) && (p.to === null || date < p.to));
  return period?.rate ?? 0;
}

function tablePeriods(table: RateTable, fips: string, component: RateComponent) {
  return (table.periods.get(fips) ?? [])
    .filter((p) => p.component === component)
    .map((p) => ({ rate: p.rate, from: p.effectiveFrom, to: p.effectiveTo, authority: p.authority }));
}

export function compareWithTable(table: RateTable, codes: readonly CountyCodes[], rows: readonly SstRow[], today: IsoDate): Comparison {
  const state = rows.filter((r) => r.type === "state");
  if (rateAt(state, today) === 0) return { ok: false, error: `no state rate (type 45) in force on ${today}: the file is partial` };

  const byCode = new Map<string, SstRow[]>();
  for (const row of rows) if (row.type !== "state") byCode.set(`${row.type}:${row.code}`, [...(byCode.get(`${row.type}:${row.code}`) ?? []), row]);
  const missing = codes.filter((c) => !(byCode.get(`county:${c.fips.slice(2)}`) ?? []).some((r) => r.from <= today && (r.to === null || today < r.to)));
  if (missing.length > 0) {
    const names = missing.slice(0, 5).map((c) => c.county).join(", ");
    return { ok: false, error: `${missing.length} counties have no county rate (type 00) in force on ${today} (${names}${missing.length > 5 ? ", …" : ""}): the file is partial` };
  }

  const discrepancies: Discrepancy[] = [];
  const periods: RatePeriod[] = [];
  const known = new Set<string>();
  const stateRate = rateAt(state, today);
  if (stateRate !== table.stateRate) {
    discrepancies.push({ fips: null, county: null, component: "state", code: "39", date: today, file_rate: formatRate(stateRate), our_rate: formatRate(table.stateRate), reason: "state rate differs" });
  }

  for (const county of codes) {
    const jurisdictions: Array<[RateComponent, string, "county" | "transit"]> = [
      ["county", county.fips.slice(2), "county"],
      ["transit", county.transit, "transit"],
      ...(county.district ? [["district", county.district, "transit"] as [RateComponent, string, "transit"]] : []),
    ];
    for (const [component, code, type] of jurisdictions) {
      known.add(`${type}:${code}`);
      const fileRows = byCode.get(`${type}:${code}`) ?? [];
      const ours = tablePeriods(table, county.fips, component);
      const note = (date: IsoDate, fileRate: Millionths, ourRate: Millionths, reason: string) =>
        discrepancies.push({ fips: county.fips, county: county.county, component, code, date, file_rate: formatRate(fileRate), our_rate: formatRate(ourRate), reason });

      // Today and the start of each past row the history covers: figures must agree.
      const checkDates = new Set([today, ...fileRows.map((r) => r.from).filter((d) => d >= table.historyStart && d < today)]);
      for (const date of [...checkDates].sort()) {
        const fileRate = rateAt(fileRows, date);
        const ourRate = rateAt(ours, date);
        if (fileRate !== ourRate) note(date, fileRate, ourRate, fileRows.length === 0 ? "no row in the file for a levy we hold" : "rate differs");
      }

      // After today: every date where either side changes; where the file differs, it is enacted news.
      const boundaries = [...new Set([...fileRows, ...ours].flatMap((p) => [p.from, p.to]).filter((d): d is IsoDate => d !== null && d > today))].sort();
      const authority = ours.find((p) => p.authority)?.authority ?? null;
      for (const [index, date] of boundaries.entries()) {
        const fileRate = rateAt(fileRows, date);
        if (fileRate === rateAt(ours, date)) continue;
        periods.push({ fips: county.fips, component, authority, rate: fileRate, effectiveFrom: date, effectiveTo: boundaries[index + 1] ?? null });
      }
    }
  }

  for (const [key, group] of byCode) {
    if (known.has(key)) continue;
    const [type, code] = key.split(":") as [string, string];
    discrepancies.push({ fips: null, county: null, component: null, code, date: null, file_rate: formatRate(group[0]!.rate), our_rate: null, reason: `unknown ${type} jurisdiction code; ignored` });
  }
  return { ok: true, periods, discrepancies };
}
