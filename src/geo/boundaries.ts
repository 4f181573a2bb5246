/**
 * Loads the county and place polygons named by findBoundaryFiles() into point-in-polygon
 * indexes, and answers "which county and which incorporated place is this point in". Each
 * worker thread loads them once; the HTTP thread never does.
 */
import { readFile } from "node:fs/promises";
import type { BoundaryFiles, LayerFile } from "./boundary-files.ts";
import { countyIndex, placeIndex, type CountyHit, type PlaceHit } from "./boundary-layers.ts";
import { PolygonIndex, type PolygonIndexData } from "./polygon-index.ts";
import { readOhioShapefile } from "./shapefile-layer.ts";

export interface Boundaries {
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

export async function loadBoundaries(files: Extract<BoundaryFiles, { available: true }>): Promise<Boundaries> {
  const [counties, places] = await Promise.all([readLayer(files.counties), readLayer(files.places)]);
  return {
    counties: countyIndex(counties),
    places: placeIndex(places),
    countyVintage: files.counties.vintage,
    placeVintage: files.places.vintage,
  };
}

/** Boundaries as shared arrays: built once, in a thread that then exits, and adopted by every worker. */
export interface BoundariesData {
  counties: PolygonIndexData<CountyHit>;
  places: PolygonIndexData<PlaceHit>;
  countyVintage: number;
  placeVintage: number;
}

export function boundariesData(boundaries: Boundaries): BoundariesData {
  return { ...boundaries, counties: boundaries.counties.data, places: boundaries.places.data };
}

export function adoptBoundaries(data: BoundariesData): Boundaries {
  return { ...data, counties: new PolygonIndex(data.counties), places: new PolygonIndex(data.places) };
}

export function locate(boundaries: Boundaries, lon: number, lat: number): Located {
  return {
    county: boundaries.counties.find(lon, lat)[0] ?? null,
    place: boundaries.places.find(lon, lat).find((hit) => hit.incorporated) ?? null,
  };
}
