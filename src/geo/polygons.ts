/**
 * Loads the county and place polygons named by findPolygonFiles() into point-in-polygon
 * indexes, and answers "which county and which incorporated place is this point in". Each
 * worker thread loads them once; the HTTP thread never does.
 */
import { readFile } from "node:fs/promises";
import type { PolygonFiles, LayerFile } from "./polygon-files.ts";
import { countyIndex, placeIndex, type CountyHit, type PlaceHit } from "./polygon-layers.ts";
import { PolygonIndex, type PolygonIndexData } from "./polygon-index.ts";
import { readOhioShapefile } from "./shapefile-layer.ts";

export interface Polygons {
  counties: PolygonIndex<CountyHit>;
  places: PolygonIndex<PlaceHit>;
  countyVintage: number;
  placeVintage: number;
}

export interface Located {
  county: CountyHit | null;
  /** The incorporated place (city or village) at the point; census designated places are not municipalities. */
  place: PlaceHit | null;
}

/** One layer's features as GeoJSON, from its GeoJSON conversion or straight from its TIGER/Line shapefile. */
export async function readLayer(file: LayerFile): Promise<unknown> {
  if (file.format === "geojson") return JSON.parse(await readFile(file.path, "utf8"));
  const dbf = file.path.replace(/\.shp$/, ".dbf");
  return readOhioShapefile(await readFile(file.path), await readFile(dbf));
}

export async function loadPolygons(files: Extract<PolygonFiles, { available: true }>): Promise<Polygons> {
  const [counties, places] = await Promise.all([readLayer(files.counties), readLayer(files.places)]);
  return {
    counties: countyIndex(counties),
    places: placeIndex(places),
    countyVintage: files.counties.vintage,
    placeVintage: files.places.vintage,
  };
}

/** Polygons as shared arrays: built once, in a thread that then exits, and adopted by every worker. */
export interface PolygonsData {
  counties: PolygonIndexData<CountyHit>;
  places: PolygonIndexData<PlaceHit>;
  countyVintage: number;
  placeVintage: number;
}

export function polygonsData(polygons: Polygons): PolygonsData {
  return { ...polygons, counties: polygons.counties.data, places: polygons.places.data };
}

export function adoptPolygons(data: PolygonsData): Polygons {
  return { ...data, counties: new PolygonIndex(data.counties), places: new PolygonIndex(data.places) };
}

export function locate(polygons: Polygons, lon: number, lat: number): Located {
  return {
    county: polygons.counties.find(lon, lat)[0] ?? null,
    place: polygons.places.find(lon, lat).find((hit) => hit.incorporated) ?? null,
  };
}
