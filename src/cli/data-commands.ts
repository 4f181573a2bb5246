/**
 * `buckeye data fetch-geo [--vintage YEAR] [--dir DIR]`, which refreshes the boundary polygons from
 * the Census Bureau's TIGER/Line site; `buckeye data index-geo [--dir DIR]`, which writes the polygon
 * index for polygons put in place by hand; and `buckeye data status [--json]`: how current the rates are
 * (confirmed through, last successful reconciliation and its file, the latest run) and how old the
 * boundaries are, each with its age, read from DATA_DIR, the configured database and GEO_DATA_DIR.
 */
import type { Command } from "commander";
import { loadConfig } from "../config.ts";
import { formatDataStatus } from "../freshness/data-status.ts";
import { ratesFreshness } from "../freshness/rates-freshness.ts";
import { readDataStatus } from "../freshness/read-data-status.ts";
import { findPolygonFiles } from "../geo/polygon-files.ts";
import { defaultVintage, fetchTiger, FetchGeoError } from "../geo/fetch-tiger.ts";
import { polygonIndexPath } from "../geo/polygon-index-file.ts";
import { readDataMeta } from "../load-data.ts";
import { withRuntime } from "../runtime.ts";
import { latestSuccessfulReconciliation } from "../store/reconciliations.repository.ts";
import { fail, jsonOption, print } from "./output.ts";

async function fetchGeo(opts: { vintage: string; dir?: string }): Promise<void> {
  const config = loadConfig();
  const vintage = Number(opts.vintage);
  if (!Number.isInteger(vintage) || vintage < 2010 || vintage > 2100) return fail(`--vintage must be a year such as ${defaultVintage()}`);
  const dir = opts.dir ?? config.geoDataDir;
  try {
    const fetched = await fetchTiger({ vintage, baseUrl: config.tigerBaseUrl, dir, log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(
      `wrote ${fetched.counties.file} (${fetched.counties.features} counties) and ${fetched.places.file} (${fetched.places.features} places)\n` +
        (dir === config.geoDataDir ? "restart the service to load them\n" : `set GEO_DATA_DIR=${dir} for the service to load them\n`),
    );
  } catch (error) {
    if (error instanceof FetchGeoError) return fail(error.message);
    throw error;
  }
}

async function indexGeo(opts: { dir?: string; json?: boolean }): Promise<void> {
  const files = findPolygonFiles(opts.dir ?? loadConfig().geoDataDir);
  if (!files.available) return fail(files.reason);
  const file = polygonIndexPath(files.dir);
  // Loaded here: the shapefile reader it brings is for this command only (see fetch-tiger.ts).
  const { writePolygonIndex } = await import("../geo/write-polygon-index.ts");
  await writePolygonIndex(files, file);
  const out = { file, county_vintage: files.counties.vintage, place_vintage: files.places.vintage };
  print(opts.json, out, `wrote ${file} (counties TIGER/Line ${out.county_vintage}, places ${out.place_vintage})`);
}

async function printDataStatus(opts: { json?: boolean }): Promise<void> {
  const config = loadConfig();
  const meta = readDataMeta(config.dataDir);
  // Only the shipped data's metadata is read: the status needs no rate table.
  const status = await withRuntime(config, ({ store, clock }) =>
    readDataStatus(
      {
        db: store.db,
        freshness: async () => ratesFreshness(meta, await latestSuccessfulReconciliation(store.db)),
        polygons: findPolygonFiles(config.geoDataDir),
        zctaVintage: meta.zcta_vintage,
        staleAfterDays: config.reconcileStaleAfterDays,
      },
      clock.now(),
    ),
  );
  print(opts.json, status, formatDataStatus(status));
}

export function addDataCommands(program: Command): void {
  const data = program.command("data").description("boundary and rate data");
  data
    .command("fetch-geo")
    .description("download Ohio's county and place boundaries from the Census Bureau's TIGER/Line site into GEO_DATA_DIR (or --dir)")
    .option("--vintage <year>", "TIGER/Line year", String(defaultVintage()))
    .option("--dir <dir>", "where to write the GeoJSON files (default: GEO_DATA_DIR)")
    .action(fetchGeo);
  data
    .command("index-geo")
    .description("write the polygon index for county and place files put in GEO_DATA_DIR (or --dir) by hand, so the service reads it at start instead of parsing them (fetch-geo writes it itself)")
    .option("--dir <dir>", "the folder of the polygon files (default: GEO_DATA_DIR)")
    .addOption(jsonOption())
    .action(indexGeo);
  data
    .command("status")
    .description("how current the rates are (confirmed through, last reconciliation) and how old the boundaries are, each with its age in days")
    .addOption(jsonOption())
    .action(printDataStatus);
}
