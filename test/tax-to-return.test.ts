/**
 * From the tax on a sale to the return, end to end: sales calculated by POST /api/v1/tax and recorded by
 * POST /api/v1/transactions (and a refund by its own route), then GET /api/v1/returns/{period} for the
 * months they fall in, all through the service's HTTP app over a real store (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL). No ledger row is written by the test itself: the return must sum what the ledger
 * recorded, and each county line must equal, cent for cent, what the recorded answers carried.
 * The Delaware County addresses come from a SYNTHETIC boundary file generated from data/
 * (test/_boundary-files.ts); the Census geocoder is a FAKE UPSTREAM that no case here reaches.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { DEFAULT_REFRESH_MS } from "../src/boundaries/boundary-index.ts";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { call } from "./_api.ts";
import { DATA_DIR, linedRecords, TEST_ZIPS } from "./_boundary-files.ts";
import { startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

const BOUNDARIES = { version: "OHB2026Q3JUN1-SYNTHETIC", records: 3000 };
let api: GeocodedTestService;
let dir: string;
let live: string;
let test: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "buckeye-tax-to-return-"));
  api = await startTestServiceWithFakeGeocoder();
  const path = join(dir, `${BOUNDARIES.version.toLowerCase()}.csv`);
  await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, zips: TEST_ZIPS, records: BOUNDARIES.records });
  expect(await importBoundaryFile({ store: api.service.store, source: path, synthetic: true })).toMatchObject({ status: "imported", version: BOUNDARIES.version });
  api.clock.advance(DEFAULT_REFRESH_MS);
  const org = await createOrganization(api.service.store.db, "Sale To Return Shop");
  live = (await createKey(api.service.store.db, org.id, "e2e live", "live")).key;
  test = (await createKey(api.service.store.db, org.id, "e2e test", "test")).key;
}, 60_000);

afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** "-12.34" → -1234n: the API's decimal strings as exact cents, never through a float. */
function cents(amount: string): bigint {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount);
  if (!match) throw new Error(`not an amount with two places: ${amount}`);
  const magnitude = BigInt(match[2]!) * 100n + BigInt(match[3]!);
  return match[1] === "-" ? -magnitude : magnitude;
}

/** -1234n → "-12.34", as the API writes amounts. */
function dollars(value: bigint): string {
  const sign = value < 0n ? "-" : "";
  const magnitude = value < 0n ? -value : value;
  return `${sign}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, "0")}`;
}

interface Carried {
  id?: string;
  county_fips: string;
  transit_district: string | null;
  gross: bigint;
  exempt: bigint;
  taxable: bigint;
  tax: bigint;
  state: bigint;
  county: bigint;
  transit: bigint;
}

/** What one calculated answer of POST /api/v1/tax carried, read from its totals and its jurisdictions. */
function carriedByAnswer(answer: any): Omit<Carried, "id" | "county_fips" | "transit_district"> {
  const of = (jurisdiction: string) => cents(answer.jurisdictions.find((j: any) => j.jurisdiction === jurisdiction)?.tax ?? "0.00");
  return { gross: cents(answer.totals.gross), exempt: cents(answer.totals.exempt), taxable: cents(answer.totals.taxable), tax: cents(answer.totals.tax), state: of("state"), county: of("county"), transit: of("transit") };
}

/** What a recorded transaction carries: its place and its signed amounts. */
function carriedByRecord(record: any): Carried {
  const a = record.amounts;
  return {
    id: record.id,
    county_fips: record.county_fips,
    transit_district: record.transit_district,
    gross: cents(a.gross),
    exempt: cents(a.exempt),
    taxable: cents(a.taxable),
    tax: cents(a.tax),
    state: cents(a.state_tax),
    county: cents(a.county_tax),
    transit: cents(a.transit_tax),
  };
}

