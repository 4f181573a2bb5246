import Flatbush from "flatbush";
import { polygonsOf, type PolygonalGeometry, type Ring } from "./geojson.ts";

export interface IndexedFeature<T> {
  readonly value: T;
  readonly geometry: PolygonalGeometry;
}

export interface NearestFeature<T> {
  readonly value: T;
  /** Distance from the point to the feature's nearest edge; 0 when the point is inside. */
  readonly distanceKm: number;
}

/**
 * Ring edges are grouped in runs of this many. A lookup skips a whole run whose y-range does not
 * straddle the point or which lies entirely to its left, so a 4,000-vertex county ring costs a few
 * hundred comparisons instead of 4,000 edge tests.
 */
const EDGES_PER_RUN = 16;

/**
 * Everything an index is, as arrays on SharedArrayBuffers: posted to another thread (workerData,
 * postMessage) they are shared, not copied, so every worker thread answers from one copy.
 */
export interface PolygonIndexData<T> {
  values: readonly T[];
  tree: ArrayBufferLike;
  partFeature: Uint32Array;
  partRingStart: Uint32Array;
  ringBox: Float64Array;
  ringRunStart: Uint32Array;
  runFrom: Uint32Array;
  runTo: Uint32Array;
  runBox: Float64Array;
  xy: Float64Array;
}

function sharedUint32(values: readonly number[]): Uint32Array {
  const out = new Uint32Array(new SharedArrayBuffer(values.length * Uint32Array.BYTES_PER_ELEMENT));
  out.set(values);
  return out;
}

function sharedFloat64(values: readonly number[]): Float64Array {
  const out = new Float64Array(new SharedArrayBuffer(values.length * Float64Array.BYTES_PER_ELEMENT));
  out.set(values);
  return out;
}

/** Kilometres per degree of latitude on the mean-radius sphere (6,371.0088 km). */
const KM_PER_DEGREE = (6371.0088 * Math.PI) / 180;

/**
 * Point-in-polygon index over polygon and multipolygon features.
 *
 * Each polygon part (outer ring plus its holes) gets a box in a flatbush tree; a candidate part is
 * then decided by an even-odd ray cast over all of its rings, so holes need no special case. The
 * crossing rule is half-open in y, so a point on an edge shared by two adjacent polygons (TIGER
 * counties share their vertices) is assigned to exactly one of them.
 *
 * All geometry lives in typed arrays: vertices as x,y pairs with every ring stored closed.
 */
export class PolygonIndex<T> {
  readonly #values: readonly T[];
  readonly #tree: Flatbush;
  /** Feature of each part. */
  readonly #partFeature: Uint32Array;
  /** Rings of part p are partRingStart[p] .. partRingStart[p + 1] - 1; the first is the outer ring. */
  readonly #partRingStart: Uint32Array;
  /** minX, minY, maxX, maxY of each ring. */
  readonly #ringBox: Float64Array;
  /** Runs of ring r are ringRunStart[r] .. ringRunStart[r + 1] - 1. */
  readonly #ringRunStart: Uint32Array;
  /** A run covers edges runFrom .. runTo - 1, edge k joining vertex k to vertex k + 1. */
  readonly #runFrom: Uint32Array;
  readonly #runTo: Uint32Array;
  /** minY, maxY, maxX of each run. */
  readonly #runBox: Float64Array;
  readonly #xy: Float64Array;

  /** Builds the index from features, or adopts one built elsewhere (see `data`). */
  constructor(input: readonly IndexedFeature<T>[] | PolygonIndexData<T>) {
    const data = Array.isArray(input) ? PolygonIndex.#build(input as readonly IndexedFeature<T>[]) : (input as PolygonIndexData<T>);
    this.#values = data.values;
    this.#tree = Flatbush.from(data.tree);
    this.#partFeature = data.partFeature;
    this.#partRingStart = data.partRingStart;
    this.#ringBox = data.ringBox;
    this.#ringRunStart = data.ringRunStart;
    this.#runFrom = data.runFrom;
    this.#runTo = data.runTo;
    this.#runBox = data.runBox;
    this.#xy = data.xy;
  }

