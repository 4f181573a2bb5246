/**
 * GET /api/v1/returns/{period}: the UST 1 worksheet of a filing period, over a real store (SQLite, or
 * PostgreSQL under TEST_DATABASE_URL) and the service's real HTTP app. Ledger rows are written by the
 * tests' own writer (test/_ledger-rows.ts), synthetic amounts in signed integer cents.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setFilingFrequency } from "../src/store/organizations.repository.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
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