/** The test's own county lines: the carried amounts summed by county and by the part of it a transit district covers. */
function linesOf(records: readonly Carried[]) {
  const sums = new Map<string, Carried & { records: number }>();
  for (const r of records) {
    const key = `${r.county_fips} ${r.transit_district ?? "-"}`;
    const s = sums.get(key) ?? { county_fips: r.county_fips, transit_district: r.transit_district, gross: 0n, exempt: 0n, taxable: 0n, tax: 0n, state: 0n, county: 0n, transit: 0n, records: 0 };
    s.gross += r.gross;
    s.exempt += r.exempt;
    s.taxable += r.taxable;
    s.tax += r.tax;
    s.state += r.state;
    s.county += r.county;
    s.transit += r.transit;
    s.records++;
    sums.set(key, s);
  }
  return [...sums.values()]
    .map((s) => ({
      county_fips: s.county_fips,
      part: s.transit_district === null ? null : `${s.transit_district} district`,
      gross_sales: dollars(s.gross),
      exempt_sales: dollars(s.exempt),
      net_taxable_sales: dollars(s.taxable),
      tax_liability: dollars(s.tax),
      tax_by_jurisdiction: { state: dollars(s.state), county: dollars(s.county), transit: dollars(s.transit) },
      records: s.records,
    }))
    .sort((a, b) => `${a.county_fips} ${a.part ?? ""}`.localeCompare(`${b.county_fips} ${b.part ?? ""}`));
}

/** The return's county lines in the same shape and order, for a whole-value comparison. */
function returnLines(worksheet: any) {
  return worksheet.counties
    .map((line: any) => ({
      county_fips: line.county_fips,
      part: line.part,
      gross_sales: line.gross_sales,
      exempt_sales: line.exempt_sales,
      net_taxable_sales: line.net_taxable_sales,
      tax_liability: line.tax_liability,
      tax_by_jurisdiction: line.tax_by_jurisdiction,
      records: line.records,
    }))
    .sort((a: any, b: any) => `${a.county_fips} ${a.part ?? ""}`.localeCompare(`${b.county_fips} ${b.part ?? ""}`));
}

/** Calculates the sale, records it under `order_id`, and checks the record keeps what the calculation answered. */
async function sell(key: string, order_id: string, sale: Record<string, unknown>): Promise<Carried> {
  const calculated = await call(api, "POST", "/api/v1/tax", { key, body: sale });
  expect(calculated.res.status, order_id).toBe(200);
  expect(calculated.body.settled, order_id).toBe(true);
  const recorded = await call(api, "POST", "/api/v1/transactions", { key, body: { order_id, ...sale } });
  expect(recorded.res.status, order_id).toBe(201);
  const carried = carriedByRecord(recorded.body.transaction);
  const { id, county_fips, transit_district, ...amounts } = carried;
  expect(amounts, order_id).toEqual(carriedByAnswer(calculated.body));
  const district = calculated.body.location.transit_district;
  expect([county_fips, transit_district], order_id).toEqual([calculated.body.location.fips, district?.status === "inside" ? district.authority : null]);
  expect(id, order_id).toMatch(/./);
  return carried;
}

