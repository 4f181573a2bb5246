/**
 * Data freshness: Lake County's components after the Laketran correction, checked
 * against the raw sources; `buckeye data status`; /readyz `stale`; and `beyond_confirmed` on an
 * answer for a date after the rates are confirmed through. Reconciliations read the SST fixtures
 * in test/fixtures/sst/, built from our own shipped figures (OHR2027Q1NOV30 adds a made-up change).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDistrictCodes } from "../src/scheduled/background.ts";
import { reconcile } from "../src/scheduled/reconcile.ts";
import { dateInOhio, daysBetween } from "../src/rates/calendar.ts";
import { call, rate } from "./_api.ts";
import { freshDatabase, RATE_SOURCES, startTestService, type TestService } from "./_setup.ts";
import { polygonFiles } from "./_polygons.ts";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../bin/buckeye.js", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`fixtures/sst/${name}`, import.meta.url));
/** The 2027 Q1 file: the rates in force through 2027-03-31, with Wayne's (made-up) change on 2027-01-01. */
const Q1_2027 = fixture("OHR2027Q1NOV30.csv");
const meta = JSON.parse(readFileSync(new URL("../data/meta.json", import.meta.url), "utf8")) as { last_reconciled: string; verified_through: string; rate_file: string };
const scratch = mkdtempSync(join(tmpdir(), "buckeye-freshness-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DISTRICT_CODES = readDistrictCodes(fileURLToPath(new URL("../data", import.meta.url)));

function reconcileWith(api: TestService, source: string, at: Date) {
  return reconcile({ db: api.service.store.db, rateData: api.service.rates, districtCodes: DISTRICT_CODES, source }, at);
}

describe("Lake County's components follow the sources: county 1.00% throughout, Laketran 0.50%, paused to 0.25% from 2024-07-01, 0.50% again from 2025-07-01", () => {
  const csv = (name: string): Array<Record<string, string>> => parse(readFileSync(new URL(`ohio/${name}`, RATE_SOURCES)), { columns: true });
  const history = csv("rate-history.csv").filter((row) => row.fips === "39085").sort((a, b) => a.effective_date!.localeCompare(b.effective_date!));
  const current = csv("county-rates.csv").find((row) => row.fips === "39085")!;

  /**
   * A figure on `date`, read from the sources: the latest change on or before it gives its new
   * figure; else the first change after it gives its old one; else the current table's.
   */
  function fromSources(rows: Array<Record<string, string>>, date: string, oldField: string, newField: string, currentFigure: string): number {
    const before = rows.filter((row) => row.effective_date! <= date).at(-1);
    const after = rows.find((row) => row.effective_date! > date);
    return Number(before ? before[newField] : after ? after[oldField] : currentFigure);
  }

  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("the sources hold the Laketran pause as two transit changes and no county change", () => {
    expect(history.map((row) => [row.component, row.effective_date, row.old_rate, row.new_rate])).toEqual([
      ["transit (Laketran)", "2024-07-01", "0.0050", "0.0025"],
      ["transit (Laketran)", "2025-07-01", "0.0025", "0.0050"],
    ]);
    expect(current).toMatchObject({ county_permissive: "0.0100", transit_rate: "0.0050", combined_rate: "0.0725" });
  });

  it.each([
    ["2024-01-15", 0.01, 0.005, 0.0725],
    ["2024-10-01", 0.01, 0.0025, 0.07],
    ["2025-08-01", 0.01, 0.005, 0.0725],
  ])("on %s: county %s, Laketran %s, combined %s, as the sources give them", async (date, county, laketran, combined) => {
    const transitRows = history.filter((row) => row.component!.startsWith("transit"));
    const countyRows = history.filter((row) => row.component!.startsWith("county"));
    const sources = {
      county: fromSources(countyRows, date, "old_rate", "new_rate", current.county_permissive!),
      transit: fromSources(transitRows, date, "old_rate", "new_rate", current.transit_rate!),
      combined: fromSources(history, date, "old_combined", "new_combined", current.combined_rate!),
    };
    expect(sources).toEqual({ county, transit: laketran, combined });

    const body = await rate(api, `county=lake&date=${date}`);
    expect(body).toMatchObject({
      county: "Lake",
      fips: "39085",
      date_evaluated: date,
      combined_rate: sources.combined,
      components: { state: 0.0575, county_permissive: sources.county, transit_authority: sources.transit },
    });
  });
});

describe("buckeye data status [--json]: rates confirmed through, last successful reconciliation and its file, boundary vintages, each with its age", () => {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-status-"));
  const database = freshDatabase(dir, "status");
  const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "silent" };
  const buckeye = async (...args: string[]) => (await run(process.execPath, [BIN, ...args], { env })).stdout;
  const status = async () => JSON.parse(await buckeye("data", "status", "--json"));
  /** The polygons the CLI loads, found as it finds them: their vintages are whatever GEO_DATA_DIR holds. */
  const { counties, places } = polygonFiles();
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  it("on a fresh database: the shipped data's dates and file (data/meta.json), no run, the loaded polygons' TIGER/Line vintages, 2020 ZCTAs, no boundary file", async () => {
    const before = dateInOhio(new Date());
    const body = await status();
    expect([before, dateInOhio(new Date())]).toContain(body.today);
    expect(body.rates).toEqual({
      confirmed_through: { date: meta.verified_through, age_days: daysBetween(meta.verified_through, body.today), source: "shipped", reconciliation_id: null, file: meta.rate_file },
      last_reconciled: { date: meta.last_reconciled, age_days: daysBetween(meta.last_reconciled, body.today), source: "shipped", reconciliation_id: null, file: meta.rate_file },
      stale: daysBetween(meta.last_reconciled, body.today) > 100,
      stale_after_days: 100,
      last_run: null,
    });
    expect(body.boundaries).toMatchObject({
      counties: { vintage: counties.vintage, as_of: `${counties.vintage}-01-01`, age_days: daysBetween(`${counties.vintage}-01-01`, body.today), file: counties.path },
      places: { vintage: places.vintage, as_of: `${places.vintage}-01-01`, age_days: daysBetween(`${places.vintage}-01-01`, body.today), file: places.path },
      polygons_unavailable: null,
      zctas: { vintage: 2020, as_of: "2020-01-01", age_days: daysBetween("2020-01-01", body.today) },
      boundary_file: null,
    });
  });

  it("after a reconciliation with the 2027 Q1 file: last reconciled that day, against that file; confirmed through the quarter's end, 2027-03-31", async () => {
    const reconciled = JSON.parse(await buckeye("reconcile", "--source", Q1_2027, "--at", "2026-12-01T10:30:00Z", "--json"));
    expect(reconciled.result).toMatchObject({ status: "succeeded", file: "OHR2027Q1NOV30.csv" });
    const id = reconciled.result.id as string;
    const body = await status();
    expect(body.rates).toMatchObject({
      confirmed_through: { date: "2027-03-31", age_days: daysBetween("2027-03-31", body.today), source: "reconciliation", reconciliation_id: id, file: "OHR2027Q1NOV30.csv" },
      last_reconciled: { date: "2026-12-01", age_days: daysBetween("2026-12-01", body.today), source: "reconciliation", reconciliation_id: id, file: "OHR2027Q1NOV30.csv" },
      last_run: { id, status: "succeeded", date: "2026-12-01", file: "OHR2027Q1NOV30.csv", error: null },
    });
  });

  it("a failed run after it shows as the last run, while the last successful reconciliation stands", async () => {
    const failed = JSON.parse(await buckeye("reconcile", "--source", fixture("OHR2027Q1NOV30-truncated.csv"), "--at", "2026-12-02T10:30:00Z", "--json").catch((error) => error.stdout));
    expect(failed.result).toMatchObject({ status: "failed" });
    const body = await status();
    expect(body.rates.last_reconciled).toMatchObject({ date: "2026-12-01", file: "OHR2027Q1NOV30.csv" });
    expect(body.rates.last_run).toMatchObject({ status: "failed", date: "2026-12-02", file: "OHR2027Q1NOV30-truncated.csv", error: expect.stringMatching(/cut short/) });
  });

  it("prints the same as text without --json", async () => {
    const text = await buckeye("data", "status");
    expect(text).toMatch(/confirmed through\s+2027-03-31 .*OHR2027Q1NOV30\.csv, reconciliation rec_/);
    expect(text).toMatch(/last reconciled\s+2026-12-01 /);
    expect(text).toMatch(/last run\s+2026-12-02 failed /);
    expect(text).toMatch(new RegExp(`counties\\s+${counties.vintage}\\s+as of ${counties.vintage}-01-01`));
    expect(text).toMatch(/boundary file\s+none loaded/);
  });
});

describe("GET /readyz stays 200 and reports stale, with a reason, when the last successful reconciliation is older than RECONCILE_STALE_AFTER_DAYS", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService({ WORKER_THREADS: "1" });
    await api.service.context.lookups.pool.warm();
  });
  afterAll(() => api.close());

  async function readyz(at: string) {
    api.clock.set(new Date(at));
    const res = await api.get("/readyz", {});
    return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string>; reasons: string[] } };
  }

  it("ready at 100 days (the default setting): the shipped reconciliation of 2026-08-18 on 2026-11-26", async () => {
    const { status, body } = await readyz("2026-11-26T17:00:00Z");
    expect(status).toBe(200);
    expect(body.status).toBe("ready");
    expect(body.checks.reconciliation).toBe(`ok (last ${meta.last_reconciled}, 100 days ago; confirmed through ${meta.verified_through})`);
    expect(body.reasons).toEqual([]);
  });

  it("stale at 101 days: still 200, the other checks unchanged, the reason names the date, its age and the setting", async () => {
    const { status, body } = await readyz("2026-11-27T17:00:00Z");
    expect(status).toBe(200);
    expect(body.status).toBe("stale");
    expect(Object.keys(body.checks).sort()).toEqual(["boundaries", "data", "database", "reconciliation"]);
    expect(body.checks).toMatchObject({ database: "ok", data: expect.stringMatching(/^ok /), boundaries: expect.stringMatching(/^ok /), reconciliation: "stale" });
    expect(body.reasons).toEqual([expect.stringMatching(new RegExp(`^rates-stale: the last successful reconciliation was on ${meta.last_reconciled}, 101 days ago, more than RECONCILE_STALE_AFTER_DAYS \\(100\\).*buckeye reconcile`))]);
  });

  it("a successful reconciliation makes it ready again", async () => {
    const result = await reconcileWith(api, fixture("OHR2026Q1NOV28.csv"), new Date("2026-11-27T10:30:00Z"));
    expect(result.status).toBe("succeeded");
    const { status, body } = await readyz("2026-11-27T17:00:00Z");
    expect(status).toBe(200);
    expect(body.status).toBe("ready");
    expect(body.checks.reconciliation).toMatch(/^ok \(last 2026-11-27, 0 days ago;/);
  });

  it("with RECONCILE_STALE_AFTER_DAYS=0, a reconciliation from any earlier day is stale", async () => {
    const strict = await startTestService({ WORKER_THREADS: "1", RECONCILE_STALE_AFTER_DAYS: "0" });
    try {
      await strict.service.context.lookups.pool.warm();
      const res = await strict.get("/readyz", {});
      const body = (await res.json()) as { status: string; reasons: string[] };
      expect(res.status).toBe(200);
      expect(body.status).toBe("stale");
      expect(body.reasons.join(" ")).toMatch(/RECONCILE_STALE_AFTER_DAYS \(0\)/);
    } finally {
      await strict.close();
    }
  });
});

