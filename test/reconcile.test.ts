/**
 * Reconciliation against the state's SST rate file (docs/guides/webhooks-and-jobs.md, "Reconciliation"),
 * with the fixtures in test/fixtures/sst/ built from our own shipped figures.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDistrictCodes } from "../src/scheduled/background.ts";
import { createService } from "../src/service.ts";
import { reconcile } from "../src/scheduled/reconcile.ts";
import { parseSstRateFile } from "../src/scheduled/sst-rate-file.ts";
import { postingDate } from "../src/rates/sst-file-names.ts";
import { call, rate } from "./_api.ts";
import { startTestService, type TestService } from "./_setup.ts";

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/sst/${name}`, import.meta.url));
const UNCHANGED = fixture("OHR2026Q1NOV28.csv");
const FUTURE_CHANGE = fixture("OHR2027Q1NOV30.csv");
const AT = new Date("2026-12-01T10:30:00Z");
const scratch = mkdtempSync(join(tmpdir(), "buckeye-sst-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DISTRICT_CODES = readDistrictCodes(fileURLToPath(new URL("../data", import.meta.url)));

function reconcileWith(api: TestService, source: string, at: Date = AT) {
  return reconcile({ db: api.service.store.db, rateData: api.service.rates, districtCodes: DISTRICT_CODES, source }, at);
}

async function eventsOf(api: TestService, type: string) {
  return api.service.store.db.selectFrom("events").selectAll().where("type", "=", type).execute();
}

/** A copy of a fixture with `edit` applied to its lines. */
function edited(name: string, edit: (lines: string[]) => string[]): string {
  const path = join(scratch, name);
  const lines = readFileSync(FUTURE_CHANGE, "utf8").trimEnd().split("\r\n");
  writeFileSync(path, `${edit(lines).join("\r\n")}\r\n`);
  return path;
}

