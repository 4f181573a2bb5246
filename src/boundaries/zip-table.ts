/**
 * The shipped ZIP table (data/zip-counties.csv: every county a ZIP's land reaches, from the Census
 * ZCTA relationship file), as the boundary import checks a file against it: a file that places a
 * ZIP in a county the table never lists for it contradicts it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** ZIP5 → the county FIPS codes the shipped table lists for it. */
export type ZipCounties = ReadonlyMap<string, ReadonlySet<string>>;

export function readZipCounties(dataDir: string): ZipCounties {
  const table = new Map<string, Set<string>>();
  for (const line of readFileSync(join(dataDir, "zip-counties.csv"), "utf8").trim().split(/\r?\n/).slice(1)) {
    const [zip, fips] = line.split(",") as [string, string];
    let counties = table.get(zip);
    if (!counties) table.set(zip, (counties = new Set()));
    counties.add(fips);
  }
  return table;
}

/**
 * The ZIPs whose counties in the file contradict the table: a (ZIP, county) pair the table does not
 * list, for a ZIP it knows. A ZIP the table lacks (a post-office ZIP with no land) contradicts nothing.
 */
export function contradictingZips(pairs: Iterable<{ zip5: string; county_fips: string }>, table: ZipCounties): { zips: number; contradicting: string[] } {
  const zips = new Set<string>();
  const contradicting = new Set<string>();
  for (const { zip5, county_fips } of pairs) {
    zips.add(zip5);
    const counties = table.get(zip5);
    if (counties && !counties.has(county_fips)) contradicting.add(zip5);
  }
  return { zips: zips.size, contradicting: [...contradicting].sort() };
}
