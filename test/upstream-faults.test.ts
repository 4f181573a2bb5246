/**
 * No upstream behaviour ends the process (docs/guides/address-resolution.md, "Upstream faults"). Each
 * fault is a real socket: a FAKE UPSTREAM (test/fake-census-geocoder.ts) that fails on purpose, a port
 * nothing listens on, or a URL fetch refuses to use. A crash escapes every promise, so the body-stream
 * rule is checked in a child process, whose exit code and stderr say whether it survived; batch jobs
 * run on a real service (SQLite, or PostgreSQL when TEST_DATABASE_URL names it), inline batches on a
 * real `buckeye serve`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { FETCH_BAD_PORTS, loadConfig } from "../src/config.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { FAKE_ADDRESSES, startFakeCensusGeocoder, type FakeBatchFailure, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { ROOT, startServe, type ServeProcess } from "./_serve-process.ts";
import { freshDatabase, startTestService, startTestServiceWithFakeGeocoder, type GeocodedTestService, type TestService } from "./_setup.ts";

const fakes: FakeCensusGeocoder[] = [];
async function fake(): Promise<FakeCensusGeocoder> {
  const started = await startFakeCensusGeocoder();
  fakes.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

/**
 * Runs geocodeBatch once in a fresh Node process against `baseUrl`, prints how it ended, then lets
 * the event loop run a while: a body write left behind by the failed request would throw there.
 */
const CHILD = `
const { geocodeBatch } = await import(process.env.GEOCODER_MODULE);
const rows = Number(process.env.ROWS);
const addresses = Array.from({ length: rows }, (_, i) => ({ id: "r" + i, street: i + " Bench St", city: "Columbus", state: "OH", zip: "43215" }));
try {
  await geocodeBatch(addresses, { baseUrl: process.env.BASE_URL, timeoutMs: 5000, retries: 1, retryDelayMs: 10 });
  console.log(JSON.stringify({ outcome: "answered" }));
} catch (error) {
  console.log(JSON.stringify({ outcome: error.name, reason: error.reason }));
}
await new Promise((resolve) => setTimeout(resolve, 500));
`;

async function geocodeInChild(baseUrl: string, rows = 1): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], {
    cwd: ROOT,
    env: { ...process.env, GEOCODER_MODULE: `${ROOT}src/geo/census-batch-geocoder.ts`, BASE_URL: baseUrl, ROWS: String(rows) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

function expectUnavailableAndAlive(run: { code: number | null; stdout: string; stderr: string }): void {
  expect(run.stderr).not.toMatch(/ERR_INVALID_STATE|ReadableStream is already closed/);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ outcome: "GeocoderUnavailableError", reason: expect.stringMatching(/\(2 attempts\)$/) });
}

// Fetch refuses these without connecting, while its multipart writer is still running (the Fetch standard's "bad port" list).
const BAD_PORTS = [1, 9, 5060, 6000, 10080];

describe("a failed batch request leaves no body write behind: geocodeBatch rejects as unavailable and the process lives on", { timeout: 60_000 }, () => {
  it.each(BAD_PORTS)("a base URL on port %i, which fetch refuses to use", async (port) => {
    expectUnavailableAndAlive(await geocodeInChild(`http://127.0.0.1:${port}`));
  });

  it("a base URL whose scheme fetch does not speak (ftp:)", async () => {
    expectUnavailableAndAlive(await geocodeInChild("ftp://127.0.0.1:2121"));
  });

  it.each<FakeBatchFailure>(["redirect-bad-port", "reset-mid-upload", "reset-mid-answer"])("an upstream that answers every request with %s", async (how) => {
    const upstream = await fake();
    upstream.failBatches(2, how);
    // 2,000 rows make an upload of about 80 kB: the reset lands while most of it is still unsent.
    expectUnavailableAndAlive(await geocodeInChild(upstream.url, 2000));
    expect(upstream.batchRequests.map((r) => r.answer)).toEqual([how, how]);
  });
});

const UPSTREAM_URLS = ["CENSUS_GEOCODER_URL", "TIGER_BASE_URL"] as const;
const SOURCES = ["RECONCILE_SOURCE", "BOUNDARY_SOURCE"] as const;

