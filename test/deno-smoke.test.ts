/**
 * Smoke test: the service under Deno 2 (the `deno` npm package, a dev dependency), started with
 * `deno run -A src/cli.ts serve`, on the embedded default (SQLite: better-sqlite3 13 is a Node-API
 * addon, which Deno loads) and on PostgreSQL. It answers like the Node build: rates by county, counties,
 * a 401, coordinates and an address on its worker threads (the address through the FAKE Census
 * upstream, test/fake-census-geocoder.ts), an asynchronous batch job, and a clean exit on SIGTERM.
 */
import { getJson } from "./_http.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { FAKE_ADDRESSES, oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { POSTGRES_URL, ROOT, startServe, type ServeProcess } from "./_serve-process.ts";
import { freshDatabase, type FreshDatabase } from "./_setup.ts";

const DENO = join(ROOT, "node_modules/.bin/deno");
const dir = mkdtempSync(join(tmpdir(), "buckeye-deno-"));
let fake: FakeCensusGeocoder;

beforeAll(async () => {
  fake = await startFakeCensusGeocoder();
});

afterAll(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

const DATABASES: Array<[string, () => FreshDatabase]> = [
  ["SQLite, the embedded default", () => freshDatabase(dir, "deno", "")],
  ["PostgreSQL", () => freshDatabase(dir, "deno", POSTGRES_URL)],
];

describe.each(DATABASES)("Deno 2: deno run -A src/cli.ts serve, on %s", (_name, makeDatabase) => {
  let database: FreshDatabase;
  let deno: ServeProcess;
  let key: string;

  beforeAll(async () => {
    database = makeDatabase();
    const store = openStore(database.url);
    await migrateToLatest(store.db);
    const org = await createOrganization(store.db, "Deno Co");
    key = (await createKey(store.db, org.id, "deno smoke", "live")).key;
    await store.close();
    deno = await startServe({
      command: [DENO, "run", "-A", "src/cli.ts"],
      env: { DATABASE_URL: database.url, CENSUS_GEOCODER_URL: fake.url, BATCH_POLL_MS: "50", WORKER_THREADS: "1", LOG_LEVEL: "info", NO_COLOR: "1" },
      startTimeoutMs: 90_000,
    });
  }, 120_000);

  afterAll(async () => {
    deno?.child.kill("SIGKILL");
    await database?.drop();
  });

  async function call(path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}, withKey = true) {
    return fetch(`${deno.url}${path}`, { ...init, headers: { ...(withKey ? { authorization: `Bearer ${key}` } : {}), ...init.headers } });
  }

  const get = (path: string, withKey = true) => getJson(`${deno.url}${path}`, withKey ? key : null);

  it("answers GET /api/v1/rates for a county and date, with the rate-limit headers", async () => {
    const { res, body } = await get("/api/v1/rates?county=franklin&date=2025-04-01");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ county: "Franklin", combined_rate: 0.08, components: { state: 0.0575, county_permissive: 0.0125, transit_authority: 0.01 } });
    expect(res.headers.get("ratelimit-limit")).toBe("10");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers GET /api/v1/counties with all 88 counties", async () => {
    const { res, body } = await get("/api/v1/counties");
    expect(res.status).toBe(200);
    expect(body.total).toBe(88);
  });

  it("refuses a request without a key with 401 problem+json", async () => {
    const { res, body } = await get("/api/v1/counties", false);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(body.type).toMatch(/\/unauthorized$/);
  });

  it("resolves coordinates on its worker threads (workers/geo.ts, loaded by Deno itself)", async () => {
    const { res, body } = await get("/api/v1/rates?lat=39.9612&lon=-82.9988&date=2025-04-01");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ county: "Franklin", resolved_by: "coordinates" });
  });

  it("resolves a street address: geocoded upstream, the transit district decided on its worker threads", async () => {
    const address = encodeURIComponent(oneLine("columbusInDelaware"));
    const upstreamCalls = fake.requests.length;
    const { res, body } = await get(`/api/v1/rates?address=${address}&date=2026-06-01`);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ county: "Delaware", resolved_by: "address_geocoding", combined_rate: 0.08, transit_district: { authority: "COTA", status: "inside" } });
    expect(fake.requests.length).toBeGreaterThan(upstreamCalls);
  });

  it("runs an asynchronous batch job (POST /api/v1/batches) to completion, results in input order", async () => {
    const csv = ["id,address,zip,county,lat,lon", `a,"${oneLine("reynoldsburgInLicking")}",,,,`, "z,,43402,,,", "c,,,Franklin,,", `p,,,,${FAKE_ADDRESSES.rossford.lat},${FAKE_ADDRESSES.rossford.lon}`].join("\n");
    const submitted = await call("/api/v1/batches", { method: "POST", body: csv, headers: { "content-type": "text/csv" } });
    expect(submitted.status).toBe(202);
    const location = submitted.headers.get("location")!;
    expect(location).toMatch(/^\/api\/v1\/batches\/bat_/);
    let job: Record<string, any>;
    // Polls until the job completes (a wait, not a timed assertion), within the rate limit.
    for (;;) {
      job = (await get(location)).body;
      if (job.status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(job).toMatchObject({ total: 4, done: 4, failed: 0 });
    const results = await call(`${location}/results`, { headers: { accept: "application/x-ndjson" } });
    const rows = (await results.text()).trim().split("\n").map((line) => JSON.parse(line) as Record<string, any>);
    expect(rows.map((r) => [r.id, r.status, r.body.county, r.body.resolved_by])).toEqual([
      ["a", 200, "Licking", "address_geocoding"],
      ["z", 200, "Wood", "zip_unambiguous"],
      ["c", 200, "Franklin", "county_param"],
      ["p", 200, "Wood", "coordinates"],
    ]);
  });

  it("stops on SIGTERM with exit code 0", async () => {
    deno.child.kill("SIGTERM");
    expect(await deno.exited).toBe(0);
    expect(deno.logs.at(-1)).toMatchObject({ msg: "stopped" });
  });
});
