/**
 * The boundary indexes are read from the polygon index file `buckeye data fetch-geo` wrote beside
 * the polygons when it matches them, else built in a child process and handed over as bytes
 * (src/geo/open-polygon-index.ts), so that parsing the polygon files never weighs on the server.
 * What the server adopts must be exactly what it would have built itself.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { findPolygonFiles } from "../src/geo/polygon-files.ts";
import { adoptPolygons, polygonsData, loadPolygons, locate } from "../src/geo/polygons.ts";
import { encodePolygons, readPolygons } from "../src/geo/polygons-bytes.ts";
import { polygonIndexPath, sourcesKey } from "../src/geo/polygon-index-file.ts";
import { buildPolygonIndexInProcess, openPolygonIndex } from "../src/geo/open-polygon-index.ts";
import { polygonFiles } from "./_polygons.ts";

const files = polygonFiles();

describe("boundary indexes built in a child process", () => {
  it("hands over every array and feature exactly as built in process, on shared memory", async () => {
    const [built, local] = await Promise.all([buildPolygonIndexInProcess(files), loadPolygons(files).then(polygonsData)]);
    expect(built.countyVintage).toBe(local.countyVintage);
    expect(built.placeVintage).toBe(local.placeVintage);
    for (const layer of ["counties", "places"] as const) {
      expect(built[layer].values).toEqual(local[layer].values);
      for (const name of ["partFeature", "partRingStart", "ringBox", "ringRunStart", "runFrom", "runTo", "runBox", "xy"] as const) {
        expect(built[layer][name]).toEqual(local[layer][name]);
        expect(built[layer][name].buffer).toBeInstanceOf(SharedArrayBuffer);
      }
      expect(new Uint8Array(built[layer].tree)).toEqual(new Uint8Array(local[layer].tree));
    }
    // The Ohio Statehouse: Franklin County, City of Columbus.
    const found = locate(adoptPolygons(built), -82.99909, 39.96133);
    expect(found.county?.name).toBe("Franklin");
    expect(found.place?.name).toBe("Columbus");
  });

  it("refuses bytes cut short or with trailing data rather than adopting a partial index", async () => {
    const dir = mkdtempSync(join(tmpdir(), "buckeye-boundary-bytes-"));
    try {
      const bytes = Buffer.concat(encodePolygons(polygonsData(await loadPolygons(files)), sourcesKey(files)));
      writeFileSync(join(dir, "short.bin"), bytes.subarray(0, bytes.byteLength - 1));
      writeFileSync(join(dir, "long.bin"), Buffer.concat([bytes, Buffer.from([0])]));
      expect(() => readPolygons(join(dir, "short.bin"))).toThrow(/end early/);
      expect(() => readPolygons(join(dir, "long.bin"))).toThrow(/trailing data/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reports a child that fails, with its error, so the pool can fall back to loading in its threads", async () => {
    const missing = { ...files, counties: { ...files.counties, path: join(tmpdir(), "no-such-county-file.geojson") } };
    await expect(buildPolygonIndexInProcess(missing)).rejects.toThrow(/no-such-county-file/);
  });
});

/** For opens that must not find a damaged file. */
const unexpected = (error: Error) => {
  throw error;
};

describe("the polygon index file beside the polygons", () => {
  it("is read when it was built from exactly the polygons there, and built again when they change or its layout is another's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "buckeye-polygon-index-"));
    try {
      for (const layer of [files.counties, files.places]) copyFileSync(layer.path, join(dir, basename(layer.path)));
      const copied = findPolygonFiles(dir) as typeof files;
      // An index that says 1999 for polygons of another vintage can only have come from the file.
      const marked = { ...polygonsData(await loadPolygons(copied)), countyVintage: 1999 };
      writeFileSync(polygonIndexPath(dir), Buffer.concat(encodePolygons(marked, sourcesKey(copied))));
      expect((await openPolygonIndex(copied, unexpected)).countyVintage).toBe(1999);

      utimesSync(copied.counties.path, new Date(), new Date(Date.now() + 60_000));
      expect((await openPolygonIndex(copied, unexpected)).countyVintage).toBe(files.counties.vintage);

      writeFileSync(polygonIndexPath(dir), Buffer.concat(encodePolygons(marked, sourcesKey(copied))).toString("latin1").replace("buckeye polygon index 1", "buckeye polygon index 0"), "latin1");
      expect((await openPolygonIndex(copied, unexpected)).countyVintage).toBe(files.counties.vintage);
      // The service only reads the folder: what it built in place of the stale file, it did not write there.
      expect(readFileSync(polygonIndexPath(dir), "latin1")).toContain("buckeye polygon index 0");

      // A file written for exactly these polygons but cut short is said to be damaged, once, and built around.
      const whole = Buffer.concat(encodePolygons(marked, sourcesKey(copied)));
      writeFileSync(polygonIndexPath(dir), whole.subarray(0, whole.byteLength - 1));
      const heard: Error[] = [];
      expect((await openPolygonIndex(copied, (error) => heard.push(error))).countyVintage).toBe(files.counties.vintage);
      expect(heard).toHaveLength(1);
      expect(heard[0]!.message).toMatch(/polygon index file .* could not be read/);
      expect(String((heard[0]!.cause as Error).message)).toMatch(/end early/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Parses the polygons once and builds them twice in a child process.
  }, 90_000);
});
