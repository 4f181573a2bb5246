/**
 * GET /api/v1/returns/{period}: the UST 1 worksheet of a filing period, over a real store (SQLite, or
 * PostgreSQL under TEST_DATABASE_URL) and the service's real HTTP app. Ledger rows are written by the
 * tests' own writer (test/_ledger-rows.ts), synthetic amounts in signed integer cents.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization, setFilingFrequency } from "../src/store/organizations.repository.ts";
import { call } from "./_api.ts";
import { writeLedgerRows, type LedgerRow } from "./_ledger-rows.ts";
import { startTestService, type TestService } from "./_setup.ts";

const DATA = new URL("../data/", import.meta.url);
const COUNTIES = readFileSync(new URL("counties.csv", DATA), "utf8").trim().split("\n").slice(1).map((line) => {
  const [fips, name] = line.split(",") as [string, string];
  return { fips, name };
});
const SPLIT = JSON.parse(readFileSync(new URL("transit-districts.json", DATA), "utf8")) as Array<{ fips: string; authority: string; odt_codes: { district: string; rest: string } }>;

/** Cents as the API writes them, the test's own way: through BigInt, never a float. */
function dollars(cents: bigint): string {
  const sign = cents < 0n ? "-" : "";
  const magnitude = cents < 0n ? -cents : cents;
  return `${sign}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, "0")}`;
}

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let api: TestService;
const at = (iso: string) => api.clock.set(new Date(iso));
const get = (path: string, key?: string, headers: Record<string, string> = {}) =>
  api.service.app.fetch(new Request(`http://buckeye.test${path}`, { headers: { authorization: `Bearer ${key ?? api.liveKey}`, ...headers } }));

beforeAll(async () => {
  api = await startTestService();
  at("2026-12-02T15:00:00Z");
});
afterAll(() => api?.close());