  /** The arrays behind this index, for another thread to adopt with `new PolygonIndex(data)`. */
  get data(): PolygonIndexData<T> {
    return {
      values: this.#values,
      tree: this.#tree.data,
      partFeature: this.#partFeature,
      partRingStart: this.#partRingStart,
      ringBox: this.#ringBox,
      ringRunStart: this.#ringRunStart,
      runFrom: this.#runFrom,
      runTo: this.#runTo,
      runBox: this.#runBox,
      xy: this.#xy,
    };
  }

  static #build<T>(features: readonly IndexedFeature<T>[]): PolygonIndexData<T> {
    const partFeature: number[] = [];
    const partRingStart: number[] = [];
    const ringBox: number[] = [];
    const ringRunStart: number[] = [];
    const runFrom: number[] = [];
    const runTo: number[] = [];
    const runBox: number[] = [];
    const xy: number[] = [];

    const addRing = (ring: Ring): void => {
      const first = xy.length / 2;
      for (const position of ring) xy.push(coordinate(position, 0), coordinate(position, 1));
      const start = ring[0];
      const end = ring[ring.length - 1];
      if (start === undefined || end === undefined) throw new Error("polygon ring has no vertices");
      if (start[0] !== end[0] || start[1] !== end[1]) xy.push(coordinate(start, 0), coordinate(start, 1));
      const last = xy.length / 2 - 1;

      ringRunStart.push(runFrom.length);
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (let from = first; from < last; from += EDGES_PER_RUN) {
        const to = Math.min(from + EDGES_PER_RUN, last);
        let runMinY = Infinity, runMaxY = -Infinity, runMaxX = -Infinity;
        for (let v = from; v <= to; v++) {
          const x = xy[2 * v]!, y = xy[2 * v + 1]!;
          if (y < runMinY) runMinY = y;
          if (y > runMaxY) runMaxY = y;
          if (x > runMaxX) runMaxX = x;
          if (x < minX) minX = x;
        }
        runFrom.push(from);
        runTo.push(to);
        runBox.push(runMinY, runMaxY, runMaxX);
        if (runMinY < minY) minY = runMinY;
        if (runMaxY > maxY) maxY = runMaxY;
        if (runMaxX > maxX) maxX = runMaxX;
      }
      ringBox.push(minX, minY, maxX, maxY);
    };

    features.forEach((feature, featureIndex) => {
      for (const polygon of polygonsOf(feature.geometry)) {
        if (polygon.length === 0) continue;
        partFeature.push(featureIndex);
        partRingStart.push(ringBox.length / 4);
        for (const ring of polygon) addRing(ring);
      }
    });
    if (partFeature.length === 0) throw new Error("a polygon index needs at least one polygon");
    partRingStart.push(ringBox.length / 4);
    ringRunStart.push(runFrom.length);

