import type { PolygonalGeometry } from "./geojson.ts";
import { PolygonIndex, type IndexedFeature } from "./polygon-index.ts";

export interface CountyHit {
  /** Five-digit county FIPS code, e.g. "39049". */
  readonly geoid: string;
  /** County name without "County", e.g. "Franklin". */
  readonly name: string;
}

export interface PlaceHit {
  /** Seven-digit Census place GEOID, e.g. "3918000". Names repeat in Ohio; GEOIDs do not. */
  readonly geoid: string;
  /** Place name without its kind, e.g. "Columbus". */
  readonly name: string;
  /** A city or village (a municipal corporation), as opposed to a census designated place. */
  readonly incorporated: boolean;
}

/** TIGER CLASSFP codes of incorporated places (MTFCC G4110); U1/U2 are census designated places. */
const INCORPORATED_CLASSES = new Set(["C1", "C2", "C5", "C6", "C8"]);

/** Counties from a TIGER/Line county layer (properties GEOID20, NAME20 in 2020; GEOID, NAME in other vintages). */
export function countyIndex(collection: unknown): PolygonIndex<CountyHit> {
  return new PolygonIndex(countyFeatures(collection));
}

/** Places from a TIGER/Line place layer (properties GEOID, NAME, CLASSFP). */
export function placeIndex(collection: unknown): PolygonIndex<PlaceHit> {
  return new PolygonIndex(placeFeatures(collection));
}

export function countyFeatures(collection: unknown): IndexedFeature<CountyHit>[] {
  return polygonFeatures(collection, (properties) => ({
    geoid: stringProperty(properties, "GEOID20" in properties ? "GEOID20" : "GEOID"),
    name: stringProperty(properties, "NAME20" in properties ? "NAME20" : "NAME"),
  }));
}

export function placeFeatures(collection: unknown): IndexedFeature<PlaceHit>[] {
  return polygonFeatures(collection, (properties) => ({
    geoid: stringProperty(properties, "GEOID"),
    name: stringProperty(properties, "NAME"),
    incorporated: INCORPORATED_CLASSES.has(stringProperty(properties, "CLASSFP")),
  }));
}

/** Checks the shape of a parsed GeoJSON FeatureCollection and pairs each geometry with its value. */
export function polygonFeatures<T>(
  collection: unknown,
  toValue: (properties: Record<string, unknown>) => T,
): IndexedFeature<T>[] {
  if (!isRecord(collection) || collection["type"] !== "FeatureCollection" || !Array.isArray(collection["features"])) {
    throw new Error("expected a GeoJSON FeatureCollection");
  }
  return collection["features"].map((feature: unknown, i: number) => {
    if (!isRecord(feature) || !isRecord(feature["properties"]) || !isRecord(feature["geometry"])) {
      throw new Error(`feature ${i} lacks properties or geometry`);
    }
    const geometry = feature["geometry"];
    if ((geometry["type"] !== "Polygon" && geometry["type"] !== "MultiPolygon") || !Array.isArray(geometry["coordinates"])) {
      throw new Error(`feature ${i} is not a Polygon or MultiPolygon`);
    }
    // The coordinate arrays are checked vertex by vertex when the index is built.
    return { value: toValue(feature["properties"]), geometry: geometry as unknown as PolygonalGeometry };
  });
}

function stringProperty(properties: Record<string, unknown>, key: string): string {
  const value = properties[key];
  if (typeof value !== "string" || value === "") throw new Error(`feature property ${key} is missing`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