describe("the return equals, county by county, a straightforward sum of the month's ledger rows", () => {
  it("100,000 transactions across all 88 counties (refunds, voids, the districts' parts; other months, the test ledger and another organization left out)", async () => {
    const { db } = api.service.store;
    const other = await createOrganization(db, "Other Org");
    const next = random(20261202);
    const pick = <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const rows: LedgerRow[] = [];
    const month = (day: number) => `2026-11-${String(day).padStart(2, "0")}`;
    for (let i = 0; i < 100_000; i++) {
      // Every county at least once, then at random; a few dated just outside the month, in the other ledger, or of another organization.
      const county = i < COUNTIES.length ? COUNTIES[i]! : pick(COUNTIES);
      const split = SPLIT.find((d) => d.fips === county.fips);
      const gross = 1 + Math.floor(next() * 500_000);
      const exempt = next() < 0.1 ? gross : next() < 0.1 ? Math.floor(gross / 3) : 0;
      const taxable = gross - exempt;
      const sign = next() < 0.05 ? -1 : 1;
      const roll = next();
      rows.push({
        organizationId: roll < 0.01 ? other.id : api.orgId,
        env: roll >= 0.01 && roll < 0.02 ? "test" : "live",
        kind: sign < 0 ? pick(["refund", "void"] as const) : "sale",
        date: roll >= 0.02 && roll < 0.03 ? pick(["2026-10-31", "2026-12-01"]) : month(1 + Math.floor(next() * 30)),
        countyFips: county.fips,
        transitDistrict: split && next() < 0.4 ? split.authority : null,
        grossCents: sign * gross,
        exemptCents: sign * exempt,
        stateTaxCents: sign * Math.round((taxable * 575) / 10_000),
        countyTaxCents: sign * Math.round((taxable * 125) / 10_000),
        transitTaxCents: sign * (split || next() < 0.3 ? Math.round((taxable * 100) / 10_000) : 0),
      });
    }
    await writeLedgerRows(db, rows);

    // The test's own computation: the live ledger's rows of this organization dated in November, keyed by
    // the reporting code the Department of Taxation gives each county (its alphabetical number) or a COTA part.
    const expected = new Map<string, { gross: bigint; exempt: bigint; tax: bigint; records: number }>();
    let records = 0;
    for (const row of rows) {
      if (row.organizationId !== api.orgId || row.env !== "live" || !row.date.startsWith("2026-11-")) continue;
      records++;
      const index = COUNTIES.findIndex((c) => c.fips === row.countyFips);
      const split = SPLIT.find((d) => d.fips === row.countyFips);
      const code = split && row.transitDistrict && split.odt_codes.district !== split.odt_codes.rest ? split.odt_codes.district : String(index + 1).padStart(2, "0");
      const key = `${row.countyFips} ${code}`;
      const sums = expected.get(key) ?? { gross: 0n, exempt: 0n, tax: 0n, records: 0 };
      sums.gross += BigInt(row.grossCents);
      sums.exempt += BigInt(row.exemptCents ?? 0);
      sums.tax += BigInt(row.stateTaxCents + row.countyTaxCents + (row.transitTaxCents ?? 0));
      sums.records++;
      expected.set(key, sums);
    }

    const { res, body } = await call(api, "GET", "/api/v1/returns/2026-11");
    expect(res.status).toBe(200);
    const answered = new Map<string, unknown>(body.counties.map((line: any) => [`${line.county_fips} ${line.reporting_code}`, { gross: line.gross_sales, exempt: line.exempt_sales, net: line.net_taxable_sales, tax: line.tax_liability, records: line.records }]));
    const wanted = new Map([...expected].map(([key, s]) => [key, { gross: dollars(s.gross), exempt: dollars(s.exempt), net: dollars(s.gross - s.exempt), tax: dollars(s.tax), records: s.records }]));
    expect(answered).toEqual(wanted);
    // All 88 counties, and the four COTA parts on their own lines.
    expect(new Set(body.counties.map((line: any) => line.county_fips)).size).toBe(88);
    expect(body.counties.filter((line: any) => line.part === "COTA district").map((line: any) => line.reporting_code).sort()).toEqual(["93", "94", "96", "98"]);

    const total = [...expected.values()].reduce((a, s) => ({ gross: a.gross + s.gross, exempt: a.exempt + s.exempt, tax: a.tax + s.tax }), { gross: 0n, exempt: 0n, tax: 0n });
    const discount = (total.tax * 75n + 5_000n) / 10_000n;
    expect(body.lines.map((line: any) => [line.line, line.amount])).toEqual([
      [1, dollars(total.gross)],
      [2, dollars(total.exempt)],
      [3, dollars(total.gross - total.exempt)],
      [4, "0.00"],
      [5, dollars(total.gross - total.exempt)],
      [6, dollars(total.tax)],
      [7, dollars(discount)],
      [8, "0.00"],
      [9, dollars(total.tax - discount)],
    ]);
    expect(body.net_amount_due).toBe(dollars(total.tax - discount));
    expect(body.counties.reduce((n: number, line: any) => n + line.records, 0)).toBe(records);
  }, 300_000);
});

