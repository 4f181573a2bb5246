/**
 * Where the rate file comes from and what it may change (docs/guides/data.md, "Reconciliation"): a
 * plain http:// source needs its SHA-256, a change the state did not announce is held until an
 * operator confirms it, and the download is read on a thread of its own under RECONCILE_MAX_BYTES.
 * The http server here is a FAKE UPSTREAM standing in for the state's site: it serves edited copies
 * of the fixtures in test/fixtures/sst/ (built from our own shipped figures), never a state's file.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { readDistrictCodes } from "../src/scheduled/background.ts";
import { reconcile, type ReconcileDeps } from "../src/scheduled/reconcile.ts";
import { rate } from "./_api.ts";
import { startTestService, type TestService } from "./_setup.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FUTURE_CHANGE = fileURLToPath(new URL("fixtures/sst/OHR2027Q1NOV30.csv", import.meta.url));
const DISTRICT_CODES = readDistrictCodes(join(ROOT, "data"));
const AT = new Date("2026-12-01T10:30:00Z");
const scratch = mkdtempSync(join(tmpdir(), "buckeye-rate-source-"));

const genuine = readFileSync(FUTURE_CHANGE, "utf8");
const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The fixture with Franklin's county levy (1.25 %) cut to 0.25 % from `from` (YYYYMMDD). */
function franklinCut(from: string): string {
  const lastDay = new Date(Date.UTC(Number(from.slice(0, 4)), Number(from.slice(4, 6)) - 1, Number(from.slice(6, 8)) - 1)).toISOString().slice(0, 10).replaceAll("-", "");
  return genuine.replace("39,00,049,.012500,.012500,.012500,.012500,20040101,99991231", `39,00,049,.012500,.012500,.012500,.012500,20040101,${lastDay}\r\n39,00,049,.002500,.002500,.002500,.002500,${from},99991231`);
}

/** A FAKE UPSTREAM: serves `files` by path over plain http, counting the requests it gets. */
interface FakeUpstream {
  url: (name: string) => string;
  files: Map<string, string | Buffer>;
  requests: number;
  close(): Promise<void>;
}