describe("an upstream URL fetch would never request is refused at start-up, naming the variable", () => {
  it.each([...UPSTREAM_URLS, ...SOURCES])("%s: not http(s), or on a bad port", (name) => {
    expect(() => loadConfig({ [name]: "ftp://files.example.gov/oh" })).toThrow(`invalid configuration: ${name}: is a ftp: URL: fetch speaks only http:// and https://`);
    expect(() => loadConfig({ [name]: "file:///srv/oh.csv" })).toThrow(`${name}: is a file: URL`);
    for (const port of BAD_PORTS) {
      expect(() => loadConfig({ [name]: `https://files.example.gov:${port}/oh` })).toThrow(`invalid configuration: ${name}: uses port ${port}, which fetch refuses to connect to`);
    }
    expect(loadConfig({ [name]: "https://files.example.gov:8443/oh" })).toBeTruthy();
  });

  it.each(UPSTREAM_URLS)("%s: something that is not a URL", (name) => {
    expect(() => loadConfig({ [name]: "geocoding.geo.census.gov" })).toThrow(`${name}: is not a URL`);
  });

  it.each(SOURCES)("%s: a path is still a path", (name) => {
    expect(loadConfig({ [name]: "/srv/sst/OHR2026Q3.zip" })).toBeTruthy();
    expect(loadConfig({ [name]: "var/sst" })).toBeTruthy();
  });

  it("refuses exactly the ports fetch refuses: each one on the list fails a real fetch with \"bad port\"", async () => {
    for (const port of FETCH_BAD_PORTS) {
      const failure = await fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
      expect((failure as Error).cause, `port ${port}`).toMatchObject({ message: "bad port" });
      expect(() => loadConfig({ CENSUS_GEOCODER_URL: `http://127.0.0.1:${port}` })).toThrow(`uses port ${port}`);
    }
  });

  it("`buckeye serve` exits non-zero with the message before it listens", { timeout: 60_000 }, async () => {
    const failure = await startServe({ env: { CENSUS_GEOCODER_URL: "http://127.0.0.1:6000", DATABASE_URL: "sqlite::memory:", LOG_LEVEL: "silent" } }).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(/^serve exited with [1-9]\d* before listening: .*invalid configuration: CENSUS_GEOCODER_URL: uses port 6000, which fetch refuses to connect to/s);
  });
});

/** Faults on a fast retry-free footing: one attempt per request, and a hang counts as failed after a second. */
const FAULT_ENV = { GEOCODER_BATCH_RETRIES: "0", GEOCODER_BATCH_TIMEOUT_MS: "1000", BATCH_POLL_MS: "20", BATCH_CHUNK_ROWS: "2" };

const bowlingGreen = FAKE_ADDRESSES.bowlingGreen;
const statehouse = FAKE_ADDRESSES.statehouse;
/**
 * Two street addresses for the geocoder (the test service has no boundary file to settle them): one with
 * a ZIP, which falls back to it when the geocoder cannot answer, one without, which cannot; and a county
 * row that never needs the geocoder.
 */
const JOB = [
  "id,address,county",
  `with-zip,"${bowlingGreen.street}, ${bowlingGreen.city}, OH ${bowlingGreen.zip}",`,
  `without-zip,"${statehouse.street}, ${statehouse.city}, OH",`,
  "county-only,,Franklin",
].join("\n");

async function request(api: TestService, path: string, init: { method?: string; body?: string; contentType?: string; accept?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${api.liveKey}` };
  if (init.contentType) headers["content-type"] = init.contentType;
  if (init.accept) headers.accept = init.accept;
  return api.service.app.fetch(new Request(`http://buckeye.test${path}`, { method: init.method ?? "GET", headers, ...(init.body !== undefined && { body: init.body }) }));
}

/** Submits JOB, waits for `completed` (a wait, not a timed assertion) and reads its NDJSON results by id. */
async function runJob(api: TestService): Promise<{ job: Record<string, any>; rows: Record<string, { status: number; body: Record<string, any> }> }> {
  const submitted = await request(api, "/api/v1/batches", { method: "POST", body: JOB, contentType: "text/csv" });
  expect(submitted.status).toBe(202);
  const location = submitted.headers.get("location")!;
  let job: Record<string, any>;
  for (;;) {
    job = (await (await request(api, location)).json()) as Record<string, any>;
    if (job.status === "completed") break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const results = await (await request(api, `${location}/results`, { accept: "application/x-ndjson" })).text();
  const lines = results.trim().split("\n").map((line) => JSON.parse(line) as { id: string; status: number; body: Record<string, any> });
  return { job, rows: Object.fromEntries(lines.map((line) => [line.id, line])) };
}

async function expectStillAnswering(api: TestService): Promise<void> {
  const res = await request(api, "/api/v1/rates?county=franklin");
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ county: "Franklin" });
}

