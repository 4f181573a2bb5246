/**
 * Boundary data at run time: `buckeye data fetch-geo` against a FAKE UPSTREAM TIGER/Line site
 * serving a small SYNTHETIC shapefile made here (never downloaded data), shapefiles read straight from
 * GEO_DATA_DIR, the newest vintage winning, a clear failure without internet, and the test suite's own
 * fetch of missing polygons (test/_global-setup.ts) through that same command.
 */
import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPolygonFiles } from "../src/geo/polygon-files.ts";
import { adoptPolygons, loadPolygons, locate } from "../src/geo/polygons.ts";
import { defaultVintage, fetchTiger, FetchGeoError, tigerUrls } from "../src/geo/fetch-tiger.ts";
import { polygonIndexPath, readFreshPolygonIndex } from "../src/geo/polygon-index-file.ts";
import { fetchPolygonsIfMissing } from "./_global-setup.ts";
import { createService } from "../src/service.ts";
import { startTestService, testConfig } from "./_setup.ts";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";

const ROOT = new URL("..", import.meta.url).pathname;

type Ring = Array<[number, number]>;
interface ShapeRecord {
  rings: Ring[];
  fields: Record<string, string>;
}

/** A clockwise square: the shapefile convention for an outer ring. */
const square = (minX: number, minY: number, maxX: number, maxY: number): Ring => [[minX, minY], [minX, maxY], [maxX, maxY], [maxX, minY], [minX, minY]];

/** Writes a polygon .shp (ESRI Shapefile Technical Description, 1998) and its dBase III .dbf. */
function makeShapefile(records: ShapeRecord[]): { shp: Uint8Array; dbf: Uint8Array } {
  const bodies = records.map(({ rings }) => {
    const points = rings.flat();
    const body = Buffer.alloc(44 + 4 * rings.length + 16 * points.length);
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    body.writeInt32LE(5, 0);
    [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].forEach((v, i) => body.writeDoubleLE(v, 4 + 8 * i));
    body.writeInt32LE(rings.length, 36);
    body.writeInt32LE(points.length, 40);
    let start = 0;
    rings.forEach((ring, i) => {
      body.writeInt32LE(start, 44 + 4 * i);
      start += ring.length;
    });
    points.forEach(([x, y], i) => {
      body.writeDoubleLE(x, 44 + 4 * rings.length + 16 * i);
      body.writeDoubleLE(y, 52 + 4 * rings.length + 16 * i);
    });
    return body;
  });
  const header = Buffer.alloc(100);
  const all = records.flatMap((r) => r.rings.flat());
  const length = 100 + bodies.reduce((sum, b) => sum + 8 + b.length, 0);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(length / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(5, 32);
  [Math.min(...all.map((p) => p[0])), Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[0])), Math.max(...all.map((p) => p[1]))].forEach((v, i) => header.writeDoubleLE(v, 36 + 8 * i));
  const shp = Buffer.concat([
    header,
    ...bodies.flatMap((body, i) => {
      const recordHeader = Buffer.alloc(8);
      recordHeader.writeInt32BE(i + 1, 0);
      recordHeader.writeInt32BE(body.length / 2, 4);
      return [recordHeader, body];
    }),
  ]);

  const names = Object.keys(records[0]!.fields);
  const widths = names.map((name) => Math.max(...records.map((r) => r.fields[name]!.length), 1));
  const dbfHeader = Buffer.alloc(32 + 32 * names.length + 1);
  dbfHeader.writeUInt8(3, 0);
  dbfHeader.writeUInt32LE(records.length, 4);
  dbfHeader.writeUInt16LE(dbfHeader.length, 8);
  dbfHeader.writeUInt16LE(1 + widths.reduce((a, b) => a + b, 0), 10);
  names.forEach((name, i) => {
    dbfHeader.write(name, 32 + 32 * i, "latin1");
    dbfHeader.write("C", 32 + 32 * i + 11, "latin1");
    dbfHeader.writeUInt8(widths[i]!, 32 + 32 * i + 16);
  });
  dbfHeader.writeUInt8(0x0d, dbfHeader.length - 1);
  const rows = records.map((r) => Buffer.from(` ${names.map((name, i) => r.fields[name]!.padEnd(widths[i]!)).join("")}`, "latin1"));
  const dbf = Buffer.concat([dbfHeader, ...rows, Buffer.from([0x1a])]);
  return { shp: new Uint8Array(shp), dbf: new Uint8Array(dbf) };
}