describe("SST rate file layout (no header; state, type, code, four rates, begin, end)", () => {
  it("reads the fixture: one state row (type 45), 88 county rows in force (type 00), transit rows (type 63)", () => {
    const parsed = parseSstRateFile(readFileSync(UNCHANGED, "utf8"));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rows.filter((r) => r.type === "state")).toEqual([{ line: 1, type: "state", code: "39", rate: 57_500, from: "2013-09-01", to: null }]);
    expect(new Set(parsed.rows.filter((r) => r.type === "county" && r.to === null).map((r) => r.code)).size).toBe(88);
    expect(parsed.rows.find((r) => r.type === "transit" && r.code === "25000" && r.to === null)).toMatchObject({ rate: 10_000, from: "2025-04-01" });
  });

  it.each([
    ["eight columns", "39,00,001,.015,.015,.015,.015,20040101\n", /8 columns/],
    ["another state", "40,00,001,.015,.015,.015,.015,20040101,99991231\n", /not Ohio/],
    ["a city row (Ohio has none)", "39,01,001,.015,.015,.015,.015,20040101,99991231\n", /type "01"/],
    ["a rate that is not a decimal", "39,00,001,1.5%,.015,.015,.015,20040101,99991231\n", /not a decimal/],
    ["a slipped decimal point", "39,00,001,.15,.15,.15,.15,20040101,99991231\n", /multiple of 0.05%/],
    ["a levy off the 0.05% grid", "39,00,001,.0123,.0123,.0123,.0123,20040101,99991231\n", /multiple of 0.05%/],
    ["an impossible date", "39,00,001,.015,.015,.015,.015,20250230,99991231\n", /begin date/],
    ["an end before its begin", "39,00,001,.015,.015,.015,.015,20250101,20241231\n", /ends before/],
    ["overlapping rows", "39,00,001,.015,.015,.015,.015,20040101,99991231\n39,00,001,.01,.01,.01,.01,20250101,99991231\n", /overlapping/],
    ["no rows", "\n", /no rows/],
    ["eleven columns", "39,00,001,.015,.015,.015,.015,20040101,99991231,,\n", /11 columns, expected 9/],
    ["a 10th column that is not empty", "39,00,001,.015,.015,.015,.015,20040101,99991231,X\n", /10 columns, expected 9/],
  ])("refuses %s", (_name, text, error) => {
    const parsed = parseSstRateFile(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  it("reads the posting date from the file name: OHR2026Q1NOV28 was posted 2025-11-28", () => {
    expect(postingDate("OHR2026Q1NOV28.csv")).toBe("2025-11-28");
    expect(postingDate("OHR2026Q3JUN01.csv")).toBe("2026-06-01");
    expect(postingDate("OHR2026Q4SEP17.zip")).toBe("2026-09-17");
    expect(postingDate("OHR2027Q1NOV30.csv")).toBe("2026-11-30");
    expect(postingDate("rates.csv")).toBeNull();
  });
});

describe("a rate file as a state publishes it is read as the standard form", () => {
  const text = readFileSync(UNCHANGED, "utf8");
  const standard = parseSstRateFile(text);
  const rows = text.trimEnd().split("\r\n");

  it.each([
    ["no line break after the last row (CRLF)", text.trimEnd()],
    ["LF line ends, a byte-order mark and no final line break", `\uFEFF${rows.join("\n")}`],
    ["a 10th column left empty on every row", `${rows.map((row) => `${row},`).join("\r\n")}\r\n`],
  ])("%s", (_name, variant) => {
    expect(standard.ok).toBe(true);
    expect(parseSstRateFile(variant)).toEqual(standard);
  });

  it.each(["29991231", "20991231"])("the open end %s reads as 99991231 does: no end", (end) => {
    expect(parseSstRateFile(text.replaceAll(",99991231", `,${end}`))).toEqual(standard);
  });
});

describe("a cut-short rate file is told by its last row, never by a missing line break alone", () => {
  const whole = "39,00,001,.015000,.015000,.015000,.015000,20040101,99991231";

  it.each([
    ["a last row with too few columns", `${whole}\r\n39,00,003,.0100`, /^line 2: 4 columns, expected 9.*the file was probably cut short$/],
    ["a last row with a partial date", `${whole}\r\n39,00,003,.010000,.010000,.010000,.010000,20040101,9999`, /^line 2: end date "9999".*the file was probably cut short$/],
  ])("%s is refused as cut short", (_name, text, error) => {
    const parsed = parseSstRateFile(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  it("a malformed row followed by a line break is refused for what it is, not as cut short", () => {
    const parsed = parseSstRateFile(`${whole}\r\n39,00,003,.0100\r\n`);
    expect(parsed).toEqual({ ok: false, error: "line 2: 4 columns, expected 9 (or 10 with the last one empty)" });
  });
});

describe("reconcile: a file with far fewer rows than the last file reconciled fails and changes nothing", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("after the 130-row file, one of 101 rows (under 90 %) fails naming the last file", async () => {
    expect(await reconcileWith(api, UNCHANGED)).toMatchObject({ status: "succeeded", rows: 130 });
    const later = new Date(AT.getTime() + 60_000);
    const result = await reconcileWith(api, fixture("OHR2027Q1NOV30-partial.csv"), later);
    expect(result).toMatchObject({ status: "failed", periodsRecorded: 0, eventsEmitted: 0, error: expect.stringMatching(/fewer than 90 % of the 130 in the last file reconciled \(OHR2026Q1NOV28\.csv, 2026-12-01\): the file was probably cut short/) });
    expect(await api.service.store.db.selectFrom("recorded_rate_periods").selectAll().execute()).toEqual([]);
    expect(await api.service.store.db.selectFrom("events").selectAll().execute()).toEqual([]);
  });
});

describe("reconcile: an unchanged file", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("changes nothing, emits no event, and updates last_reconciled", async () => {
    const before = await rate(api, "county=franklin&date=2026-12-01");
    expect(before.last_reconciled).toBe("2026-08-18");
    const result = await reconcileWith(api, UNCHANGED);
    expect(result).toMatchObject({ status: "succeeded", file: "OHR2026Q1NOV28.csv", rows: 130, periodsRecorded: 0, eventsEmitted: 0, discrepancies: [] });
    expect(await api.service.store.db.selectFrom("events").selectAll().execute()).toEqual([]);
    const after = await rate(api, "county=franklin&date=2026-12-01");
    expect(after.last_reconciled).toBe("2026-12-01");
    const { last_reconciled: _a, request_id: _b, ...same } = after;
    const { last_reconciled: _c, request_id: _d, ...was } = before;
    expect(same).toEqual(was);
  });

  it("GET /api/v1/reconciliations lists the run", async () => {
    const { res, body } = await call(api, "GET", "/api/v1/reconciliations");
    expect(res.status).toBe(200);
    expect(body.reconciliations[0]).toEqual({
      id: expect.stringMatching(/^rec_/),
      status: "succeeded",
      source: UNCHANGED,
      file_name: "OHR2026Q1NOV28.csv",
      reconciled_on: "2026-12-01",
      rows: 130,
      periods_recorded: 0,
      events_emitted: 0,
      discrepancies: [],
      error: null,
      started_at: "2026-12-01T10:30:00.000Z",
      finished_at: expect.any(String),
    });
  });
});

describe("reconcile: an enacted future change", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService({ RECONCILE_SOURCE: FUTURE_CHANGE });
  });
  afterAll(() => api.close());

  it("emits one rate.announced, and the rates endpoint shows it in upcoming with has_upcoming_change true", async () => {
    expect(await rate(api, "county=wayne&date=2026-12-01")).toMatchObject({ combined_rate: 0.065, has_upcoming_change: false, upcoming: null });

    const result = await api.service.background.scheduler.run("reconcile", AT);
    expect(result).toMatchObject({ status: "succeeded", periodsRecorded: 1, eventsEmitted: 1, discrepancies: [] });
    const announced = await eventsOf(api, "rate.announced");
    expect(announced).toHaveLength(1);
    expect(JSON.parse(announced[0]!.payload).data).toEqual({
      county: "Wayne",
      county_slug: "wayne",
      fips: "39169",
      old_rate: 0.065,
      new_rate: 0.07,
      effective_date: "2027-01-01",
      announced_date: "2026-11-30",
      lead_days: 32,
      days_until: 31,
    });

    expect(await rate(api, "county=wayne&date=2026-12-01")).toMatchObject({
      combined_rate: 0.065,
      has_upcoming_change: true,
      upcoming: { effective_date: "2027-01-01", combined_rate: 0.07, components: { state: 0.0575, county_permissive: 0.0125, transit_authority: 0 } },
      last_reconciled: "2026-12-01",
    });
    expect(await rate(api, "county=wayne&date=2027-01-01")).toMatchObject({ combined_rate: 0.07, effective_from: "2027-01-01", has_upcoming_change: false });
    const counties = (await call(api, "GET", "/api/v1/counties?search=wayne&date=2026-12-01")).body;
    expect(counties.counties[0]).toMatchObject({ county: "Wayne", has_upcoming_change: true });
  });

  it("coordinate and batch lookups, answered on the worker threads, show the reconciled change too", async () => {
    const wooster = (await call(api, "GET", "/api/v1/rates?lat=40.8051&lon=-81.9351&date=2026-12-01")).body;
    expect(wooster).toMatchObject({ county: "Wayne", resolved_by: "coordinates", has_upcoming_change: true, upcoming: { effective_date: "2027-01-01", combined_rate: 0.07 } });
    const batch = (await call(api, "POST", "/api/v1/rates/batch", { body: { lookups: [{ id: "w", county: "wayne", date: "2027-01-02" }] } })).body;
    expect(batch.results[0]).toMatchObject({ id: "w", status: 200, body: { combined_rate: 0.07, effective_from: "2027-01-01" } });
  });

  it("running the same file again records nothing new and emits nothing", async () => {
    const result = await api.service.background.scheduler.run("reconcile", new Date("2026-12-02T10:30:00Z"));
    expect(result).toMatchObject({ status: "succeeded", periodsRecorded: 0, eventsEmitted: 0 });
    expect(await eventsOf(api, "rate.announced")).toHaveLength(1);
  });

  it("the recorded period is in the database: a service started later answers with it", async () => {
    const later = await createService(api.config);
    try {
      const res = await later.app.fetch(new Request("http://buckeye.test/api/v1/rates?county=wayne&date=2026-12-01", { headers: { authorization: `Bearer ${api.liveKey}` } }));
      expect(await res.json()).toMatchObject({ has_upcoming_change: true, upcoming: { effective_date: "2027-01-01", combined_rate: 0.07 }, last_reconciled: "2026-12-02" });
    } finally {
      await later.close();
    }
  });

  it("a file that withdraws the change for a quarter already settled is held; confirmed with --force it takes it back out of upcoming", async () => {
    const held = await reconcileWith(api, UNCHANGED, new Date("2026-12-03T10:30:00Z"));
    expect(held).toMatchObject({
      status: "failed",
      periodsRecorded: 0,
      error: expect.stringMatching(/^1 rate change the state did not announce \(Wayne county 0\.0075 from 2027-01-01\) held: nothing was recorded/),
      discrepancies: [{ fips: "39169", county: "Wayne", component: "county", code: "169", date: "2027-01-01", file_rate: "0.0075", our_rate: "0.0125", reason: expect.stringContaining("already set the rates through 2027-03-31") }],
    });
    expect(await rate(api, "county=wayne&date=2026-12-03")).toMatchObject({ has_upcoming_change: true });
    const result = await reconcile({ db: api.service.store.db, rateData: api.service.rates, districtCodes: DISTRICT_CODES, source: UNCHANGED, force: true }, new Date("2026-12-03T10:31:00Z"));
    expect(result).toMatchObject({ status: "succeeded", periodsRecorded: 1 });
    expect(await rate(api, "county=wayne&date=2026-12-03")).toMatchObject({ has_upcoming_change: false, upcoming: null });
    expect(await rate(api, "county=wayne&date=2027-01-01")).toMatchObject({ combined_rate: 0.065 });
  });
});

