/**
 * Reads a TIGER/Line shapefile (.shp with its .dbf) into a GeoJSON FeatureCollection of the
 * Ohio features, with the `shapefile` package. TIGER/Line coordinates are NAD83 longitude and
 * latitude, which the polygon index takes as they are.
 */
import type { FeatureCollection } from "geojson";
import { read } from "shapefile";

const OHIO = "39";

/** TIGER's state code column is STATEFP, or STATEFP20 in the 2020 census-vintage files. */
function stateOf(properties: Record<string, unknown> | null): unknown {
  return properties?.["STATEFP"] ?? properties?.["STATEFP20"];
}

export async function readOhioShapefile(shp: Uint8Array | string, dbf: Uint8Array | string): Promise<FeatureCollection> {
  const collection = await read(shp, dbf, { encoding: "utf-8" });
  return { type: "FeatureCollection", features: collection.features.filter((feature) => stateOf(feature.properties) === OHIO) };
}
