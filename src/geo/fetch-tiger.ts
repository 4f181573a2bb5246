/**
 * `buckeye data fetch-geo`: downloads Ohio's county and place layers from the Census Bureau's
 * TIGER/Line site and converts them to the GeoJSON files the service loads, so an operator can
 * move to a newer vintage (newer annexations) without a release. Polygons are never committed.
 * Then it writes the polygon index beside them (polygon-index-file.ts), which the service reads at
 * start instead of parsing the polygons.
 *
 *   {base}/TIGER{YEAR}/COUNTY/tl_{YEAR}_us_county.zip   (national; Ohio's 88 are kept)
 *   {base}/TIGER{YEAR}/PLACE/tl_{YEAR}_39_place.zip     (Ohio's places)
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzipSync } from "fflate";
import type { FeatureCollection } from "geojson";
import { findPolygonFiles } from "./polygon-files.ts";
import { countyIndex, placeIndex } from "./polygon-layers.ts";
import { polygonIndexPath } from "./polygon-index-file.ts";

export class FetchGeoError extends Error {}

export interface FetchTigerOptions {
  vintage: number;
  baseUrl: string;
  dir: string;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

export interface FetchedLayer {
  file: string;
  features: number;
}

/** TIGER/Line for a year is published in the autumn of that year: the default is last year's. */
export function defaultVintage(today: Date = new Date()): number {
  return today.getUTCFullYear() - 1;
}

export function tigerUrls(baseUrl: string, vintage: number) {
  return {
    counties: `${baseUrl}/TIGER${vintage}/COUNTY/tl_${vintage}_us_county.zip`,
    places: `${baseUrl}/TIGER${vintage}/PLACE/tl_${vintage}_39_place.zip`,
  };
}

async function download(url: string, fetchImpl: typeof fetch, vintage: number, dir: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetchImpl(url);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new FetchGeoError(
      `could not download ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}. ` +
        `fetch-geo needs internet access to the Census Bureau's TIGER/Line site. Without it, copy tl_${vintage}_us_county.zip and ` +
        `tl_${vintage}_39_place.zip from a machine that has it, unzip them into ${dir}, and the service reads the shapefiles as they are.`,
    );
  }
  if (response.status === 404) {
    await response.body?.cancel();
    throw new FetchGeoError(`${url} does not exist (HTTP 404): TIGER/Line ${vintage} may not be published yet; try --vintage ${vintage - 1}.`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new FetchGeoError(`could not download ${url}: HTTP ${response.status}.`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** The .shp and .dbf of a TIGER/Line zip, converted to GeoJSON, Ohio only. */
export async function convertTigerZip(zip: Uint8Array, label: string): Promise<FeatureCollection> {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (file) => /\.(shp|dbf)$/i.test(file.name) });
  } catch (error) {
    throw new FetchGeoError(`${label} is not a readable zip file: ${(error as Error).message}`);
  }
  const name = (ext: string) => Object.keys(files).find((file) => file.toLowerCase().endsWith(ext));
  const shp = name(".shp");
  const dbf = name(".dbf");
  if (!shp || !dbf) throw new FetchGeoError(`${label} holds no .shp and .dbf pair`);
  // Loaded here, not at start-up: the shapefile reader brings a 600 KB text-encoding polyfill that a
  // running server (which imports this module for its CLI command) would otherwise hold for nothing.
  const { readOhioShapefile } = await import("./shapefile-layer.ts");
  return readOhioShapefile(files[shp]!, files[dbf]!);
}

function writeAtomically(path: string, text: string): void {
  const partial = `${path}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

export async function fetchTiger(options: FetchTigerOptions): Promise<{ counties: FetchedLayer; places: FetchedLayer }> {
  const fetchImpl = options.fetch ?? fetch;
  const log = options.log ?? (() => {});
  const urls = tigerUrls(options.baseUrl, options.vintage);

  log(`downloading ${urls.counties}`);
  const counties = await convertTigerZip(await download(urls.counties, fetchImpl, options.vintage, options.dir), urls.counties);
  log(`downloading ${urls.places}`);
  const places = await convertTigerZip(await download(urls.places, fetchImpl, options.vintage, options.dir), urls.places);

  // Building the indexes checks every feature's properties and every vertex before anything is written.
  try {
    countyIndex(counties);
    placeIndex(places);
  } catch (error) {
    throw new FetchGeoError(`the downloaded TIGER/Line ${options.vintage} layers are not usable: ${(error as Error).message}`);
  }

  // Made only now, with both layers in hand: a failed download leaves no empty folder behind, which the
  // service would report as a folder without polygons rather than as the missing one fetch-geo fills.
  mkdirSync(options.dir, { recursive: true });
  const countyFile = join(options.dir, `oh-counties-tiger${options.vintage}.geojson`);
  const placeFile = join(options.dir, `oh-places-tiger${options.vintage}.geojson`);
  writeAtomically(countyFile, JSON.stringify(counties));
  writeAtomically(placeFile, JSON.stringify(places));
  // Indexed as the service will find them: a newer vintage already in the folder wins there too.
  const found = findPolygonFiles(options.dir);
  if (found.available) {
    log(`writing ${polygonIndexPath(options.dir)}`);
    // Loaded here for the same reason as the shapefile reader above.
    const { writePolygonIndex } = await import("./write-polygon-index.ts");
    await writePolygonIndex(found, polygonIndexPath(options.dir));
  }
  return { counties: { file: countyFile, features: counties.features.length }, places: { file: placeFile, features: places.features.length } };
}
