import { booleanPointInPolygon } from "@turf/boolean-point-in-polygon";
import type { MultiPolygon, Polygon } from "geojson";
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { beforeAll, describe, expect, it } from "vitest";
import { readLayer } from "../src/geo/polygons.ts";
import { countyFeatures, placeFeatures, type CountyHit, type PlaceHit } from "../src/geo/polygon-layers.ts";
import { boundsOf, polygonsOf, type Bounds, type PolygonalGeometry } from "../src/geo/geojson.ts";
import { PolygonIndex, type IndexedFeature } from "../src/geo/polygon-index.ts";
import { polygonFiles } from "./_polygons.ts";

/** The counties a transit district splits: where a wrong answer changes the rate. */
const SPLIT_COUNTIES = ["39041", "39045", "39089", "39159", "39173"];
const POINTS_PER_COUNTY = 1000;

let counties: IndexedFeature<CountyHit>[];
let places: IndexedFeature<PlaceHit>[];
let countyIndex: PolygonIndex<CountyHit>;
let placeIndex: PolygonIndex<PlaceHit>;
let rawCounties: unknown;
let rawPlaces: unknown;

beforeAll(async () => {
  const files = polygonFiles();
  [rawCounties, rawPlaces] = await Promise.all([readLayer(files.counties), readLayer(files.places)]);
  counties = countyFeatures(rawCounties);
  places = placeFeatures(rawPlaces);
  countyIndex = new PolygonIndex(counties);
  placeIndex = new PolygonIndex(places);
});