describe("a refund reduces the county's figures in the refund's period", () => {
  it("a sale in October refunded in part in November: October keeps the sale, November carries the refund beside its own sales", async () => {
    const { db } = api.service.store;
    const org = await createOrganization(db, "Refund Co");
    const key = await keyFor(org.id, "live");
    const [sale] = await writeLedgerRows(db, [
      // Franklin County, 8.00 %: $100.00 → state $5.75, county $1.25, COTA $1.00.
      { organizationId: org.id, env: "live", date: "2026-10-20", countyFips: "39049", transitDistrict: null, grossCents: 10_000, stateTaxCents: 575, countyTaxCents: 125, transitTaxCents: 100 },
    ]);
    await writeLedgerRows(db, [
      // $40.00 of it refunded on November 5: −$2.30 state, −$0.50 county, −$0.40 COTA.
      { organizationId: org.id, env: "live", kind: "refund", saleId: sale!, date: "2026-11-05", countyFips: "39049", grossCents: -4_000, stateTaxCents: -230, countyTaxCents: -50, transitTaxCents: -40 },
      // A November sale of $200.00 in Franklin County: $16.00.
      { organizationId: org.id, env: "live", date: "2026-11-18", countyFips: "39049", grossCents: 20_000, stateTaxCents: 1_150, countyTaxCents: 250, transitTaxCents: 200 },
    ]);
    const october = (await call(api, "GET", "/api/v1/returns/2026-10", { key })).body;
    expect(october.counties).toEqual([
      { county: "Franklin", county_fips: "39049", reporting_code: "25", part: null, gross_sales: "100.00", exempt_sales: "0.00", net_taxable_sales: "100.00", tax_liability: "8.00", tax_by_jurisdiction: { state: "5.75", county: "1.25", transit: "1.00" }, records: 1 },
    ]);
    const november = (await call(api, "GET", "/api/v1/returns/2026-11", { key })).body;
    expect(november.counties).toEqual([
      { county: "Franklin", county_fips: "39049", reporting_code: "25", part: null, gross_sales: "160.00", exempt_sales: "0.00", net_taxable_sales: "160.00", tax_liability: "12.80", tax_by_jurisdiction: { state: "9.20", county: "2.00", transit: "1.60" }, records: 2 },
    ]);
    // 0.75 % of $12.80 is 9.6 cents: 10 cents. $12.80 − $0.10 = $12.70.
    expect(november.discount).toMatchObject({ rate: "0.0075", amount: "0.10" });
    expect(november.net_amount_due).toBe("12.70");
  });

  it("a period whose refunds exceed its sales shows the negative figures and no discount", async () => {
    const { db } = api.service.store;
    const org = await createOrganization(db, "Quiet Month Co");
    const key = await keyFor(org.id, "live");
    await writeLedgerRows(db, [{ organizationId: org.id, env: "live", kind: "refund", date: "2026-11-03", countyFips: "39001", grossCents: -1_000, stateTaxCents: -58, countyTaxCents: -15 }]);
    const body = (await call(api, "GET", "/api/v1/returns/2026-11", { key })).body;
    expect(body.lines.find((line: any) => line.line === 6).amount).toBe("-0.73");
    expect(body.discount.amount).toBe("0.00");
    expect(body.net_amount_due).toBe("-0.73");
  });
});

describe("the prompt-payment discount: 0.75 % of the line 6 tax liability, to the nearest cent", () => {
  it("$1,234.56 of tax: a discount of $9.26 (925.92 cents), $1,225.30 due; the figure carries its rate, source and condition", async () => {
    const { db } = api.service.store;
    const org = await createOrganization(db, "Discount Co");
    const key = await keyFor(org.id, "live");
    // Adams County, 7.25 %: a sale whose tax is $1,234.56 (synthetic split: state $979.17, county $255.39).
    await writeLedgerRows(db, [{ organizationId: org.id, env: "live", date: "2026-11-10", countyFips: "39001", grossCents: 1_702_841, stateTaxCents: 97_917, countyTaxCents: 25_539 }]);
    const body = (await call(api, "GET", "/api/v1/returns/2026-11", { key })).body;
    expect(body.lines.find((line: any) => line.line === 6).amount).toBe("1234.56");
    expect(body.discount).toEqual({
      rate: "0.0075",
      effective_from: "2007-07-01",
      source: expect.stringContaining("R.C. 5739.12"),
      applies_when: "the return and full payment reach the Department of Taxation by 2026-12-23",
      amount: "9.26",
    });
    expect(body.lines.find((line: any) => line.line === 7).amount).toBe("9.26");
    expect(body.net_amount_due).toBe("1225.30");
    expect(body.due_date).toBe("2026-12-23");
    expect(body.rounding).toBe("cents");
  });
});

