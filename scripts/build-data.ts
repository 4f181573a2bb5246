/**
 * Builds the tables the service ships in data/ from the raw public data in SHARED_DATA_DIR
 * (default: ../shared/data beside the repository). Deterministic: the same inputs give the same
 * bytes, and test/data-build.test.ts rebuilds everything to prove no figure was edited by hand.
 *
 *   npm run data:build
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { countyFeatures, placeFeatures } from "../src/geo/boundary-layers.ts";
import { COUNTY_FILE, PLACE_FILE, readJson } from "../src/geo/load-boundaries.ts";
import { PolygonIndex } from "../src/geo/polygon-index.ts";
import { compareText } from "./build/compare-text.ts";
import { readCsv, toCsv } from "./build/csv.ts";
import { buildRatePeriods } from "./build/rate-periods.ts";
import { readRateSources } from "./build/rate-sources.ts";
import { metaJson, sourcesMarkdown, type BuildStats } from "./build/sources-doc.ts";
import { buildTransitDistricts } from "./build/transit-districts.ts";
import { ohioUspsZips } from "./build/usps-zips.ts";
import { buildZipCounties, ZCTA_COLUMNS } from "./build/zip-counties.ts";

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** SHARED_DATA_DIR, or the shared data folder beside the repository checkout. */
export function sharedDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env["SHARED_DATA_DIR"] ?? resolve(REPO_ROOT, "..", "shared", "data");
}

/** Every file of data/, by file name, with its exact contents. `log` receives findings worth a look. */
export function buildData(sharedDir: string, log: (line: string) => void = () => {}): Record<string, string> {
  const rates = readRateSources(sharedDir);
  const periods = buildRatePeriods(rates);

  const counties = countyFeatures(readJson(join(sharedDir, "geo", COUNTY_FILE)));
  for (const county of rates.counties) {
    const polygon = counties.find((feature) => feature.value.geoid === county.fips);
    if (polygon?.value.name !== county.name) throw new Error(`county polygon ${county.fips} is not ${county.name}`);
  }
  if (counties.length !== rates.counties.length) throw new Error(`${counties.length} county polygons for ${rates.counties.length} counties`);
  const places = placeFeatures(readJson(join(sharedDir, "geo", PLACE_FILE)));
  const districts = buildTransitDistricts(rates.districts, counties, places);

  const usps = ohioUspsZips();
  const zipTable = buildZipCounties(
    readCsv(join(sharedDir, "geo", "oh-zcta-county.csv"), ZCTA_COLUMNS),
    usps.zips,
    new PolygonIndex(counties),
  );
  for (const { zip, fips, distanceKm } of zipTable.nearest) {
    log(`ZIP ${zip}: USPS point outside every county polygon, placed in nearest county ${fips} (${distanceKm.toFixed(2)} km)`);
  }
  for (const { zip, pointFips, zctaFips } of zipTable.pointOutsideZcta) {
    log(`ZIP ${zip}: USPS point lies in ${pointFips}, outside its ZCTA's counties ${zctaFips.join("+")} (ZCTA kept)`);
  }

  const zipRows = zipTable.rows;
  const countiesPerZip = new Map<string, number>();
  for (const row of zipRows) countiesPerZip.set(row.zip, (countiesPerZip.get(row.zip) ?? 0) + 1);
  const stats: BuildStats = {
    counties: rates.counties.length,
    ratePeriods: periods.length,
    historyChanges: rates.history.length,
    zips: countiesPerZip.size,
    splitZips: [...countiesPerZip.values()].filter((count) => count > 1).length,
    zctaZips: new Set(zipRows.filter((row) => row.source === "zcta2020").map((row) => row.zip)).size,
    pointZips: zipRows.filter((row) => row.source === "usps-point").length,
    nearestZips: zipRows.filter((row) => row.source === "usps-point-nearest").length,
    zipcodesVersion: usps.version,
  };
  log(`${stats.zips} ZIPs (${stats.zctaZips} ZCTAs, ${stats.splitZips} split), ${stats.pointZips} placed by point, ${stats.nearestZips} by nearest county`);

  return {
    "counties.csv": toCsv(
      ["fips", "name", "slug"],
      [...rates.counties].sort((a, b) => compareText(a.fips, b.fips)).map((county) => [county.fips, county.name, county.slug]),
    ),
    "rate-periods.csv": toCsv(
      ["fips", "component", "authority", "rate", "effective_from", "effective_to", "source"],
      periods.map((p) => [p.fips, p.component, p.authority, p.rate, p.effectiveFrom ?? "", p.effectiveTo ?? "", p.source]),
    ),
    "transit-districts.json": `${JSON.stringify(districts, null, 2)}\n`,
    "zip-counties.csv": toCsv(
      ["zip", "fips", "land_share", "source"],
      zipRows.map((row) => [row.zip, row.fips, row.landShare ?? "", row.source]),
    ),
    "meta.json": metaJson(stats),
    "SOURCES.md": sourcesMarkdown(stats),
  };
}

function main(): void {
  const outDir = join(REPO_ROOT, "data");
  mkdirSync(outDir, { recursive: true });
  for (const [name, contents] of Object.entries(buildData(sharedDataDir(), (line) => console.log(line)))) {
    writeFileSync(join(outDir, name), contents);
    console.log(`wrote data/${name}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