describe("the return sums the ledger's recorded sales and refunds: each county line equals what the recorded answers carried", () => {
  const records = linedRecords(BOUNDARIES.records);
  const inside = records.find((r) => r.recordType === "A" && r.zip5 === "43081" && r.countyFips === "39041" && r.parity === "O" && r.unit === null && r.transitCode === "96000" && r.effectiveTo === null)!;
  const outside = records.find((r) => r.recordType === "A" && r.zip5 === inside.zip5 && r.streetName === inside.streetName && r.suffix === inside.suffix && r.preDirectional === inside.preDirectional && r.houseLow === inside.houseLow && r.parity === "E" && r.unit === null)!;
  const odd = (inside.houseLow! % 2 === 1 ? inside.houseLow! : inside.houseLow! + 1) + 2;
  const even = (outside.houseLow! % 2 === 0 ? outside.houseLow! : outside.houseLow! + 1) + 2;
  const address = (house: number) => `${[house, inside.preDirectional, inside.streetName, inside.suffix].filter(Boolean).join(" ")}, Westerville, OH ${inside.zip5}`;
  const line = (unit_price: string, extra: Record<string, unknown> = {}) => [{ id: "a", unit_price, ...extra }];

  let june: Carried[];
  let july: Carried[];
  let testJune: Carried[];
  let testJuly: Carried[];
  let juneReturn: any;
  let julyReturn: any;

  beforeAll(async () => {
    await call(api, "POST", "/api/v1/certificates", { key: live, body: { customer_id: "cust-school", customer_name: "Hamilton School", exempt_reason: "government", expires_on: "2026-12-31" } });
    await call(api, "POST", "/api/v1/certificates", { key: live, body: { customer_id: "cust-lapsed", customer_name: "Lapsed Co", exempt_reason: "resale", expires_on: "2026-06-09" } });

    const adams = await sell(live, "o-adams", { date: "2026-06-03", ship_to: { county: "Adams" }, lines: line("100.00") });
    june = [
      adams,
      // Third decimal 5 at the aggregate rate: 0.63 × 7.25 % = 0.045675 → state 0.04, county 0.01.
      await sell(live, "o-adams-cent", { date: "2026-06-04", ship_to: { county: "Adams" }, lines: line("0.63") }),
      // One line exempt by its category, one taxed: 3.00 exempt, 20.00 taxable.
      await sell(live, "o-adams-mixed", { date: "2026-06-05", ship_to: { county: "Adams" }, lines: [{ id: "milk", unit_price: "3.00", category: "food-for-home-consumption" }, { id: "pan", unit_price: "20.00", category: "general-merchandise" }] }),
      // A certificate that expired the day before the sale: taxed.
      await sell(live, "o-adams-lapsed", { date: "2026-06-10", ship_to: { county: "Adams" }, customer_id: "cust-lapsed", lines: line("100.00") }),
      // Inside COTA's district: 1.15 + 0.25 + 0.20 = 1.60.
      await sell(live, "o-delaware-cota", { date: "2026-06-11", ship_to: { address: address(odd) }, lines: line("19.99") }),
      // The other side of the street, outside it: 1.15 + 0.25 = 1.40.
      await sell(live, "o-delaware-rest", { date: "2026-06-12", ship_to: { address: address(even) }, lines: line("19.99") }),
      // The exempt customer's sale, shipping and all: 110.00 gross, 110.00 exempt, no tax.
      await sell(live, "o-hamilton-school", { date: "2026-06-20", ship_to: { county: "Hamilton" }, customer_id: "cust-school", lines: line("100.00"), shipping: "10.00" }),
      // Hamilton, 7.80 %: 50.00 → 3.90.
      await sell(live, "o-hamilton", { date: "2026-06-30", ship_to: { county: "Hamilton" }, lines: line("50.00") }),
    ];
    // In the test ledger, in the same months: the same order id as a live sale, and a county no live sale is in.
    testJune = [await sell(test, "o-adams", { date: "2026-06-03", ship_to: { county: "Adams" }, lines: line("1000.00") })];
    testJuly = [await sell(test, "o-franklin", { date: "2026-07-02", ship_to: { county: "Franklin" }, lines: line("10.00") })];

    // July: 40.00 of the first Adams sale refunded, and a Delaware sale inside COTA's district.
    const refund = await call(api, "POST", `/api/v1/transactions/${adams.id}/refunds`, { key: live, body: { refund_id: "r-adams", date: "2026-07-15", lines: [{ id: "a", amount: "40.00" }] } });
    expect(refund.res.status).toBe(201);
    july = [carriedByRecord(refund.body.transaction), await sell(live, "o-delaware-july", { date: "2026-07-01", ship_to: { address: address(odd) }, lines: line("5.00") })];

    juneReturn = await call(api, "GET", "/api/v1/returns/2026-06", { key: live });
    julyReturn = await call(api, "GET", "/api/v1/returns/2026-07", { key: live });
    expect([juneReturn.res.status, julyReturn.res.status]).toEqual([200, 200]);
  }, 60_000);

  it("the recorded answers carry the guide's worked figures: 7.25 on 100.00 in Adams, 0.05 on 0.63, 1.60 inside COTA and 1.40 outside, 0.00 for the certificate on file, 7.25 for the one expired the day before", () => {
    expect(june.map((c) => [c.county_fips, c.transit_district, dollars(c.gross), dollars(c.exempt), dollars(c.tax)])).toEqual([
      ["39001", null, "100.00", "0.00", "7.25"],
      ["39001", null, "0.63", "0.00", "0.05"],
      ["39001", null, "23.00", "3.00", "1.45"],
      ["39001", null, "100.00", "0.00", "7.25"],
      ["39041", "COTA", "19.99", "0.00", "1.60"],
      ["39041", null, "19.99", "0.00", "1.40"],
      ["39061", null, "110.00", "110.00", "0.00"],
      ["39061", null, "50.00", "0.00", "3.90"],
    ]);
    // 40.00 × 5.75 % = 2.30, × 1.5 % = 0.60; 5.00 × 5.75 % = 0.2875 → 0.29, × 1.25 % = 0.0625 → 0.06, × 1 % = 0.05.
    expect(july.map((c) => [c.county_fips, dollars(c.gross), dollars(c.tax), dollars(c.state), dollars(c.county), dollars(c.transit)])).toEqual([
      ["39001", "-40.00", "-2.90", "-2.30", "-0.60", "0.00"],
      ["39041", "5.00", "0.40", "0.29", "0.06", "0.05"],
    ]);
  });

  it("each county line of a month's return equals, cent for cent, the sums of what that month's recorded answers carried: gross, exempt, net taxable, tax and its jurisdictions", () => {
    expect(returnLines(juneReturn.body)).toEqual(linesOf(june));
    expect(returnLines(julyReturn.body)).toEqual(linesOf(july));
  });

  it("the form's lines 1, 2, 3 and 6 total the month's recorded gross, exempt, net taxable and tax", () => {
    for (const [worksheet, carried] of [[juneReturn.body, june], [julyReturn.body, july]] as const) {
      const total = (pick: (c: Carried) => bigint) => dollars(carried.reduce((sum, c) => sum + pick(c), 0n));
      const form = Object.fromEntries(worksheet.lines.map((l: any) => [l.line, l.amount]));
      expect([form[1], form[2], form[3], form[6]]).toEqual([total((c) => c.gross), total((c) => c.exempt), total((c) => c.taxable), total((c) => c.tax)]);
    }
  });

  it("a sale recorded inside COTA's district is on Delaware's COTA line (96), one outside it on Delaware's own (21)", () => {
    expect(juneReturn.body.counties.filter((l: any) => l.county_fips === "39041").map((l: any) => [l.reporting_code, l.part, l.tax_liability])).toEqual([
      ["21", null, "1.40"],
      ["96", "COTA district", "1.60"],
    ]);
  });

  it("a refund recorded in the next month reduces that month's county line and leaves the sale's month as sold", () => {
    // June in Adams: 100.00 + 0.63 + 23.00 + 100.00 = 223.63 sold, 7.25 + 0.05 + 1.45 + 7.25 = 16.00 tax.
    expect(juneReturn.body.counties.find((l: any) => l.county_fips === "39001")).toMatchObject({ gross_sales: "223.63", exempt_sales: "3.00", tax_liability: "16.00", records: 4 });
    expect(julyReturn.body.counties.find((l: any) => l.county_fips === "39001")).toMatchObject({ gross_sales: "-40.00", tax_liability: "-2.90", records: 1 });
  });

  it("test keys' sales are on the test ledger's return only, and live keys' on the live one only", async () => {
    const testJuneReturn = (await call(api, "GET", "/api/v1/returns/2026-06", { key: test })).body;
    const testJulyReturn = (await call(api, "GET", "/api/v1/returns/2026-07", { key: test })).body;
    expect([testJuneReturn.ledger, returnLines(testJuneReturn)]).toEqual(["test", linesOf(testJune)]);
    expect([testJulyReturn.ledger, returnLines(testJulyReturn)]).toEqual(["test", linesOf(testJuly)]);
    expect([juneReturn.body.ledger, julyReturn.body.ledger]).toEqual(["live", "live"]);
    expect(julyReturn.body.counties.some((l: any) => l.county_fips === "39049")).toBe(false);
  });
});