/** SYNTHETIC: a county and a city in it, around a made-up point near Delaware, Ohio; plus an Indiana county the conversion must drop. */
const COUNTIES = makeShapefile([
  { rings: [square(-83.2, 40.1, -82.8, 40.5)], fields: { STATEFP: "39", GEOID: "39041", NAME: "Delaware" } },
  { rings: [square(-85.3, 40.9, -84.9, 41.3)], fields: { STATEFP: "18", GEOID: "18003", NAME: "Allen" } },
]);
const PLACES = makeShapefile([
  { rings: [square(-83.05, 40.2, -82.95, 40.3)], fields: { STATEFP: "39", GEOID: "3918000", NAME: "Columbus", CLASSFP: "C1" } },
]);

let tiger: Server;
let tigerUrl: string;
const served: string[] = [];
beforeAll(async () => {
  // 2024 for the tests that name a vintage, and the one fetch-geo asks for by default.
  const files: Record<string, Uint8Array> = Object.fromEntries(
    [2024, defaultVintage()].flatMap((year) => [
      [`/TIGER${year}/COUNTY/tl_${year}_us_county.zip`, zipSync({ [`tl_${year}_us_county.shp`]: COUNTIES.shp, [`tl_${year}_us_county.dbf`]: COUNTIES.dbf })],
      [`/TIGER${year}/PLACE/tl_${year}_39_place.zip`, zipSync({ [`tl_${year}_39_place.shp`]: PLACES.shp, [`tl_${year}_39_place.dbf`]: PLACES.dbf })],
    ]),
  );
  // FAKE UPSTREAM standing in for the Census Bureau's TIGER/Line download site.
  tiger = createServer((req, res) => {
    served.push(req.url ?? "");
    const file = files[req.url ?? ""];
    // A connection per download: a kept-alive socket the server closes while a test blocks the event
    // loop (spawnSync of the CLI, longer than the keep-alive timeout on a busy machine) resets the next fetch.
    res.setHeader("connection", "close");
    if (!file) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "application/zip" }).end(Buffer.from(file));
  });
  await new Promise<void>((resolve) => tiger.listen(0, "127.0.0.1", resolve));
  tigerUrl = `http://127.0.0.1:${(tiger.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => tiger.close(() => resolve())));

describe("buckeye data fetch-geo downloads TIGER/Line zips and converts them", () => {
  it("writes Ohio-only GeoJSON for the vintage, which the loader then finds and indexes, and the polygon index beside it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "buckeye-geo-"));
    const fetched = await fetchTiger({ vintage: 2024, baseUrl: tigerUrl, dir });
    expect(served).toEqual(["/TIGER2024/COUNTY/tl_2024_us_county.zip", "/TIGER2024/PLACE/tl_2024_39_place.zip"]);
    expect(fetched.counties).toEqual({ file: join(dir, "oh-counties-tiger2024.geojson"), features: 1 });
    expect(fetched.places.features).toBe(1);

    const files = findPolygonFiles(dir);
    expect(files).toMatchObject({ available: true, counties: { format: "geojson", vintage: 2024 }, places: { format: "geojson", vintage: 2024 } });
    const boundaries = await loadPolygons(files as Extract<typeof files, { available: true }>);
    expect(locate(boundaries, -83.0, 40.25)).toEqual({ county: { geoid: "39041", name: "Delaware" }, place: { geoid: "3918000", name: "Columbus", incorporated: true } });
    expect(locate(boundaries, -83.15, 40.45)).toEqual({ county: { geoid: "39041", name: "Delaware" }, place: null });
    expect(locate(boundaries, -85.1, 41.1).county).toBeNull();

    // Beside them, the polygon index the service reads at start instead of parsing them.
    expect(existsSync(polygonIndexPath(dir))).toBe(true);
    const written = readFreshPolygonIndex(files as Extract<typeof files, { available: true }>);
    expect(written).toMatchObject({ countyVintage: 2024, placeVintage: 2024 });
    expect(locate(adoptPolygons(written!), -83.0, 40.25)).toEqual(locate(boundaries, -83.0, 40.25));
  });

  it("fails with a clear message when the vintage is not published (HTTP 404)", async () => {
    await expect(fetchTiger({ vintage: 2031, baseUrl: tigerUrl, dir: mkdtempSync(join(tmpdir(), "buckeye-geo-")) })).rejects.toThrow(/HTTP 404.*may not be published yet; try --vintage 2030/);
  });

  it("fails with a clear message when there is no internet", async () => {
    const attempt = fetchTiger({ vintage: 2024, baseUrl: "http://127.0.0.1:2", dir: mkdtempSync(join(tmpdir(), "buckeye-geo-")) });
    await expect(attempt).rejects.toBeInstanceOf(FetchGeoError);
    await expect(attempt).rejects.toThrow(/could not download http:\/\/127\.0\.0\.1:2\/TIGER2024\/COUNTY\/tl_2024_us_county\.zip: ECONNREFUSED\. fetch-geo needs internet access/);
  });

  it("the CLI prints that message and exits 1", () => {
    const run = spawnSync(process.execPath, ["bin/buckeye.js", "data", "fetch-geo", "--vintage", "2024", "--dir", mkdtempSync(join(tmpdir(), "buckeye-geo-"))], {
      env: { ...process.env, TIGER_BASE_URL: "http://127.0.0.1:2" },
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/buckeye: could not download .*needs internet access to the Census Bureau's TIGER\/Line site/);
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe("buckeye data index-geo writes the polygon index for polygons put in place by hand", () => {
  it("indexes the files the service would load, which it then reads instead of parsing them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "buckeye-geo-"));
    writeFileSync(join(dir, "tl_2025_us_county.shp"), COUNTIES.shp);
    writeFileSync(join(dir, "tl_2025_us_county.dbf"), COUNTIES.dbf);
    writeFileSync(join(dir, "tl_2025_39_place.shp"), PLACES.shp);
    writeFileSync(join(dir, "tl_2025_39_place.dbf"), PLACES.dbf);
    const files = findPolygonFiles(dir) as Extract<ReturnType<typeof findPolygonFiles>, { available: true }>;
    expect(readFreshPolygonIndex(files)).toBeNull();

    const run = spawnSync(process.execPath, ["bin/buckeye.js", "data", "index-geo", "--dir", dir, "--json"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ file: polygonIndexPath(dir), county_vintage: 2025, place_vintage: 2025 });
    expect(locate(adoptPolygons(readFreshPolygonIndex(files)!), -83.0, 40.25)).toEqual(locate(await loadPolygons(files), -83.0, 40.25));

    const empty = spawnSync(process.execPath, ["bin/buckeye.js", "data", "index-geo", "--dir", mkdtempSync(join(tmpdir(), "buckeye-geo-"))], { encoding: "utf8" });
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/no county or place polygon file in /);
  }, 120_000);
});

describe("GEO_DATA_DIR may hold the unzipped TIGER/Line shapefiles themselves", () => {
  it("reads them, preferring the newest vintage, and serves coordinate lookups from them through the worker pool", async () => {
    const dir = mkdtempSync(join(tmpdir(), "buckeye-geo-"));
    await fetchTiger({ vintage: 2024, baseUrl: tigerUrl, dir });
    writeFileSync(join(dir, "tl_2025_us_county.shp"), COUNTIES.shp);
    writeFileSync(join(dir, "tl_2025_us_county.dbf"), COUNTIES.dbf);
    writeFileSync(join(dir, "tl_2025_39_place.shp"), PLACES.shp);
    writeFileSync(join(dir, "tl_2025_39_place.dbf"), PLACES.dbf);
    expect(findPolygonFiles(dir)).toMatchObject({ counties: { format: "shapefile", vintage: 2025 }, places: { format: "shapefile", vintage: 2025 } });

    const api = await startTestService({ GEO_DATA_DIR: dir });
    try {
      const res = await api.get("/api/v1/rates?lat=40.25&lon=-83.0&date=2026-06-01");
      const body = (await res.json()) as Record<string, any>;
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ county: "Delaware", resolved_by: "coordinates", combined_rate: 0.08 });
      expect(body.note).toMatch(/TIGER\/Line 2025 place boundaries/);
      await api.service.context.lookups.pool.warm();
      const ready = (await (await api.get("/readyz", {})).json()) as Record<string, any>;
      expect(ready.checks.boundaries).toMatch(/counties TIGER\/Line 2025, places 2025/);
    } finally {
      await api.close();
    }
  });
});

describe("a test run without polygons fetches them once with buckeye data fetch-geo, into the folder the service reads", () => {
  it("runs the operator's command against the TIGER/Line site (here the fake upstream), says so, and does not fetch again once they are there", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "buckeye-geo-")), "geo");
    const env = { ...process.env, GEO_DATA_DIR: dir, TIGER_BASE_URL: tigerUrl };
    const lines: string[] = [];
    const before = served.length;
    expect(await fetchPolygonsIfMissing(env, (line) => lines.push(line))).toBe(true);
    expect(lines.join("\n")).toMatch(/No boundary polygons: GEO_DATA_DIR .* does not exist[^]*Fetching them once with `buckeye data fetch-geo --dir /);
    expect(lines.at(-1)).toMatch(/^wrote .*oh-counties-tiger\d{4}\.geojson \(1 counties\)/);
    expect(served.slice(before)).toEqual([tigerUrls("", defaultVintage()).counties, tigerUrls("", defaultVintage()).places]);
    expect(findPolygonFiles(dir)).toMatchObject({ available: true, counties: { vintage: defaultVintage() }, places: { vintage: defaultVintage() } });

    expect(await fetchPolygonsIfMissing(env, (line) => lines.push(line))).toBe(false);
    expect(served.length).toBe(before + 2);
  });

  it("stops the run with fetch-geo's own explanation when the site cannot be reached", async () => {
    const env = { ...process.env, GEO_DATA_DIR: join(mkdtempSync(join(tmpdir(), "buckeye-geo-")), "geo"), TIGER_BASE_URL: "http://127.0.0.1:2" };
    await expect(fetchPolygonsIfMissing(env, () => {})).rejects.toThrow(/^the tests need boundary polygons in .* and buckeye data fetch-geo failed \(exit 1\): could not download .*needs internet access.*; put the county and place files there/);
  });

  it("a test run that cannot get them ends with that one line and exit 1, not vitest's \"No test files found\" over a stack", () => {
    const env = { ...process.env, GEO_DATA_DIR: join(mkdtempSync(join(tmpdir(), "buckeye-geo-")), "geo"), TIGER_BASE_URL: "http://127.0.0.1:2" };
    const run = spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "test/supported-node.test.ts"], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status).toBe(1);
    expect(output).toMatch(/^\[polygons\] the tests need boundary polygons in .* could not download .*; put the county and place files there .* and run the tests again$/m);
    expect(output).not.toMatch(/No test files found|Unhandled Error|    at /);
  }, 60_000);
});

