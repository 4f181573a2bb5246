/**
 * No upstream behaviour ends the process (docs/guides/address-resolution.md, "Upstream faults"). Each
 * fault is a real socket: a FAKE UPSTREAM (test/fake-census-geocoder.ts) that fails on purpose, a port
 * nothing listens on, or a URL fetch refuses to use. A crash escapes every promise, so the body-stream
 * rule is checked in a child process, whose exit code and stderr say whether it survived.
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeCensusGeocoder, type FakeBatchFailure, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { FETCH_BAD_PORTS, loadConfig } from "../src/config.ts";
import { ROOT, startServe } from "./_serve-process.ts";

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
