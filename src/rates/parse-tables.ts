/**
 * Turns the shipped tables (data/counties.csv, data/rate-periods.csv, data/transit-districts.json)
 * into a RateTable. Pure: the caller reads the files.
 */
import { parse } from "csv-parse/sync";
import { isIsoDate, type IsoDate } from "./calendar.ts";
import { parseRate } from "./millionths.ts";
import { countyKey } from "./evaluate.ts";
import type { County, RateComponent, RatePeriod, RateTable, TransitDistrict } from "./rate-table.ts";
import { OHIO_STATE_RATE } from "./state-rate.ts";

export interface TableSources {
  countiesCsv: string;
  ratePeriodsCsv: string;
  transitDistrictsJson: string;
  historyStart: IsoDate;
}

const COMPONENTS: readonly RateComponent[] = ["county", "transit", "district"];

function optionalDate(text: string | undefined, what: string): IsoDate | null {
  if (!text) return null;
  if (!isIsoDate(text)) throw new Error(`${what}: not a date: "${text}"`);
  return text;
}

function readRows(csv: string): Record<string, string>[] {
  return parse(csv, { columns: true, skip_empty_lines: true, trim: true });
}

export function parseRatePeriods(csv: string): RatePeriod[] {
  return readRows(csv).map((row, index) => {
    const where = `rate-periods.csv row ${index + 2}`;
    const component = row.component as RateComponent;
    if (!COMPONENTS.includes(component)) throw new Error(`${where}: unknown component "${row.component}"`);
    return {
      fips: row.fips ?? "",
      component,
      authority: row.authority || null,
      rate: parseRate(row.rate ?? ""),
      effectiveFrom: optionalDate(row.effective_from, where),
      effectiveTo: optionalDate(row.effective_to, where),
    };
  });
}

export function buildRateTable(counties: County[], periods: RatePeriod[], districts: TransitDistrict[], historyStart: IsoDate): RateTable {
  const byFips = new Map(counties.map((c) => [c.fips, c]));
  const grouped = new Map<string, RatePeriod[]>();
  for (const period of periods) {
    if (!byFips.has(period.fips)) throw new Error(`rate period for unknown county ${period.fips}`);
    grouped.set(period.fips, [...(grouped.get(period.fips) ?? []), period]);
  }
  return {
    counties,
    byFips,
    byKey: new Map(counties.map((c) => [countyKey(c.slug), c])),
    periods: grouped,
    districts: new Map(districts.map((d) => [d.fips, d])),
    stateRate: OHIO_STATE_RATE,
    historyStart,
  };
}

export function parseTables(sources: TableSources): RateTable {
  const counties = readRows(sources.countiesCsv).map((row) => ({
    fips: row.fips ?? "",
    name: row.name ?? "",
    slug: row.slug ?? "",
  }));
  const districts = (JSON.parse(sources.transitDistrictsJson) as Array<Omit<TransitDistrict, "reportingCodes"> & { odt_codes: TransitDistrict["reportingCodes"] }>).map(
    ({ fips, authority, name, area, places, odt_codes }) => ({ fips, authority, name, area, places, reportingCodes: { district: odt_codes.district, rest: odt_codes.rest } }),
  );
  return buildRateTable(counties, parseRatePeriods(sources.ratePeriodsCsv), districts, sources.historyStart);
}