/** What the documentation promises when the geocoder cannot answer: the ZIP with a note giving the reason, else geocoder-unavailable. */
function expectFallbacks(rows: Record<string, { status: number; body: Record<string, any> }>, reason: RegExp): void {
  expect(rows["with-zip"]).toMatchObject({ status: 200, body: { county: "Wood", resolved_by: "zip_fallback" } });
  expect(rows["with-zip"]!.body.note).toMatch(/^The address could not be geocoded \(/);
  expect(rows["with-zip"]!.body.note).toMatch(reason);
  expect(rows["with-zip"]!.body.note).toContain(`so ZIP ${bowlingGreen.zip} was used instead`);
  expect(rows["without-zip"]).toMatchObject({ status: 503, body: { type: expect.stringMatching(/\/geocoder-unavailable$/), status: 503 } });
  expect(rows["without-zip"]!.body.detail).toMatch(reason);
  expect(rows["county-only"]).toMatchObject({ status: 200, body: { county: "Franklin", resolved_by: "county_param" } });
}

const FAULTS: Array<[FakeBatchFailure, RegExp]> = [
  ["reset-mid-upload", /the geocoder could not be reached/],
  ["reset-mid-answer", /the geocoder could not be reached/],
  ["redirect-bad-port", /the geocoder could not be reached/],
  ["hang", /a batch request of 2 rows got no answer within 1000 ms/],
  ["http-500", /the geocoder answered a batch request with HTTP 500/],
  ["truncated", /the geocoder's batch answer is malformed/],
  ["garbage", /the geocoder's batch answer is malformed: the answer is not CSV/],
  ["malformed", /the geocoder's batch answer is malformed: row 1: id "<html>/],
  ["extra-row", /the geocoder's batch answer is malformed: row 3: id "1002" was not sent/],
  ["missing-row", /the geocoder's batch answer is malformed: 1 of the 2 rows sent are not answered/],
];

describe("a batch job completes whatever the upstream does: its address rows fall back as documented and the service keeps answering", { timeout: 60_000 }, () => {
  let api: GeocodedTestService;
  let refused: TestService;
  beforeAll(async () => {
    api = await startTestServiceWithFakeGeocoder(FAULT_ENV);
    // The test configuration's geocoder URL is a port nothing listens on.
    refused = await startTestService(FAULT_ENV);
  });
  afterAll(async () => {
    await api?.close();
    await refused?.close();
  });

  it("with the upstream answering, the same rows are geocoded (the faults below are what changes them)", async () => {
    const { job, rows } = await runJob(api);
    expect(job).toMatchObject({ total: 3, done: 3, failed: 0 });
    expect(rows["with-zip"]).toMatchObject({ status: 200, body: { county: "Wood", resolved_by: "address_geocoding" } });
    expect(rows["without-zip"]).toMatchObject({ status: 200, body: { county: "Franklin", resolved_by: "address_geocoding" } });
  });

  it("a refused connection", async () => {
    const { job, rows } = await runJob(refused);
    expect(job).toMatchObject({ status: "completed", total: 3, done: 3, failed: 1 });
    expectFallbacks(rows, /the geocoder could not be reached \(ECONNREFUSED\)/);
    await expectStillAnswering(refused);
  });

  it.each(FAULTS)("an upstream that answers with %s", async (how, reason) => {
    const sent = api.fake.batchRequests.length;
    api.fake.failBatches(1, how);
    const { job, rows } = await runJob(api);
    expect(job).toMatchObject({ status: "completed", total: 3, done: 3, failed: 1 });
    expect(api.fake.batchRequests.slice(sent).map((r) => r.answer)).toEqual([how]);
    expectFallbacks(rows, reason);
    await expectStillAnswering(api);
  });
});

describe("an inline POST /api/v1/rates/batch of one address answers 200 with the fallback or the problem, and `buckeye serve` stays up", { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-faults-"));
  const database = freshDatabase(dir);
  let upstream: FakeCensusGeocoder;
  let server: ServeProcess;
  let key: string;
  beforeAll(async () => {
    const store = openStore(database.url);
    await migrateToLatest(store.db);
    const org = await createOrganization(store.db, "Faults Co");
    key = (await createKey(store.db, org.id, "faults live", "live")).key;
    await store.close();
    upstream = await startFakeCensusGeocoder();
    server = await startServe({ env: { DATABASE_URL: database.url, CENSUS_GEOCODER_URL: upstream.url, WORKER_THREADS: "1", LOG_LEVEL: "warn", ...FAULT_ENV } });
  });
  afterAll(async () => {
    server?.child.kill("SIGKILL");
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  async function post(address: string): Promise<{ status: number; result: { status: number; body: Record<string, any> } }> {
    const res = await fetch(`${server.url}/api/v1/rates/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ lookups: [{ id: "one", address }] }),
    });
    const body = (await res.json()) as { results: Array<{ status: number; body: Record<string, any> }> };
    return { status: res.status, result: body.results[0]! };
  }

  it.each<FakeBatchFailure>(["redirect-bad-port", "reset-mid-upload", "reset-mid-answer"])("an upstream that answers with %s", async (how) => {
    upstream.failBatches(2, how);
    const withZip = await post(`${bowlingGreen.street}, ${bowlingGreen.city}, OH ${bowlingGreen.zip}`);
    expect(withZip).toMatchObject({ status: 200, result: { status: 200, body: { county: "Wood", resolved_by: "zip_fallback", note: expect.stringMatching(/could not be reached/) } } });
    const withoutZip = await post(`${statehouse.street}, ${statehouse.city}, OH`);
    expect(withoutZip).toMatchObject({ status: 200, result: { status: 503, body: { type: expect.stringMatching(/\/geocoder-unavailable$/) } } });
    // Whatever a failed upload left behind has had its turn by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.child.exitCode).toBeNull();
    const county = await fetch(`${server.url}/api/v1/rates?county=franklin`, { headers: { authorization: `Bearer ${key}` } });
    expect(county.status).toBe(200);
    expect(upstream.batchRequests.slice(-2).map((r) => r.answer)).toEqual([how, how]);
  });
});
