/** Reads the shipped tables from DATA_DIR once, at start-up. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseZipIndex, type ZipIndex } from "./geo/zip-index.ts";
import type { IsoDate } from "./rates/calendar.ts";
import { parseTables } from "./rates/parse-tables.ts";
import type { RateTable } from "./rates/rate-table.ts";

export interface DataMeta {
  history_start: IsoDate;
  rates_as_of: IsoDate;
  last_reconciled: IsoDate;
  /** The last day a source confirmed the shipped rates for (scripts/build/sources-doc.ts). */
  verified_through: IsoDate;
  rate_file: string;
  /** The 2020 ZCTA to County Relationship File behind zip-counties.csv. */
  zcta_vintage: number;
}

export interface ShippedData {
  table: RateTable;
  zips: ZipIndex;
  meta: DataMeta;
}

export function readDataMeta(dataDir: string): DataMeta {
  return JSON.parse(readFileSync(join(dataDir, "meta.json"), "utf8")) as DataMeta;
}

export function loadShippedData(dataDir: string): ShippedData {
  const read = (name: string) => readFileSync(join(dataDir, name), "utf8");
  const meta = readDataMeta(dataDir);
  const table = parseTables({
    countiesCsv: read("counties.csv"),
    ratePeriodsCsv: read("rate-periods.csv"),
    transitDistrictsJson: read("transit-districts.json"),
    historyStart: meta.history_start,
  });
  return { table, zips: parseZipIndex(read("zip-counties.csv")), meta };
}
