/**
 * ZIP → candidate counties, from data/zip-counties.csv (Census 2020 ZCTA relationship file, plus
 * post-office ZIPs without a ZCTA placed by their point). A ZIP is split whenever it has land in
 * two or more counties, however small the part: a sliver can hold real addresses.
 */
import { parse } from "csv-parse/sync";

export interface ZipCandidate {
  fips: string;
  /** Share of the ZIP's land in this county; null for a ZIP placed by its post office point. */
  landShare: number | null;
}

export type ZipIndex = ReadonlyMap<string, readonly ZipCandidate[]>;

export function parseZipIndex(csv: string): ZipIndex {
  const index = new Map<string, ZipCandidate[]>();
  const rows: Record<string, string>[] = parse(csv, { columns: true, skip_empty_lines: true, trim: true });
  for (const row of rows) {
    const zip = row.zip ?? "";
    const candidate = { fips: row.fips ?? "", landShare: row.land_share ? Number(row.land_share) : null };
    index.set(zip, [...(index.get(zip) ?? []), candidate]);
  }
  return index;
}
