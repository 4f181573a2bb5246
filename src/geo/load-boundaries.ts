import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countyIndex, placeIndex, type CountyHit, type PlaceHit } from "./boundary-layers.ts";
import type { PolygonIndex } from "./polygon-index.ts";
import { REPO_ROOT } from "../config.ts";

/** TIGER/Line layers converted to GeoJSON (lon/lat). They are loaded at run time, never shipped. */
export const COUNTY_FILE = "oh-counties-tiger2020.geojson";
export const PLACE_FILE = "oh-places-tiger2019.geojson";

/** GEO_DATA_DIR, or the shared data folder that sits beside the repository checkout. */
export function geoDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env["GEO_DATA_DIR"] ?? join(REPO_ROOT, "..", "shared", "data", "geo");
}

export function loadCountyIndex(dir: string = geoDataDir()): PolygonIndex<CountyHit> {
  return countyIndex(readJson(join(dir, COUNTY_FILE)));
}

export function loadPlaceIndex(dir: string = geoDataDir()): PolygonIndex<PlaceHit> {
  return placeIndex(readJson(join(dir, PLACE_FILE)));
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}
