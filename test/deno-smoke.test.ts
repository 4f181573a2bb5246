/**
 * Smoke test: the service under Deno 2 (the `deno` npm package, a dev dependency), started with
 * `deno run -A src/cli.ts serve`, answers /api/v1/rates and /api/v1/counties like the Node build.
 * It runs on PostgreSQL: better-sqlite3 is a native addon built on the legacy Node addon API (nan),
 * which Deno cannot load, so `sqlite:` URLs do not work under Deno (README, "Running under Deno").
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { POSTGRES_URL, ROOT, startServe, type ServeProcess } from "./_serve-process.ts";
import { freshDatabase, type FreshDatabase } from "./_setup.ts";

const DENO = join(ROOT, "node_modules/.bin/deno");
const dir = mkdtempSync(join(tmpdir(), "buckeye-deno-"));
let database: FreshDatabase;
let deno: ServeProcess;
let key: string;

beforeAll(async () => {
  database = freshDatabase(dir, "deno", POSTGRES_URL);
  const store = openStore(database.url);
  await migrateToLatest(store.db);
  const org = await createOrganization(store.db, "Deno Co");
  key = (await createKey(store.db, org.id, "deno smoke", "live")).key;
  await store.close();
  deno = await startServe({
    command: [DENO, "run", "-A", "src/cli.ts"],
    env: { DATABASE_URL: database.url, WORKER_THREADS: "1", LOG_LEVEL: "info", NO_COLOR: "1" },
    startTimeoutMs: 90_000,
  });
}, 120_000);

afterAll(async () => {
  deno?.child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

async function get(path: string, withKey = true) {
  const res = await fetch(`${deno.url}${path}`, { headers: withKey ? { authorization: `Bearer ${key}` } : {} });
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("Deno 2: deno run -A src/cli.ts serve", () => {
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

  it("stops on SIGTERM with exit code 0", async () => {
    deno.child.kill("SIGTERM");
    expect(await deno.exited).toBe(0);
    expect(deno.logs.at(-1)).toMatchObject({ msg: "stopped" });
  });
});