describe("beyond_confirmed: an answer for a date after the rates are confirmed through says so; up to that date the field is absent", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService({ WORKER_THREADS: "1" });
  });
  afterAll(() => api.close());

  const dayAfter = "2026-10-01";
  it("the shipped rates are confirmed through data/meta.json's verified_through, the day before this test's later date", () => {
    expect(meta.verified_through).toBe("2026-09-30");
  });

  it("GET /api/v1/rates?county=: absent on the confirmed date, present the day after with the date, the distance and why", async () => {
    const onIt = await rate(api, `county=lake&date=${meta.verified_through}`);
    expect(onIt).not.toHaveProperty("beyond_confirmed");
    const after = await rate(api, `county=lake&date=${dayAfter}`);
    expect(after.beyond_confirmed).toEqual({
      confirmed_through: meta.verified_through,
      days_beyond: 1,
      message: expect.stringMatching(/confirmed against the state's rate file through 2026-09-30; 2026-10-01 is 1 day later/),
    });
    expect((await rate(api, "county=lake&date=2027-01-15")).beyond_confirmed).toMatchObject({ days_beyond: daysBetween(meta.verified_through, "2027-01-15") });
  });

  it("the field is declared in the OpenAPI document (optional) and an answer carrying it validates", async () => {
    const document = (await call(api, "GET", "/api/v1/openapi.json")).body;
    const record = document.components.schemas.RateRecord;
    expect(record.properties.beyond_confirmed).toBeDefined();
    expect(record.required).not.toContain("beyond_confirmed");
    expect(JSON.stringify(record.properties.beyond_confirmed)).toMatch(/Present only when date_evaluated is after the date the rates are confirmed through/);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "buckeye", components: document.components });
    const validate = ajv.compile({ $ref: "buckeye#/components/schemas/RateRecord" });
    const answer = await rate(api, `county=lake&date=${dayAfter}`);
    expect(validate(answer) ? [] : validate.errors).toEqual([]);
  });

  it("the ambiguous answer and the counties list carry it at their top level; each candidate does not", async () => {
    const ambiguous = await rate(api, `zip=43068&date=${dayAfter}`);
    expect(ambiguous).toMatchObject({ ambiguous: true, beyond_confirmed: { confirmed_through: meta.verified_through, days_beyond: 1 } });
    for (const candidate of ambiguous.candidate_counties) expect(candidate).not.toHaveProperty("beyond_confirmed");
    expect(await rate(api, `zip=43068&date=${meta.verified_through}`)).not.toHaveProperty("beyond_confirmed");
    expect((await call(api, "GET", `/api/v1/counties?search=lake&date=${dayAfter}`)).body).toMatchObject({ beyond_confirmed: { days_beyond: 1 } });
    expect((await call(api, "GET", `/api/v1/counties?search=lake&date=${meta.verified_through}`)).body).not.toHaveProperty("beyond_confirmed");
  });

  it("inline batch items and coordinate lookups (answered on the worker threads) carry it too", async () => {
    const batch = (await call(api, "POST", "/api/v1/rates/batch", { body: { lookups: [{ id: "on", county: "lake", date: meta.verified_through }, { id: "after", county: "lake", date: dayAfter }] } })).body;
    expect(batch.results[0].body).not.toHaveProperty("beyond_confirmed");
    expect(batch.results[1].body.beyond_confirmed).toMatchObject({ confirmed_through: meta.verified_through, days_beyond: 1 });
    const painesville = await rate(api, `lat=41.7245&lon=-81.2457&date=${dayAfter}`);
    expect(painesville).toMatchObject({ county: "Lake", resolved_by: "coordinates", beyond_confirmed: { days_beyond: 1 } });
  });

  it("without a date, today in America/New_York decides: 23:30 on Sep 30 in Ohio (03:30 UTC Oct 1) is confirmed, 00:30 on Oct 1 is not", async () => {
    try {
      api.clock.set(new Date("2026-10-01T03:30:00Z"));
      const lateSeptember = await rate(api, "county=lake");
      expect(lateSeptember.date_evaluated).toBe(meta.verified_through);
      expect(lateSeptember).not.toHaveProperty("beyond_confirmed");
      api.clock.set(new Date("2026-10-01T04:30:00Z"));
      const october = await rate(api, "county=lake");
      expect(october.date_evaluated).toBe(dayAfter);
      expect(october.beyond_confirmed).toMatchObject({ days_beyond: 1 });
    } finally {
      api.clock.set(null);
    }
  });

  it("a reconciliation with the 2027 Q1 file confirms through 2027-03-31: the same request, answered before from the body cache, no longer carries the field", async () => {
    const query = "county=lake&date=2027-01-15";
    expect(await rate(api, query)).toHaveProperty("beyond_confirmed");
    expect(await rate(api, query)).toHaveProperty("beyond_confirmed");
    expect((await reconcileWith(api, Q1_2027, new Date("2026-12-01T10:30:00Z"))).status).toBe("succeeded");
    const after = await rate(api, query);
    expect(after).not.toHaveProperty("beyond_confirmed");
    expect(after.last_reconciled).toBe("2026-12-01");
    expect((await rate(api, "county=lake&date=2027-04-01")).beyond_confirmed).toMatchObject({ confirmed_through: "2027-03-31", days_beyond: 1 });
  });

  it("a later run that found a figure differing from ours confirms nothing beyond the shipped date", async () => {
    const lines = readFileSync(Q1_2027, "utf8").trimEnd().split("\r\n");
    const differing = join(scratch, "OHR2027Q1DEC01.csv");
    // Franklin's county levy at 1.50% instead of our 1.25%: logged as a discrepancy, not applied.
    writeFileSync(differing, `${lines.map((line) => (line.startsWith("39,00,049,") && line.endsWith("99991231") ? line.replaceAll(".012500", ".015000") : line)).join("\r\n")}\r\n`);
    const result = await reconcileWith(api, differing, new Date("2026-12-02T10:30:00Z"));
    expect(result.discrepancies).toEqual([expect.objectContaining({ fips: "39049", component: "county", reason: "rate differs" })]);
    expect((await rate(api, "county=lake&date=2027-01-15")).beyond_confirmed).toMatchObject({ confirmed_through: meta.verified_through });
  });
});
