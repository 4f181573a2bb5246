/**
 * The boundary polygons the tests use, found the way the service finds them (src/config.ts): GEO_DATA_DIR,
 * else ../shared/data/geo beside the checkout where it exists, else var/geo, where `buckeye data fetch-geo`
 * writes. Polygons are never committed; when there are none, test/_global-setup.ts fetches them first.
 * Tests read the vintages from here, never assume one: an operator's fetch brings the newest.
 */
import { findPolygonFiles, type PolygonFiles } from "../src/geo/polygon-files.ts";
import { loadConfig } from "../src/config.ts";

export type AvailableBoundaryFiles = Extract<PolygonFiles, { available: true }>;

/** The folder a service started with this environment loads its polygons from. */
export function geoDataDir(env: Record<string, string | undefined> = process.env): string {
  return loadConfig({ GEO_DATA_DIR: env["GEO_DATA_DIR"] }).geoDataDir;
}

/** The county and place files in that folder, with their TIGER/Line vintages; throws when there are none. */
export function polygonFiles(): AvailableBoundaryFiles {
  const files = findPolygonFiles(geoDataDir());
  if (!files.available) throw new Error(files.reason);
  return files;
}
