/** The GeoJSON subset the polygon layers use: lon/lat rings, closed or not, of polygons and multipolygons. */
export type Position = readonly number[];
export type Ring = readonly Position[];

export interface PolygonGeometry {
  readonly type: "Polygon";
  readonly coordinates: readonly Ring[];
}

export interface MultiPolygonGeometry {
  readonly type: "MultiPolygon";
  readonly coordinates: readonly (readonly Ring[])[];
}

export type PolygonalGeometry = PolygonGeometry | MultiPolygonGeometry;

/** Lists the polygons (outer ring first, then its holes) of either geometry type. */
export function polygonsOf(geometry: PolygonalGeometry): readonly (readonly Ring[])[] {
  return geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
}

export interface Bounds {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** The box around a geometry's outer rings (holes lie inside their outer ring). */
export function boundsOf(geometry: PolygonalGeometry): Bounds {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const polygon of polygonsOf(geometry)) {
    for (const [x = NaN, y = NaN] of polygon[0] ?? []) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  return { minX, minY, maxX, maxY };
}