describe("reconcile: a malformed or partial file changes nothing and is reported", () => {
  let api: TestService;
  let runs = 0;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it.each([
    ["OHR2027Q1NOV30-bad-rate.csv", /line 41: a rate column is not a decimal rate/],
    ["OHR2027Q1NOV30-truncated.csv", /cut short/],
    ["OHR2027Q1NOV30-partial.csv", /counties have no county rate .* the file is partial/],
  ])("%s", async (name, error) => {
    const before = await rate(api, "county=wayne&date=2026-12-01");
    runs += 1;
    const result = await reconcileWith(api, fixture(name), new Date(AT.getTime() + runs * 60_000));
    expect(result).toMatchObject({ status: "failed", periodsRecorded: 0, eventsEmitted: 0, error: expect.stringMatching(error) });
    expect(await api.service.store.db.selectFrom("events").selectAll().execute()).toEqual([]);
    expect(await api.service.store.db.selectFrom("recorded_rate_periods").selectAll().execute()).toEqual([]);
    const after = await rate(api, "county=wayne&date=2026-12-01");
    expect(after).toMatchObject({ has_upcoming_change: false, upcoming: null, last_reconciled: "2026-08-18" });
    expect({ ...after, request_id: "" }).toEqual({ ...before, request_id: "" });
    const logged = (await call(api, "GET", "/api/v1/reconciliations?limit=1")).body.reconciliations[0];
    expect(logged).toMatchObject({ status: "failed", file_name: name, error: expect.stringMatching(error) });
  });

  it("a file that cannot be read is reported the same way", async () => {
    const result = await reconcileWith(api, join(scratch, "OHR2027Q1DEC01.csv"));
    expect(result).toMatchObject({ status: "failed", error: expect.stringMatching(/could not read/) });
  });
});

