/**
 * Starts a real Buckeye service for a test file: a fresh SQLite database in a temp folder (or a
 * fresh PostgreSQL schema when TEST_DATABASE_URL names one), the shipped data, one organization
 * with a live and a test key. Requests go through the app's in-process fetch, or through a real
 * socket with `listen()`.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createKey } from "../src/auth/key-service.ts";
import { loadConfig, type Config } from "../src/config.ts";
import { createService, startService, type Service } from "../src/service.ts";
import { TestClock } from "./_clock.ts";
import type { Logger } from "../src/log.ts";
import { startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { geoDataDir } from "./_polygons.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";

export interface TestService {
  service: Service;
  config: Config;
  orgId: string;
  liveKey: string;
  testKey: string;
  /** The clock the whole service reads: a test moves it with clock.set(...). */
  clock: TestClock;
  /** In-process request with the live key unless headers say otherwise. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface FreshDatabase {
  url: string;
  /** Removes the database: the PostgreSQL schema with everything in it (a SQLite file goes with its folder). */
  drop(): Promise<void>;
}

/**
 * A new, empty database for one service: a SQLite file in `dir`, or, when TEST_DATABASE_URL is a
 * postgres:// URL, a schema of its own in that database (`?schema=t_<random>`, created on first
 * use by src/store/connect.ts), so test files running side by side never see each other's rows.
 * Tests that spawn `bin/buckeye.js` pass `url` as the child's DATABASE_URL; tests that need
 * PostgreSQL in every run (several instances on one database) pass its URL as `base`.
 */
export function freshDatabase(dir: string, name = "buckeye", base = process.env.TEST_DATABASE_URL): FreshDatabase {
  if (!base || !/^postgres(ql)?:\/\//.test(base)) return { url: `sqlite:${join(dir, `${name}.sqlite`)}`, drop: async () => {} };
  const schema = `t_${randomBytes(8).toString("hex")}`;
  const url = new URL(base);
  url.searchParams.set("schema", schema);
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export function testConfig(env: Record<string, string> = {}): { config: Config; cleanup: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-test-"));
  const database = freshDatabase(dir);
  const config = loadConfig({
    DATABASE_URL: database.url,
    RATE_LIMIT_PER_SECOND: "100000",
    LOG_LEVEL: "silent",
    PORT: "0",
    // No test reaches the real Census Geocoder: this port refuses connections unless a test names its fake upstream.
    CENSUS_GEOCODER_URL: "http://127.0.0.1:2",
    WORKER_THREADS: "2",
    GEO_DATA_DIR: geoDataDir(),
    ...env,
  });
  return {
    config,
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

/**
 * What a test service without a socket runs: the usage counter and the batch job runner, as a
 * started service does. The delivery actor and the scheduler stay stopped; tests drive them.
 */
export function startRequestActors(service: Service): void {
  service.context.usage?.start();
  service.context.lookups.runner.start();
}

export async function startTestService(env: Record<string, string> = {}, listenOnSocket = false, log?: Logger): Promise<TestService & { url?: string }> {
  const { config, cleanup } = testConfig(env);
  const clock = new TestClock();
  const options = { clock, ...(log && { log }) };
  const running = listenOnSocket ? await startService(config, options) : await createService(config, options);
  if (!listenOnSocket) startRequestActors(running);
  const org = await createOrganization(running.store.db, "Test Org");
  const live = await createKey(running.store.db, org.id, "test suite live", "live");
  const test = await createKey(running.store.db, org.id, "test suite sandbox", "test");
  return {
    service: running,
    config,
    orgId: org.id,
    liveKey: live.key,
    testKey: test.key,
    clock,
    url: "url" in running ? (running.url as string) : undefined,
    get: async (path, headers = { authorization: `Bearer ${live.key}` }) =>
      running.app.fetch(new Request(`http://buckeye.test${path}`, { headers })),
    close: async () => {
      await running.close();
      await cleanup();
    },
  };
}

/** The raw public tables the data build reads (data/sources/README.md), read independently of the service to check answers against. */
export const RATE_SOURCES = new URL("../data/sources/", import.meta.url);

/** A test service whose Census geocoder is a FAKE UPSTREAM (test/fake-census-geocoder.ts); close() stops both. */
export type GeocodedTestService = TestService & { url?: string; fake: FakeCensusGeocoder };

export async function startTestServiceWithFakeGeocoder(env: Record<string, string> = {}, listenOnSocket = false): Promise<GeocodedTestService> {
  const fake = await startFakeCensusGeocoder();
  try {
    const api = await startTestService({ CENSUS_GEOCODER_URL: fake.url, ...env }, listenOnSocket);
    return {
      ...api,
      fake,
      close: async () => {
        await api.close();
        await fake.close();
      },
    };
  } catch (error) {
    await fake.close();
    throw error;
  }
}