    const tree = new Flatbush(partFeature.length, 16, Float64Array, SharedArrayBuffer);
    for (let part = 0; part < partFeature.length; part++) {
      const box = 4 * partRingStart[part]!;
      tree.add(ringBox[box]!, ringBox[box + 1]!, ringBox[box + 2]!, ringBox[box + 3]!);
    }
    tree.finish();
    return {
      values: features.map((feature) => feature.value),
      tree: tree.data,
      partFeature: sharedUint32(partFeature),
      partRingStart: sharedUint32(partRingStart),
      ringBox: sharedFloat64(ringBox),
      ringRunStart: sharedUint32(ringRunStart),
      runFrom: sharedUint32(runFrom),
      runTo: sharedUint32(runTo),
      runBox: sharedFloat64(runBox),
      xy: sharedFloat64(xy),
    };
  }

  /** Every feature containing the point, in input order (adjacent polygons never both claim a point). */
  find(lon: number, lat: number): T[] {
    const features: number[] = [];
    for (const part of this.#tree.search(lon, lat, lon, lat)) {
      const feature = this.#partFeature[part]!;
      if (!features.includes(feature) && this.#partContains(part, lon, lat)) features.push(feature);
    }
    return features.sort((a, b) => a - b).map((feature) => this.#values[feature]!);
  }

  /**
   * The feature whose boundary is closest to the point, for points that fall just outside every
   * polygon (a coordinate on a river or lake shore). Distances use an equirectangular projection at
   * the point's latitude, which is accurate to well under 1% over the few kilometres this is for.
   */
  nearest(lon: number, lat: number): NearestFeature<T> {
    const inside = this.find(lon, lat)[0];
    if (inside !== undefined) return { value: inside, distanceKm: 0 };

    const kx = Math.cos((lat * Math.PI) / 180) * KM_PER_DEGREE;
    const ky = KM_PER_DEGREE;
    const candidates: { part: number; bound: number }[] = [];
    for (let part = 0; part < this.#partFeature.length; part++) {
      const box = 4 * this.#partRingStart[part]!;
      const dx = Math.max(this.#ringBox[box]! - lon, 0, lon - this.#ringBox[box + 2]!) * kx;
      const dy = Math.max(this.#ringBox[box + 1]! - lat, 0, lat - this.#ringBox[box + 3]!) * ky;
      candidates.push({ part, bound: Math.hypot(dx, dy) });
    }
    candidates.sort((a, b) => a.bound - b.bound || a.part - b.part);

    let bestPart = -1;
    let best = Infinity;
    for (const { part, bound } of candidates) {
      if (bound >= best) break;
      const distance = this.#partEdgeDistance(part, lon, lat, kx, ky);
      if (distance < best) {
        best = distance;
        bestPart = part;
      }
    }
    return { value: this.#values[this.#partFeature[bestPart]!]!, distanceKm: best };
  }

  #partContains(part: number, x: number, y: number): boolean {
    const ringBox = this.#ringBox, runBox = this.#runBox, xy = this.#xy;
    let inside = false;
    for (let ring = this.#partRingStart[part]!; ring < this.#partRingStart[part + 1]!; ring++) {
      const box = 4 * ring;
      // Outside a ring's box the ray crosses that ring an even number of times: no parity change.
      if (x < ringBox[box]! || y < ringBox[box + 1]! || x > ringBox[box + 2]! || y > ringBox[box + 3]!) continue;
      for (let run = this.#ringRunStart[ring]!; run < this.#ringRunStart[ring + 1]!; run++) {
        const rb = 3 * run;
        if (y < runBox[rb]! || y >= runBox[rb + 1]! || x > runBox[rb + 2]!) continue;
        for (let k = this.#runFrom[run]!, to = this.#runTo[run]!; k < to; k++) {
          const xi = xy[2 * k]!, yi = xy[2 * k + 1]!, xj = xy[2 * k + 2]!, yj = xy[2 * k + 3]!;
          if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
        }
      }
    }
    return inside;
  }

  #partEdgeDistance(part: number, lon: number, lat: number, kx: number, ky: number): number {
    const xy = this.#xy;
    let best = Infinity;
    const firstRun = this.#ringRunStart[this.#partRingStart[part]!]!;
    const endRun = this.#ringRunStart[this.#partRingStart[part + 1]!]!;
    for (let run = firstRun; run < endRun; run++) {
      for (let k = this.#runFrom[run]!, to = this.#runTo[run]!; k < to; k++) {
        const ax = (xy[2 * k]! - lon) * kx, ay = (xy[2 * k + 1]! - lat) * ky;
        const bx = (xy[2 * k + 2]! - lon) * kx, by = (xy[2 * k + 3]! - lat) * ky;
        const ex = bx - ax, ey = by - ay;
        const length2 = ex * ex + ey * ey;
        const t = length2 === 0 ? 0 : Math.min(1, Math.max(0, -(ax * ex + ay * ey) / length2));
        const distance = Math.hypot(ax + t * ex, ay + t * ey);
        if (distance < best) best = distance;
      }
    }
    return best;
  }
}

function coordinate(position: readonly number[], axis: 0 | 1): number {
  const value = position[axis];
  if (value === undefined || !Number.isFinite(value)) throw new Error(`invalid polygon coordinate ${JSON.stringify(position)}`);
  return value;
}