describe("transit districts: a COTA part of a county on its own reporting line, Rossford under Wood County's", () => {
  it("Delaware's COTA part is line 96 and the rest of Delaware line 21; Wood's Rossford sales stay on line 87", async () => {
    const { db } = api.service.store;
    const org = await createOrganization(db, "District Co");
    const key = await keyFor(org.id, "live");
    await writeLedgerRows(db, [
      // Delaware, in COTA's part (8.00 %): $50.00 → $2.875 state… recorded as the ledger rounded it: $2.88, $0.63, $0.50.
      { organizationId: org.id, env: "live", date: "2026-11-02", countyFips: "39041", transitDistrict: "COTA", grossCents: 5_000, stateTaxCents: 288, countyTaxCents: 63, transitTaxCents: 50 },
      // Delaware outside the district (7.00 %): $50.00 → $2.88 + $0.63.
      { organizationId: org.id, env: "live", date: "2026-11-02", countyFips: "39041", grossCents: 5_000, stateTaxCents: 288, countyTaxCents: 63 },
      // Wood, in Rossford (7.25 %) and outside (6.75 %).
      { organizationId: org.id, env: "live", date: "2026-11-03", countyFips: "39173", transitDistrict: "TARTA", grossCents: 10_000, stateTaxCents: 575, countyTaxCents: 100, transitTaxCents: 50 },
      { organizationId: org.id, env: "live", date: "2026-11-04", countyFips: "39173", grossCents: 10_000, stateTaxCents: 575, countyTaxCents: 100 },
    ]);
    const body = (await call(api, "GET", "/api/v1/returns/2026-11", { key })).body;
    expect(body.counties.map((line: any) => [line.county, line.reporting_code, line.part, line.gross_sales, line.tax_liability])).toEqual([
      ["Delaware", "21", null, "50.00", "3.51"],
      ["Delaware", "96", "COTA district", "50.00", "4.01"],
      ["Wood", "87", null, "200.00", "14.00"],
    ]);
  });
});

describe("test keys read the test ledger, live keys the live one", () => {
  it("a sale recorded in each ledger is on that ledger's return only", async () => {
    const { db } = api.service.store;
    const org = await createOrganization(db, "Two Ledgers Co");
    await writeLedgerRows(db, [
      { organizationId: org.id, env: "live", date: "2026-11-02", countyFips: "39001", grossCents: 1_000, stateTaxCents: 58, countyTaxCents: 15 },
      { organizationId: org.id, env: "test", date: "2026-11-02", countyFips: "39003", grossCents: 2_000, stateTaxCents: 115, countyTaxCents: 20 },
    ]);
    const live = (await call(api, "GET", "/api/v1/returns/2026-11", { key: await keyFor(org.id, "live") })).body;
    const test = (await call(api, "GET", "/api/v1/returns/2026-11", { key: await keyFor(org.id, "test") })).body;
    expect([live.ledger, live.counties.map((line: any) => line.county)]).toEqual(["live", ["Adams"]]);
    expect([test.ledger, test.counties.map((line: any) => line.county)]).toEqual(["test", ["Allen"]]);
  });
});

describe("the return as CSV: by ?format=csv or Accept: text/csv", () => {
  it("one row per county line, then the form's lines 1 to 9, as an attachment named by period and ledger", async () => {
    const { db } = api.service.store;
    const org = await createOrganization(db, "CSV Co");
    const key = await keyFor(org.id, "live");
    await writeLedgerRows(db, [
      { organizationId: org.id, env: "live", date: "2026-11-02", countyFips: "39041", transitDistrict: "COTA", grossCents: 5_000, stateTaxCents: 288, countyTaxCents: 63, transitTaxCents: 50 },
      { organizationId: org.id, env: "live", date: "2026-11-09", countyFips: "39001", grossCents: 12_345, exemptCents: 2_345, stateTaxCents: 575, countyTaxCents: 150 },
    ]);
    for (const res of [await get("/api/v1/returns/2026-11?format=csv", key), await get("/api/v1/returns/2026-11", key, { accept: "text/csv" })]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="buckeye-ust1-2026-11-live.csv"');
      expect((await res.text()).split("\r\n")).toEqual([
        "row,line,label,county_fips,reporting_code,part,gross_sales,exempt_sales,net_taxable_sales,tax_liability,state_tax,county_tax,transit_tax,records,amount",
        "county,,Adams,39001,01,,123.45,23.45,100.00,7.25,5.75,1.50,0.00,1,",
        "county,,Delaware,39041,96,COTA district,50.00,0.00,50.00,4.01,2.88,0.63,0.50,1,",
        "form,1,Gross sales,,,,,,,,,,,,173.45",
        "form,2,Exempt sales,,,,,,,,,,,,23.45",
        "form,3,Net taxable sales,,,,,,,,,,,,150.00",
        "form,4,Sales upon which tax was paid to clerks of courts,,,,,,,,,,,,0.00",
        "form,5,Reportable taxable sales,,,,,,,,,,,,150.00",
        "form,6,Tax liability on sales reported on line 5,,,,,,,,,,,,11.26",
        // 0.75 % of $11.26 is 8.445 cents: 8 cents.
        "form,7,Discount,,,,,,,,,,,,0.08",
        "form,8,Additional charge,,,,,,,,,,,,0.00",
        "form,9,Net amount due,,,,,,,,,,,,11.18",
        "",
      ]);
    }
  });

  it("an Accept of neither JSON nor CSV is a 406; an unknown format a 400", async () => {
    const xml = await get("/api/v1/returns/2026-11", undefined, { accept: "application/xml" });
    expect([xml.status, (await xml.json()).type]).toEqual([406, "https://buckeye.dev/errors/not-acceptable"]);
    const { res, body } = await call(api, "GET", "/api/v1/returns/2026-11?format=pdf");
    expect([res.status, body.invalid_params]).toEqual([400, [{ name: "format", reason: "must be json or csv" }]]);
  });
});