describe("a server started without polygons warns at start-up; after buckeye data fetch-geo, /readyz and every lookup say a restart loads them", () => {
  it("logs the warning, answers /readyz and /api/v1/rates 503 with the same reason (what to run, then what is left to do), logs each 503 in one line without a stack, and is ready after a restart", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "buckeye-geo-")), "geo");
    const { config, cleanup } = testConfig({ GEO_DATA_DIR: dir });
    const log: Array<Record<string, unknown>> = [];
    const readyz = async (service: { app: { fetch(request: Request): Response | Promise<Response> } }) => {
      const res = await service.app.fetch(new Request("http://buckeye.test/readyz"));
      return { status: res.status, body: (await res.json()) as { reasons: string[] } };
    };
    try {
      const first = await createService(config, { log: (entry) => log.push(entry) });
      const org = await createOrganization(first.store.db, "Polygons Co");
      const { key } = await createKey(first.store.db, org.id, "polygons", "live");
      const point = async () => {
        const res = await first.app.fetch(new Request("http://buckeye.test/api/v1/rates?lat=39.9612&lon=-82.9988&date=2026-06-01", { headers: { authorization: `Bearer ${key}` } }));
        return { status: res.status, detail: ((await res.json()) as { detail: string }).detail };
      };
      try {
        expect(log).toContainEqual(expect.objectContaining({ level: "warn", msg: expect.stringMatching(/^no boundary polygons: address and lat\/lon lookups answer 503, and so does \/readyz/), reason: expect.stringMatching(/does not exist; run `buckeye data fetch-geo`/) }));
        const before = await readyz(first);
        expect(before.status).toBe(503);
        expect(before.body.reasons).toContainEqual(expect.stringMatching(/^boundaries-unavailable: GEO_DATA_DIR .* does not exist; run `buckeye data fetch-geo`/));
        expect(await point()).toMatchObject({ status: 503, detail: expect.stringMatching(/not loaded: GEO_DATA_DIR .* does not exist; run `buckeye data fetch-geo`/) });

        const fetched = await promisify(execFile)(process.execPath, ["bin/buckeye.js", "data", "fetch-geo"], { env: { ...process.env, GEO_DATA_DIR: dir, TIGER_BASE_URL: tigerUrl } });
        expect(fetched.stdout).toMatch(/restart the service to load them/);
        const after = await readyz(first);
        expect(after.status).toBe(503);
        expect(after.body.reasons).toContainEqual(
          `boundaries-unavailable: this instance started without polygon files; ${dir} now holds TIGER/Line ${defaultVintage()} counties and ${defaultVintage()} places: restart it to load them. Address and lat/lon lookups answer 503; county and ZIP lookups work.`,
        );
        const { status, detail } = await point();
        expect(status).toBe(503);
        expect(detail).toContain(`not loaded: this instance started without polygon files; ${dir} now holds TIGER/Line ${defaultVintage()} counties and ${defaultVintage()} places: restart it to load them.`);
        const logged503s = log.filter((entry) => entry["problem"] === "boundaries-unavailable");
        expect(logged503s).toHaveLength(2);
        for (const entry of logged503s) expect(entry).not.toHaveProperty("stack");
      } finally {
        await first.close();
      }

      const restarted = await createService(config, { log: () => {} });
      try {
        await restarted.context.lookups.pool.warm();
        expect((await readyz(restarted)).status).toBe(200);
      } finally {
        await restarted.close();
      }
    } finally {
      await cleanup();
    }
  });
});
