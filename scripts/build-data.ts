/**
 * Builds the tables the service ships in data/ from the raw public tables committed in data/sources/
 * and the county and place polygons the service loads (GEO_DATA_DIR, found as src/config.ts finds it).
 * Deterministic: the same inputs give the same bytes, and test/data-build.test.ts rebuilds everything
 * to prove no figure was edited by hand.
 *
 *   npm run data:build
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadConfig } from "../src/config.ts";
import { findPolygonFiles, type PolygonFiles } from "../src/geo/polygon-files.ts";
import { readLayer } from "../src/geo/polygons.ts";
import { countyFeatures, placeFeatures } from "../src/geo/polygon-layers.ts";
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

/** The committed raw tables the build reads (data/sources/README.md). */
export const SOURCES_DIR = join(REPO_ROOT, "data", "sources");

export type Polygons = Extract<PolygonFiles, { available: true }>;

/** The county and place layers in GEO_DATA_DIR (or the service's default folder); throws with what to do when there are none. */
export function polygonsForBuild(env: NodeJS.ProcessEnv = process.env): Polygons {
  const files = findPolygonFiles(loadConfig({ GEO_DATA_DIR: env["GEO_DATA_DIR"] }).geoDataDir);
  if (!files.available) throw new Error(`the build places ZIP points and transit-district cities in the boundary polygons: ${files.reason}`);
  return files;
}

/** Every file of data/, by file name, with its exact contents. `log` receives findings worth a look. */
export async function buildData(sourcesDir: string, polygons: Polygons, log: (line: string) => void = () => {}): Promise<Record<string, string>> {
  const rates = readRateSources(sourcesDir);
  const periods = buildRatePeriods(rates);

  const counties = countyFeatures(await readLayer(polygons.counties));
  for (const county of rates.counties) {
    const polygon = counties.find((feature) => feature.value.geoid === county.fips);
    if (polygon?.value.name !== county.name) throw new Error(`county polygon ${county.fips} is not ${county.name}`);
  }
  if (counties.length !== rates.counties.length) throw new Error(`${counties.length} county polygons for ${rates.counties.length} counties`);
  const places = placeFeatures(await readLayer(polygons.places));
  const districts = buildTransitDistricts(rates.districts, counties, places);

  const usps = ohioUspsZips();
  const zipTable = buildZipCounties(
    readCsv(join(sourcesDir, "census", "oh-zcta-county.csv"), ZCTA_COLUMNS),
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

async function main(): Promise<void> {
  const outDir = join(REPO_ROOT, "data");
  mkdirSync(outDir, { recursive: true });
  for (const [name, contents] of Object.entries(await buildData(SOURCES_DIR, polygonsForBuild(), (line) => console.log(line)))) {
    writeFileSync(join(outDir, name), contents);
    console.log(`wrote data/${name}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