describe("which periods a return is answered for", () => {
  it("a period written neither YYYY-MM nor YYYY-H1/H2, or before 2018, is a 400 invalid-return-period", async () => {
    for (const period of ["2026-13", "2026-11-01", "november", "2026-H3", "2017-12"]) {
      const { res, body } = await call(api, "GET", `/api/v1/returns/${period}`);
      expect([period, res.status, body.type]).toEqual([period, 400, "https://buckeye.dev/errors/invalid-return-period"]);
    }
  });

  it("a period that has not begun is a 422; the month under way is answered, marked open, and the last one closed", async () => {
    const future = await call(api, "GET", "/api/v1/returns/2027-01");
    expect([future.res.status, future.body.type, future.body.detail]).toEqual([422, "https://buckeye.dev/errors/return-period-not-begun", "Period 2027-01 begins on 2027-01-01; today in Ohio is 2026-12-02."]);
    expect((await call(api, "GET", "/api/v1/returns/2026-12")).body.period_status).toBe("open");
    expect((await call(api, "GET", "/api/v1/returns/2026-11")).body.period_status).toBe("closed");
  });

  it("a semiannual filer's periods are half years (H2 due January 23); a month is a 409 filing-frequency-mismatch, and a half year of a monthly filer too", async () => {
    const { db } = api.service.store;
    const org = await createOrganization(db, "Half Year Co");
    await setFilingFrequency(db, org.id, "semiannual");
    const key = await keyFor(org.id, "live");
    await writeLedgerRows(db, [
      { organizationId: org.id, env: "live", date: "2026-07-01", countyFips: "39001", grossCents: 1_000, stateTaxCents: 58, countyTaxCents: 15 },
      { organizationId: org.id, env: "live", date: "2026-06-30", countyFips: "39001", grossCents: 9_000, stateTaxCents: 518, countyTaxCents: 135 },
    ]);
    const half = (await call(api, "GET", "/api/v1/returns/2026-H2", { key })).body;
    expect([half.filing_frequency, half.period_start, half.period_end, half.due_date, half.period_status, half.lines[0].amount]).toEqual(["semiannual", "2026-07-01", "2026-12-31", "2027-01-23", "open", "10.00"]);
    expect((await call(api, "GET", "/api/v1/returns/2026-H1", { key })).body.lines[0].amount).toBe("90.00");
    const month = await call(api, "GET", "/api/v1/returns/2026-11", { key });
    expect([month.res.status, month.body.type]).toEqual([409, "https://buckeye.dev/errors/filing-frequency-mismatch"]);
    const monthly = await call(api, "GET", "/api/v1/returns/2026-H1");
    expect([monthly.res.status, monthly.body.type]).toEqual([409, "https://buckeye.dev/errors/filing-frequency-mismatch"]);
  });

  it("a month with no recorded sales is a return of zeros", async () => {
    const { db } = api.service.store;
    const org = await createOrganization(db, "Empty Co");
    const body = (await call(api, "GET", "/api/v1/returns/2026-09", { key: await keyFor(org.id, "live") })).body;
    expect([body.counties, body.lines.map((line: any) => line.amount), body.net_amount_due]).toEqual([[], ["0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00"], "0.00"]);
  });
});

async function keyFor(organizationId: string, env: "live" | "test"): Promise<string> {
  return (await createKey(api.service.store.db, organizationId, `returns ${env}`, env)).key;
}