describe("point in polygon agrees with turf around the split counties", () => {
  it("gives the same counties and places as @turf/boolean-point-in-polygon at seeded random points", () => {
    const random = mulberry32(20260101);
    const countyBoxes = counties.map((feature) => boundsOf(feature.geometry));
    const placeBoxes = places.map((feature) => boundsOf(feature.geometry));
    let compared = 0;
    let placeHits = 0;
    const disagreements: string[] = [];
    for (const fips of SPLIT_COUNTIES) {
      const box = countyBoxes[counties.findIndex((feature) => feature.value.geoid === fips)]!;
      // Reach 15% beyond the county's box on each side, so the neighbours' edges are tested too.
      const padX = 0.15 * (box.maxX - box.minX), padY = 0.15 * (box.maxY - box.minY);
      const outline = outerVertices(counties.find((feature) => feature.value.geoid === fips)!.geometry);
      for (let i = 0; i < POINTS_PER_COUNTY; i++) {
        // Half the points anywhere in and around the county, half within about 50 m of its boundary.
        const vertex = outline[Math.floor(random() * outline.length)]!;
        const [lon, lat] =
          i % 2 === 0
            ? [box.minX - padX + random() * (box.maxX - box.minX + 2 * padX), box.minY - padY + random() * (box.maxY - box.minY + 2 * padY)]
            : [vertex[0]! + (random() - 0.5) * 0.001, vertex[1]! + (random() - 0.5) * 0.001];
        const countiesByTurf = turfHits(counties, countyBoxes, lon, lat);
        const placesByTurf = turfHits(places, placeBoxes, lon, lat);
        const countiesByIndex = countyIndex.find(lon, lat).map((hit) => hit.geoid);
        const placesByIndex = placeIndex.find(lon, lat).map((hit) => hit.geoid);
        if (countiesByIndex.join() !== countiesByTurf.join() || placesByIndex.join() !== placesByTurf.join()) {
          disagreements.push(`${lon},${lat}: index ${countiesByIndex}/${placesByIndex}, turf ${countiesByTurf}/${placesByTurf}`);
        }
        compared++;
        placeHits += placesByTurf.length;
      }
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBe(SPLIT_COUNTIES.length * POINTS_PER_COUNTY);
    // The sample must actually reach into places, or the place comparison proves nothing.
    expect(placeHits).toBeGreaterThan(300);
  });
});

describe("known points fall in the right county and place", () => {
  it("puts the Ohio Statehouse in Franklin County and the City of Columbus", () => {
    expect(countyIndex.find(-82.9988, 39.9612)).toEqual([{ geoid: "39049", name: "Franklin" }]);
    expect(placeIndex.find(-82.9988, 39.9612)).toEqual([{ geoid: "3918000", name: "Columbus", incorporated: true }]);
  });

  it("finds every county at the Census Bureau's internal point for it", () => {
    for (const { geoid, lon, lat } of internalPoints(rawCounties)) {
      expect(countyIndex.find(lon, lat).map((hit) => hit.geoid), geoid).toEqual([geoid]);
    }
  });

  it("agrees with turf at the internal point of every Ohio place, nearly all of which lie in their own place", () => {
    const boxes = places.map((feature) => boundsOf(feature.geometry));
    const own: string[] = [];
    for (const { geoid, lon, lat } of internalPoints(rawPlaces)) {
      const found = placeIndex.find(lon, lat).map((hit) => hit.geoid);
      expect(found, geoid).toEqual(turfHits(places, boxes, lon, lat));
      if (found.includes(geoid)) own.push(geoid);
    }
    // A few internal points fall in an enclave of a neighbour (two in the 2019 layer): turf agrees on each.
    expect(places.length - own.length).toBeLessThanOrEqual(places.length / 100);
  });

  it("marks census designated places (CLASSFP U1, U2) as not incorporated, cities and villages as incorporated", () => {
    const classes = (rawPlaces as { features: Array<{ properties: { GEOID: string; CLASSFP: string } }> }).features.map((f) => [f.properties.GEOID, f.properties.CLASSFP]);
    const incorporated = new Map(places.map((feature) => [feature.value.geoid, feature.value.incorporated]));
    const cdps = classes.filter(([, classfp]) => /^U[12]$/.test(classfp!));
    expect(cdps.length).toBeGreaterThan(200);
    for (const [geoid] of cdps) expect(incorporated.get(geoid!), geoid).toBe(false);
    expect(classes.filter(([geoid]) => incorporated.get(geoid!)).length).toBeGreaterThan(900);
  });
});

describe("a point outside every polygon gets the nearest one", () => {
  it("finds no Ohio county in Indiana, and Darke County as the nearest", () => {
    expect(countyIndex.find(-84.9, 40.1)).toEqual([]);
    const nearest = countyIndex.nearest(-84.9, 40.1);
    expect(nearest.value.geoid).toBe("39037");
    expect(nearest.distanceKm).toBeGreaterThan(5);
    expect(nearest.distanceKm).toBeLessThan(15);
  });

  it("reports distance 0 for a point inside", () => {
    expect(countyIndex.nearest(-82.9988, 39.9612)).toEqual({ value: { geoid: "39049", name: "Franklin" }, distanceKm: 0 });
  });
});

describe("holes, multipolygons and shared edges follow the even-odd rule", () => {
  const square = (x: number, y: number, size: number): number[][] => [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ];
  const index = new PolygonIndex<string>([
    // A square with a square hole, and a second part on its own (left unclosed on purpose).
    { value: "holed", geometry: { type: "MultiPolygon", coordinates: [[square(0, 0, 4), square(1, 1, 2)], [square(10, 0, 1).slice(0, 4)]] } },
    { value: "right", geometry: { type: "Polygon", coordinates: [square(4, 0, 4)] } },
    { value: "above", geometry: { type: "Polygon", coordinates: [square(0, 4, 4)] } },
  ]);

  it("excludes points in a hole and includes points in every part", () => {
    expect(index.find(0.5, 0.5)).toEqual(["holed"]);
    expect(index.find(2, 2)).toEqual([]);
    expect(index.find(10.5, 0.5)).toEqual(["holed"]);
  });

  it("gives a point on an edge shared by two polygons to exactly one of them", () => {
    expect(index.find(4, 2)).toHaveLength(1);
    expect(index.find(2, 4)).toHaveLength(1);
  });
});

describe("one copy of the indexes serves every worker thread", () => {
  it("an index adopted from another's shared arrays, in a real worker thread, answers exactly as the original", async () => {
    const random = mulberry32(11);
    const probes = Array.from({ length: 2000 }, () => [-84.82 + random() * 4.3, 38.4 + random() * 3.6] as const);
    const expected = probes.map(([lon, lat]) => placeIndex.find(lon, lat).map((hit) => hit.geoid).join(","));
    expect(placeIndex.data.xy.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(placeIndex.data.tree).toBeInstanceOf(SharedArrayBuffer);

    // The worker writes a marker into the shared vertex array: seen here, it proves no copy was made.
    const marker = placeIndex.data.xy.length - 1;
    const original = placeIndex.data.xy[marker]!;
    const worker = new Worker(
      `const { parentPort, workerData } = require("node:worker_threads");
       workerData.xy[workerData.marker] = 12345.5;
       parentPort.postMessage(workerData.xy.buffer instanceof SharedArrayBuffer);`,
      { eval: true, workerData: { xy: placeIndex.data.xy, marker } },
    );
    const [shared] = (await once(worker, "message")) as [boolean];
    await worker.terminate();
    expect(shared).toBe(true);
    expect(placeIndex.data.xy[marker]).toBe(12345.5);
    placeIndex.data.xy[marker] = original;

    const adopted = new PolygonIndex(placeIndex.data);
    expect(probes.map(([lon, lat]) => adopted.find(lon, lat).map((hit) => hit.geoid).join(","))).toEqual(expected);
  });
});

function turfHits<T extends { geoid: string }>(features: readonly IndexedFeature<T>[], boxes: readonly Bounds[], lon: number, lat: number): string[] {
  return features
    .filter((_, i) => contains(boxes[i]!, lon, lat))
    .filter((feature) => booleanPointInPolygon([lon, lat], asTurfGeometry(feature.geometry)))
    .map((feature) => feature.value.geoid);
}

function outerVertices(geometry: PolygonalGeometry): readonly (readonly number[])[] {
  return polygonsOf(geometry).flatMap((polygon) => polygon[0] ?? []);
}

/** TIGER's INTPTLON/INTPTLAT: a point the Census Bureau places inside the feature, where it can. */
function internalPoints(collection: unknown): { geoid: string; lon: number; lat: number }[] {
  return (collection as { features: { properties: Record<string, string> }[] }).features.map(({ properties }) => ({
    geoid: properties["GEOID20"] ?? properties["GEOID"] ?? "",
    lon: Number(properties["INTPTLON20"] ?? properties["INTPTLON"]),
    lat: Number(properties["INTPTLAT20"] ?? properties["INTPTLAT"]),
  }));
}

function contains(box: Bounds, x: number, y: number): boolean {
  return x >= box.minX && x <= box.maxX && y >= box.minY && y <= box.maxY;
}

function asTurfGeometry(geometry: PolygonalGeometry): Polygon | MultiPolygon {
  return geometry as Polygon | MultiPolygon;
}

/** Small seeded generator, so a failure can be replayed point for point. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