async function fakeUpstream(): Promise<FakeUpstream> {
  const files = new Map<string, string | Buffer>();
  const fake = { files, requests: 0 } as FakeUpstream;
  const server: Server = createServer((req, res) => {
    fake.requests++;
    const body = files.get(decodeURIComponent(req.url!.slice(1)));
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/csv" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = (name) => `http://127.0.0.1:${port}/${name}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await fakeUpstream();
});
afterAll(async () => {
  await upstream?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function reconcileWith(api: TestService, deps: Partial<ReconcileDeps> & { source: string }, at: Date = AT) {
  return reconcile({ db: api.service.store.db, rateData: api.service.rates, districtCodes: DISTRICT_CODES, ...deps }, at);
}

async function franklinOn(api: TestService, date: string): Promise<number> {
  return (await rate(api, `county=franklin&date=${date}`)).combined_rate;
}

async function recordedPeriods(api: TestService) {
  return api.service.store.db.selectFrom("recorded_rate_periods").selectAll().execute();
}

describe("a rate file over plain http needs its SHA-256, as the boundary file does", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("RECONCILE_SOURCE as a plain http:// URL without RECONCILE_SHA256 is refused at start-up; https, or http with a checksum, is not", () => {
    expect(() => loadConfig({ RECONCILE_SOURCE: "http://files.example.gov/OHR2027Q1NOV30.csv" })).toThrow("RECONCILE_SOURCE: is a plain http:// URL: use https://, or set RECONCILE_SHA256");
    expect(loadConfig({ RECONCILE_SOURCE: "http://files.example.gov/OHR2027Q1NOV30.csv", RECONCILE_SHA256: "A".repeat(64) }).jobs.reconcileSha256).toBe("a".repeat(64));
    expect(loadConfig({ RECONCILE_SOURCE: "https://files.example.gov/OHR2027Q1NOV30.csv" }).jobs.reconcileSha256).toBeNull();
  });

  it("Franklin's levy cut over plain http without a checksum is not fetched, changes nothing, and Franklin stays 8.00 %", async () => {
    upstream.files.set("OHR2027Q1NOV30.csv", franklinCut("20270101"));
    const requests = upstream.requests;
    const result = await reconcileWith(api, { source: upstream.url("OHR2027Q1NOV30.csv") });
    expect(result).toMatchObject({ status: "failed", periodsRecorded: 0, error: expect.stringMatching(/plain http:\/\/ needs its SHA-256/) });
    expect(upstream.requests).toBe(requests);
    expect(await recordedPeriods(api)).toEqual([]);
    expect(await franklinOn(api, "2027-01-01")).toBe(0.08);
  });

  it("with the genuine file's SHA-256, the rewritten file is refused; the genuine one is recorded", async () => {
    const result = await reconcileWith(api, { source: upstream.url("OHR2027Q1NOV30.csv"), sha256: sha256(genuine) });
    expect(result).toMatchObject({ status: "failed", periodsRecorded: 0, error: expect.stringContaining(`SHA-256 is ${sha256(franklinCut("20270101"))}, not the expected ${sha256(genuine)}`) });
    expect(await recordedPeriods(api)).toEqual([]);
    expect(await franklinOn(api, "2027-01-01")).toBe(0.08);

    upstream.files.set("OHR2027Q1NOV30.csv", genuine);
    expect(await reconcileWith(api, { source: upstream.url("OHR2027Q1NOV30.csv"), sha256: sha256(genuine) }, new Date(AT.getTime() + 60_000))).toMatchObject({ status: "succeeded", periodsRecorded: 1 });
  });
});

describe("a county rate change the state did not announce is held until an operator confirms it (--force)", () => {
  let api: TestService;
  const cut = franklinCut("20270115");
  beforeAll(async () => {
    upstream.files.set("OHR2027Q1NOV29.csv", cut);
    api = await startTestService({ RECONCILE_SOURCE: upstream.url("OHR2027Q1NOV29.csv"), RECONCILE_SHA256: sha256(cut) });
  });
  afterAll(() => api.close());

  it("a cut from 2027-01-15, not a quarter's first day: the scheduled job holds it, lists it, and Franklin stays 8.00 %", async () => {
    const result = await api.service.background.scheduler.run("reconcile", AT);
    expect(result).toMatchObject({
      status: "failed",
      periodsRecorded: 0,
      eventsEmitted: 0,
      error: expect.stringMatching(/^1 rate change the state did not announce \(Franklin county 0\.0025 from 2027-01-15\) held: nothing was recorded/),
      discrepancies: [{ fips: "39049", county: "Franklin", component: "county", code: "049", date: "2027-01-15", file_rate: "0.0025", our_rate: "0.0125", reason: expect.stringContaining("not the first day of a calendar quarter") }],
    });
    expect(await recordedPeriods(api)).toEqual([]);
    expect(await api.service.store.db.selectFrom("events").selectAll().execute()).toEqual([]);
    expect(await franklinOn(api, "2027-02-01")).toBe(0.08);
  });

  it("confirmed by an operator with --force, it is recorded and answered", async () => {
    const result = await reconcileWith(api, { source: upstream.url("OHR2027Q1NOV29.csv"), sha256: sha256(cut), force: true }, new Date(AT.getTime() + 60_000));
    expect(result).toMatchObject({ status: "succeeded" });
    expect(await franklinOn(api, "2027-02-01")).toBe(0.07);
  });
});

describe("a change to a quarter a reconciled file already settled is held; a later quarter's change is not", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("after the 2027 Q1 file, a re-posted Q1 file cutting Franklin from 2027-01-01 is held; a cut from 2027-04-01 is recorded", async () => {
    expect(await reconcileWith(api, { source: FUTURE_CHANGE })).toMatchObject({ status: "succeeded", periodsRecorded: 1 });
    upstream.files.set("OHR2027Q1DEC15.csv", franklinCut("20270101"));
    const held = await reconcileWith(api, { source: upstream.url("OHR2027Q1DEC15.csv"), sha256: sha256(franklinCut("20270101")) }, new Date("2026-12-16T10:30:00Z"));
    expect(held).toMatchObject({ status: "failed", discrepancies: [{ county: "Franklin", date: "2027-01-01", reason: expect.stringContaining("already set the rates through 2027-03-31") }] });
    expect(await franklinOn(api, "2027-01-01")).toBe(0.08);

    upstream.files.set("OHR2027Q2FEB27.csv", franklinCut("20270401"));
    const later = await reconcileWith(api, { source: upstream.url("OHR2027Q2FEB27.csv"), sha256: sha256(franklinCut("20270401")) }, new Date("2027-02-27T10:30:00Z"));
    expect(later).toMatchObject({ status: "succeeded", periodsRecorded: 1 });
    expect(await franklinOn(api, "2027-04-01")).toBe(0.07);
  });
});

describe("a rate-file ZIP bomb is refused as it inflates, on a thread of its own: memory stays bounded and lookups wait for nothing", () => {
  let api: TestService;
  let bomb: string;
  beforeAll(async () => {
    api = await startTestService();
    // 450 MB of "0" deflated to about 460 kB, written by a child process so this one's memory stays as it was.
    bomb = join(scratch, "OHR2027Q1NOV30.zip");
    execFileSync(
      process.execPath,
      [
        "-e",
        `const { Zip, ZipDeflate } = require("fflate"); const fs = require("fs"); const out = fs.openSync(${JSON.stringify(bomb)}, "w");
         const zip = new Zip((error, data, final) => { if (error) throw error; fs.writeSync(out, data); if (final) fs.closeSync(out); });
         const entry = new ZipDeflate("OHR2027Q1NOV30.csv", { level: 9 }); zip.add(entry);
         const chunk = Buffer.alloc(1 << 20, 0x30); for (let i = 0; i < 450; i++) entry.push(chunk); entry.push(new Uint8Array(0), true); zip.end();`,
      ],
      { cwd: ROOT },
    );
    upstream.files.set("OHR2027Q1NOV30.zip", readFileSync(bomb));
  }, 120_000);
  afterAll(() => api.close());

  it("refused naming RECONCILE_MAX_BYTES; resident memory grows by far less than the 450 MB inside; a lookup meanwhile answers promptly", async () => {
    expect(statSync(bomb).size).toBeLessThan(1_000_000);
    await franklinOn(api, "2026-12-01");
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let reconciling = true;
    const running = reconcileWith(api, { source: upstream.url("OHR2027Q1NOV30.zip"), sha256: sha256(readFileSync(bomb)) }).finally(() => (reconciling = false));
    const lookupMs: number[] = [];
    while (reconciling) {
      const started = performance.now();
      expect(await franklinOn(api, "2026-12-01")).toBe(0.08);
      lookupMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const result = await running;
    clearInterval(sampler);
    delay.disable();
    const grownMb = (rssPeak - rssBefore) / 2 ** 20;
    const slowestLookupMs = Math.max(...lookupMs);
    const maxLoopDelayMs = delay.max / 1e6;
    console.log(`rate-file ZIP bomb: RSS +${grownMb.toFixed(0)} MB at peak, ${lookupMs.length} lookups meanwhile, slowest ${slowestLookupMs.toFixed(0)} ms, event-loop delay max ${maxLoopDelayMs.toFixed(0)} ms`);
    expect(result).toMatchObject({ status: "failed", periodsRecorded: 0, error: expect.stringMatching(/runs past 4000000 bytes \(RECONCILE_MAX_BYTES\): refused before it was all read/) });
    expect(lookupMs.length).toBeGreaterThan(0);
    // The old read inflated the whole 450 MB on this thread: RSS +450 to +900 MB, and the event loop (and so
    // every lookup) held 15 to 20 s on the 2-core development machine. The loop's delay is the direct
    // measure; a lookup's time also carries whatever else shares the CPU, hence its wider bound.
    expect(grownMb).toBeLessThan(150);
    expect(maxLoopDelayMs).toBeLessThan(1000);
    expect(slowestLookupMs).toBeLessThan(3000);
    expect(await recordedPeriods(api)).toEqual([]);
  });
});
