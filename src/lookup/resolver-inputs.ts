/**
 * What the resolvers are given, as plain data: the rate table and ZIP index they read, and where
 * the worker pool placed a lookup's points in our polygons. A file of types alone, which the
 * resolvers, the ladder and the thread-side tasks all import, so none of them imports another for
 * its types (test/architecture.test.ts refuses import loops between files).
 */
import type { CountyHit, PlaceHit } from "../geo/polygon-layers.ts";
import type { ZipIndex } from "../geo/zip-index.ts";
import type { RateTable } from "../rates/rate-table.ts";

export interface ResolverData {
  table: RateTable;
  zips: ZipIndex;
}

export interface PolygonVintages {
  countyVintage: number;
  placeVintage: number;
}

/** Where a point lies in our polygons. */
export interface LocatedPoint {
  county: CountyHit | null;
  /** The incorporated place (city or village) at the point, if any. */
  place: PlaceHit | null;
  /** When the point is in no county: the nearest one, if it is within the shore tolerance. */
  shoreCounty: CountyHit | null;
}

export type LocateAnswer = ({ ok: true; points: LocatedPoint[] } & PolygonVintages) | { ok: false; reason: string };