describe("reconcile: the rate file posted as a ZIP archive", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  const archive = (name: string, entries: Record<string, string>) => {
    const path = join(scratch, name);
    writeFileSync(path, zipSync(Object.fromEntries(Object.entries(entries).map(([entry, text]) => [entry, strToU8(text)]))));
    return path;
  };

  it("an archive holding two CSV files, or a damaged one, fails and changes nothing", async () => {
    const csv = readFileSync(FUTURE_CHANGE, "utf8");
    const two = await reconcileWith(api, archive("OHR2027Q1NOV29.zip", { "a.csv": csv, "b.csv": csv }));
    expect(two).toMatchObject({ status: "failed", periodsRecorded: 0, error: expect.stringMatching(/holds more than one CSV file \(the second is b\.csv\)/) });
    const damaged = join(scratch, "OHR2027Q1NOV28.zip");
    writeFileSync(damaged, Buffer.from(readFileSync(archive("whole.zip", { "OHR2027Q1NOV28.csv": csv })).subarray(0, 200)));
    expect(await reconcileWith(api, damaged)).toMatchObject({ status: "failed", error: expect.stringMatching(/could not read the rate file: the ZIP archive/) });
    expect(await api.service.store.db.selectFrom("recorded_rate_periods").selectAll().execute()).toEqual([]);
    expect(await eventsOf(api, "rate.announced")).toEqual([]);
  });

  it("is read like the CSV inside it: the enacted change is recorded and announced as of the archive's posting date", async () => {
    const path = archive("OHR2027Q1NOV30.zip", { "README.txt": "rates", "OHR2027Q1NOV30.csv": readFileSync(FUTURE_CHANGE, "utf8") });
    const result = await reconcileWith(api, path);
    expect(result).toMatchObject({ status: "succeeded", file: "OHR2027Q1NOV30.zip (OHR2027Q1NOV30.csv)", periodsRecorded: 1, eventsEmitted: 1 });
    const [announced] = await eventsOf(api, "rate.announced");
    expect(JSON.parse(announced!.payload).data).toMatchObject({ county: "Wayne", new_rate: 0.07, effective_date: "2027-01-01", announced_date: "2026-11-30" });
    expect(await rate(api, "county=wayne&date=2026-12-01")).toMatchObject({ has_upcoming_change: true, upcoming: { effective_date: "2027-01-01", combined_rate: 0.07 } });
  });
});

describe("reconcile: discrepancies are logged, never applied", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("a current rate that differs from ours, and an unknown jurisdiction, are listed; our answer stands", async () => {
    const path = edited("OHR2027Q1NOV30-discrepancy.csv", (lines) => [
      ...lines.map((line) => (line.startsWith("39,00,049,") && line.endsWith("99991231") ? line.replaceAll(".012500", ".015000") : line)),
      "39,63,99000,.005000,.005000,.005000,.005000,20250101,99991231",
    ]);
    const result = await reconcileWith(api, path);
    expect(result.status).toBe("succeeded");
    expect(result.discrepancies).toEqual([
      { fips: "39049", county: "Franklin", component: "county", code: "049", date: "2026-12-01", file_rate: "0.0150", our_rate: "0.0125", reason: "rate differs" },
      { fips: null, county: null, component: null, code: "99000", date: null, file_rate: "0.0050", our_rate: null, reason: "unknown transit jurisdiction code; ignored" },
    ]);
    expect(await rate(api, "county=franklin&date=2026-12-01")).toMatchObject({ combined_rate: 0.08 });
  });
});
