/**
 * The tax on a sale and the ledger, end to end: real HTTP requests through the app, a real store (SQLite,
 * or PostgreSQL with TEST_DATABASE_URL), a SYNTHETIC boundary file generated from data/ for the Delaware
 * County address (test/_boundary-files.ts), and a FAKE UPSTREAM Census geocoder that no case here reaches.
 * The worked examples are those of docs/guides/tax-and-returns.md, each cent worked there by hand.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { DEFAULT_REFRESH_MS } from "../src/boundaries/boundary-index.ts";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { insertReconciliation, upsertRecordedPeriod } from "../src/store/reconciliations.repository.ts";
import { call } from "./_api.ts";
import { DATA_DIR, linedRecords, TEST_ZIPS } from "./_boundary-files.ts";
import { startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

const BOUNDARIES = { version: "OHB2026Q3JUN1-SYNTHETIC", records: 3000 };
const DATE = "2026-06-01";
let api: GeocodedTestService;
let dir: string;
let key: string;
let testKey: string;
let orgId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "buckeye-tax-"));
  api = await startTestServiceWithFakeGeocoder();
  const path = join(dir, `${BOUNDARIES.version.toLowerCase()}.csv`);
  await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, zips: TEST_ZIPS, records: BOUNDARIES.records });
  expect(await importBoundaryFile({ store: api.service.store, source: path, synthetic: true })).toMatchObject({ status: "imported", version: BOUNDARIES.version });
  api.clock.advance(DEFAULT_REFRESH_MS);
  ({ key, testKey, orgId } = await newOrganization("Tax Shop"));
}, 60_000);

afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function newOrganization(name: string) {
  const org = await createOrganization(api.service.store.db, name);
  return { orgId: org.id, key: (await createKey(api.service.store.db, org.id, name, "live")).key, testKey: (await createKey(api.service.store.db, org.id, `${name} test`, "test")).key };
}

const adams = (lines: unknown[], extra: Record<string, unknown> = {}) => ({ date: DATE, ship_to: { county: "Adams" }, lines, ...extra });
const tax = (body: unknown, k = key) => call(api, "POST", "/api/v1/tax", { key: k, body });
const amounts = (answer: any) => Object.fromEntries(answer.jurisdictions.map((j: any) => [j.jurisdiction, j.tax]));

async function ledgerRows(organizationId: string): Promise<number> {
  const row = await api.service.store.db.selectFrom("tax_transactions").select((eb) => eb.fn.countAll<number>().as("n")).where("organization_id", "=", organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("POST /api/v1/tax: the state's rounding rule, each jurisdiction separately (R.C. 5739.025, SSUTA section 324)", () => {
  it("0.62 in Adams County is 0.044950 on the aggregate 7.25 % (third decimal 4): 0.04, state 0.03 + county 0.01; 0.63 is 0.045675 (third decimal 5): 0.05, state 0.04 + county 0.01", async () => {
    const low = await tax(adams([{ id: "a", unit_price: "0.62" }]));
    expect(low.res.status).toBe(200);
    expect(low.body.jurisdictions.map((j: any) => [j.jurisdiction, j.rate, j.unrounded, j.tax])).toEqual([
      ["state", "0.0575", "0.035650", "0.03"],
      ["county", "0.0150", "0.009300", "0.01"],
      ["transit", "0.0000", "0.000000", "0.00"],
    ]);
    expect(low.body.totals).toEqual({ gross: "0.62", exempt: "0.00", taxable: "0.62", tax: "0.04", unrounded: "0.044950" });
    const high = await tax(adams([{ id: "a", unit_price: "0.63" }]));
    expect(amounts(high.body)).toEqual({ state: "0.04", county: "0.01", transit: "0.00" });
    expect(high.body.totals).toMatchObject({ tax: "0.05", unrounded: "0.045675" });
    expect(high.body).toMatchObject({ settled: true, currency: "USD", location: { county: "Adams", fips: "39001", resolved_by: "county_param", transit_district: null } });
    expect(high.body.computed_from).toMatchObject({ rate_data_version: expect.stringMatching(/^OHR/), boundary_version: null, resolved_by: "county_param" });
  });

  it("the organization's basis: two lines of 0.10 are state 0.02 on an item basis and 0.01 on an invoice basis, and the answer says which", async () => {
    const { key: own } = await newOrganization("Basis Shop");
    const lines = [{ id: "a", unit_price: "0.10" }, { id: "b", unit_price: "0.10" }];
    const invoice = await tax(adams(lines), own);
    expect(invoice.body.rounding.basis).toBe("invoice");
    expect(invoice.body.totals.tax).toBe("0.01");
    expect((await call(api, "PUT", "/api/v1/tax/settings", { key: own, body: { rounding_basis: "item" } })).res.status).toBe(200);
    expect((await call(api, "GET", "/api/v1/tax/settings", { key: own })).body).toEqual({ rounding_basis: "item" });
    const item = await tax(adams(lines), own);
    expect(item.body.rounding.basis).toBe("item");
    expect(item.body.lines.map((l: any) => l.taxes.map((t: any) => t.tax))).toEqual([["0.01", "0.00", "0.00"], ["0.01", "0.00", "0.00"]]);
    expect(item.body.totals.tax).toBe("0.02");
    expect((await call(api, "PUT", "/api/v1/tax/settings", { key: own, body: { rounding_basis: "line" } })).body.invalid_params).toEqual([{ name: "rounding_basis", reason: "must be item or invoice" }]);
  });
});

describe("POST /api/v1/tax: a transit district's part of Delaware County, settled by the state's boundary file", () => {
  const records = linedRecords(BOUNDARIES.records);
  const inside = records.find((r) => r.recordType === "A" && r.zip5 === "43081" && r.countyFips === "39041" && r.parity === "O" && r.unit === null && r.transitCode === "96000" && r.effectiveTo === null)!;
  const outside = records.find((r) => r.recordType === "A" && r.zip5 === inside.zip5 && r.streetName === inside.streetName && r.suffix === inside.suffix && r.preDirectional === inside.preDirectional && r.houseLow === inside.houseLow && r.parity === "E" && r.unit === null)!;
  const odd = (inside.houseLow! % 2 === 1 ? inside.houseLow! : inside.houseLow! + 1) + 2;
  const even = (outside.houseLow! % 2 === 0 ? outside.houseLow! : outside.houseLow! + 1) + 2;
  const address = (house: number) => `${[house, inside.preDirectional, inside.streetName, inside.suffix].filter(Boolean).join(" ")}, Westerville, OH ${inside.zip5}`;

  it("19.99 inside COTA's district: state 1.149425 → 1.15, county 0.249875 → 0.25, COTA 0.199900 → 0.20, tax 1.60; the answer cites the boundary file's version and record", async () => {
    const { res, body } = await tax({ date: DATE, ship_to: { address: address(odd) }, lines: [{ id: "a", unit_price: "19.99" }] });
    expect(res.status).toBe(200);
    expect(body.location).toMatchObject({ county: "Delaware", fips: "39041", transit_district: { authority: "COTA", status: "inside" }, resolved_by: "address_range" });
    expect(body.location.boundary_record).toMatchObject({ version: BOUNDARIES.version, line: inside.line, transit_code: "96000" });
    expect(body.jurisdictions.map((j: any) => [j.name, j.rate, j.unrounded, j.tax])).toEqual([
      ["Ohio", "0.0575", "1.149425", "1.15"],
      ["Delaware County", "0.0125", "0.249875", "0.25"],
      ["COTA", "0.0100", "0.199900", "0.20"],
    ]);
    expect(body.totals.tax).toBe("1.60");
    expect(body.computed_from.boundary_version).toBe(BOUNDARIES.version);
  });

  it("the even side of that block, outside the district: no transit tax, 1.40", async () => {
    const { body } = await tax({ date: DATE, ship_to: { address: address(even) }, lines: [{ id: "a", unit_price: "19.99" }] });
    expect(body.location.transit_district).toEqual({ authority: "COTA", status: "outside" });
    expect(amounts(body)).toEqual({ state: "1.15", county: "0.25", transit: "0.00" });
    expect(body.totals.tax).toBe("1.40");
  });

  it("Delaware County without an address is not settled: the inside and outside rates are the candidates, and no tax", async () => {
    const { res, body } = await tax({ date: DATE, ship_to: { county: "Delaware" }, lines: [{ id: "a", unit_price: "19.99" }] });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ settled: false, candidates: [{ transit_district: "inside", combined_rate: "0.0800" }, { transit_district: "outside", combined_rate: "0.0700" }] });
    expect(body.totals).toBeUndefined();
  });
});

describe("POST /api/v1/tax: a split ZIP without an address answers its candidates and no tax", () => {
  it("45101 spans Adams and Brown: settled false, both counties listed", async () => {
    const { res, body } = await tax({ date: DATE, ship_to: { zip: "45101" }, lines: [{ id: "a", unit_price: "10.00" }] });
    expect(res.status).toBe(200);
    expect(body.settled).toBe(false);
    expect(body.candidates.map((c: any) => c.county).sort()).toEqual(["Adams", "Brown"]);
  });

  it("a place that cannot be resolved is a problem naming the field, never a guessed amount", async () => {
    const { res, body } = await tax({ date: DATE, ship_to: { county: "Atlantis" }, lines: [{ id: "a", unit_price: "10.00" }] });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(body.type).toMatch(/county-not-found$/);
    expect(body.invalid_params[0].name).toBe("ship_to.county");
  });
});

describe("POST /api/v1/tax: an exemption certificate on file, valid on the sale's date, exempts the sale and is named", () => {
  it("a certificate expiring after the sale exempts every line; the answer names it; the tax is 0.00", async () => {
    const cert = (await call(api, "POST", "/api/v1/certificates", { key, body: { customer_id: "cust-school", customer_name: "Adams School", exempt_reason: "government", expires_on: "2026-12-31" } })).body.certificate;
    const { body } = await tax(adams([{ id: "a", unit_price: "100.00" }], { customer_id: "cust-school", shipping: "10.00" }));
    expect(body.exemption).toEqual({ certificate_id: cert.id, customer_id: "cust-school", exempt_reason: "government", expires_on: "2026-12-31" });
    expect(body.lines[0].exempt_reason).toContain(cert.id);
    expect(body.totals).toMatchObject({ gross: "110.00", exempt: "110.00", taxable: "0.00", tax: "0.00" });
  });

  it("a certificate that expired the day before the sale does not: 100.00 is taxed 5.75 + 1.50 = 7.25; one expiring on the sale's day still exempts", async () => {
    await call(api, "POST", "/api/v1/certificates", { key, body: { customer_id: "cust-lapsed", customer_name: "Lapsed Co", exempt_reason: "resale", expires_on: "2026-05-31" } });
    const lapsed = await tax(adams([{ id: "a", unit_price: "100.00" }], { customer_id: "cust-lapsed" }));
    expect(lapsed.body.exemption).toBeNull();
    expect(amounts(lapsed.body)).toEqual({ state: "5.75", county: "1.50", transit: "0.00" });
    expect(lapsed.body.totals.tax).toBe("7.25");
    await call(api, "POST", "/api/v1/certificates", { key, body: { customer_id: "cust-today", customer_name: "Last Day Co", exempt_reason: "resale", expires_on: DATE } });
    expect((await tax(adams([{ id: "a", unit_price: "100.00" }], { customer_id: "cust-today" }))).body.totals.tax).toBe("0.00");
  });

  it("a line's product category the Revised Code exempts is exempt, citing its statute", async () => {
    const { body } = await tax(adams([{ id: "milk", unit_price: "3.00", category: "food-for-home-consumption" }, { id: "pan", unit_price: "20.00", category: "general-merchandise" }]));
    expect(body.lines[0]).toMatchObject({ exempt: "3.00", taxable: "0.00", exempt_reason: expect.stringContaining("5739.02(B)(2)") });
    expect(body.totals).toMatchObject({ gross: "23.00", exempt: "3.00", taxable: "20.00", tax: "1.45" });
  });
});

describe("sourcing by R.C. 5739.033 with the organization's locations", () => {
  it("a pickup is taxed where it is picked up; an order received at an Ohio location is taxed there (origin); otherwise at ship_to", async () => {
    const created = await call(api, "POST", "/api/v1/locations", { key, body: { name: "Cincinnati store", place: { county: "Hamilton" } } });
    expect(created.res.status).toBe(201);
    const store = created.body.location.id;
    expect((await call(api, "GET", "/api/v1/locations", { key })).body.locations.map((l: any) => l.id)).toContain(store);
    const line = [{ id: "a", unit_price: "100.00" }];
    const pickup = await tax({ date: DATE, pickup_location_id: store, lines: line });
    expect(pickup.body.sourcing).toMatchObject({ rule: "pickup", statute: "R.C. 5739.033(C)(1)", location_id: store });
    expect(pickup.body.location.county).toBe("Hamilton");
    // Hamilton: 5.75 + 1.25 + SORTA 0.80 = 7.80.
    expect(pickup.body.totals.tax).toBe("7.80");
    const origin = await tax({ date: DATE, order_location_id: store, ship_to: { county: "Adams" }, lines: line });
    expect(origin.body.sourcing).toMatchObject({ rule: "origin", statute: "R.C. 5739.033(B)(1)" });
    expect(origin.body.location.county).toBe("Hamilton");
    const destination = await tax({ date: DATE, ship_to: { county: "Adams" }, lines: line });
    expect(destination.body.sourcing).toMatchObject({ rule: "destination", statute: "R.C. 5739.033(C)(2)", location_id: null });
    expect(destination.body.totals.tax).toBe("7.25");
  });

  it("a location must settle one county: a split ZIP is refused, naming the field", async () => {
    const { res, body } = await call(api, "POST", "/api/v1/locations", { key, body: { name: "Somewhere", place: { zip: "45101" } } });
    expect(res.status).toBe(422);
    expect(body.invalid_params[0].name).toBe("place");
  });
});

describe("bad input: a problem+json naming the field, and nothing recorded", () => {
  const good = { order_id: "bad-1", ...adams([{ id: "a", unit_price: "1.00" }]) };
  const cases: Array<[string, Record<string, unknown>, number, string]> = [
    ["a negative quantity", { lines: [{ id: "a", unit_price: "1.00", quantity: -1 }] }, 422, "lines.0.quantity"],
    ["a price with three decimals", { lines: [{ id: "a", unit_price: "1.005" }] }, 422, "lines.0.unit_price"],
    ["a price sent as a number", { lines: [{ id: "a", unit_price: 1.5 }] }, 422, "lines.0.unit_price"],
    ["an unknown product category", { lines: [{ id: "a", unit_price: "1.00", category: "spaceships" }] }, 422, "lines.0.category"],
    ["a currency other than USD", { currency: "EUR" }, 422, "currency"],
    ["more than 1,000 lines", { lines: Array.from({ length: 1001 }, (_, i) => ({ id: `l${i}`, unit_price: "1.00" })) }, 422, "lines"],
    ["a date before the data starts", { date: "2017-12-31" }, 422, "date"],
    ["a pickup location the organization does not have", { pickup_location_id: "loc_nope" }, 422, "pickup_location_id"],
    ["no place at all", { ship_to: undefined }, 422, "ship_to"],
  ];
  for (const [what, change, status, field] of cases) {
    it(`${what}: ${status}, invalid_params names ${field}, on POST /tax and POST /transactions alike`, async () => {
      const before = await ledgerRows(orgId);
      for (const [path, body] of [["/api/v1/tax", { ...good, order_id: undefined, ...change }], ["/api/v1/transactions", { ...good, ...change }]] as const) {
        const { res, body: problem } = await call(api, "POST", path, { key, body });
        expect(res.status, path).toBe(status);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(problem.invalid_params.map((p: any) => p.name), path).toContain(field);
      }
      expect(await ledgerRows(orgId)).toBe(before);
    });
  }
});

describe("POST /api/v1/transactions: recorded once under the merchant's order id", () => {
  it("the same order id and body answer the same transaction (201 then 200); another body is a 409; nothing more is recorded", async () => {
    const body = { order_id: "order-1001", ...adams([{ id: "a", unit_price: "100.00" }]) };
    const first = await call(api, "POST", "/api/v1/transactions", { key, body });
    expect(first.res.status).toBe(201);
    expect(first.body.transaction).toMatchObject({ kind: "sale", reference: "order-1001", ledger: "live", date: DATE, county_fips: "39001", amounts: { gross: "100.00", tax: "7.25", state_tax: "5.75", county_tax: "1.50", transit_tax: "0.00" } });
    const again = await call(api, "POST", "/api/v1/transactions", { key, body: { ...body, lines: [{ unit_price: "100.00", id: "a" }] } });
    expect(again.res.status).toBe(200);
    expect(again.body.transaction.id).toBe(first.body.transaction.id);
    const other = await call(api, "POST", "/api/v1/transactions", { key, body: { ...body, lines: [{ id: "a", unit_price: "99.00" }] } });
    expect(other.res.status).toBe(409);
    expect(other.body.type).toMatch(/transaction-conflict$/);
    expect((await call(api, "GET", `/api/v1/transactions/${first.body.transaction.id}`, { key })).body.transaction.amounts.tax).toBe("7.25");
  });

  it("ten requests with one order id at the same moment record one transaction, and all answer it", async () => {
    const { key: own, orgId: ownOrg } = await newOrganization("Race Shop");
    const body = { order_id: "order-race", ...adams([{ id: "a", unit_price: "5.00" }]) };
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(api, "POST", "/api/v1/transactions", { key: own, body })));
    expect(answers.map((a) => a.res.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.transaction.id)).size).toBe(1);
    expect(await ledgerRows(ownOrg)).toBe(1);
  });

  it("a split ZIP cannot be recorded: 422 location-not-settled, nothing recorded", async () => {
    const before = await ledgerRows(orgId);
    const { res, body } = await call(api, "POST", "/api/v1/transactions", { key, body: { order_id: "split-1", date: DATE, ship_to: { zip: "45101" }, lines: [{ id: "a", unit_price: "1.00" }] } });
    expect(res.status).toBe(422);
    expect(body.type).toMatch(/location-not-settled$/);
    expect(await ledgerRows(orgId)).toBe(before);
  });

  it("test keys record into the test ledger and live keys into the live one: neither sees the other's", async () => {
    const body = { order_id: "order-sandbox", ...adams([{ id: "a", unit_price: "1.00" }]) };
    const recorded = await call(api, "POST", "/api/v1/transactions", { key: testKey, body });
    expect(recorded.body.transaction.ledger).toBe("test");
    expect((await call(api, "GET", `/api/v1/transactions/${recorded.body.transaction.id}`, { key })).res.status).toBe(404);
    expect((await call(api, "GET", `/api/v1/transactions/${recorded.body.transaction.id}`, { key: testKey })).res.status).toBe(200);
    // The same order id in the live ledger is another sale, not a conflict.
    expect((await call(api, "POST", "/api/v1/transactions", { key, body: { ...body, lines: [{ id: "a", unit_price: "2.00" }] } })).res.status).toBe(201);
    const live = (await call(api, "GET", "/api/v1/transactions?limit=200", { key })).body.transactions;
    expect(live.every((t: any) => t.ledger === "live")).toBe(true);
  });
});

describe("refunds and voids: their own records, negative, dated on their own day, in the sale's county", () => {
  it("a refund in a later month reduces that month's figures for the county, as a return sums them", async () => {
    const { key: own, orgId: ownOrg } = await newOrganization("Refund Shop");
    const sale = (await call(api, "POST", "/api/v1/transactions", { key: own, body: { order_id: "o-june", ...adams([{ id: "a", unit_price: "100.00" }]) } })).body.transaction;
    const refund = await call(api, "POST", `/api/v1/transactions/${sale.id}/refunds`, { key: own, body: { refund_id: "r-july", date: "2026-07-15", lines: [{ id: "a", amount: "40.00" }] } });
    expect(refund.res.status).toBe(201);
    // 40.00 × 5.75 % = 2.300000 → 2.30; 40.00 × 1.5 % = 0.600000 → 0.60.
    expect(refund.body.transaction).toMatchObject({ kind: "refund", sale_id: sale.id, date: "2026-07-15", county_fips: "39001", amounts: { gross: "-40.00", taxable: "-40.00", tax: "-2.90", state_tax: "-2.30", county_tax: "-0.60" } });
    // The return's plain sums by county over each month's dates.
    const months = await api.service.store.db
      .selectFrom("tax_transactions")
      .select([sql<string>`substr(transaction_date, 1, 7)`.as("month"), "county_fips", (eb) => eb.fn.sum<string>("gross_cents").as("gross"), (eb) => eb.fn.sum<string>("tax_cents").as("tax")])
      .where("organization_id", "=", ownOrg)
      .groupBy([sql`substr(transaction_date, 1, 7)`, "county_fips"])
      .orderBy("month")
      .execute();
    expect(months.map((m) => [m.month, m.county_fips, Number(m.gross), Number(m.tax)])).toEqual([["2026-06", "39001", 10000, 725], ["2026-07", "39001", -4000, -290]]);
  });

  it("a refund larger than what is left is refused, naming the field; the rest refunded brings the sale to exactly zero; then a void has nothing left", async () => {
    const { key: own } = await newOrganization("Exact Shop");
    const sale = (await call(api, "POST", "/api/v1/transactions", { key: own, body: { order_id: "o-1", ...adams([{ id: "a", unit_price: "0.10" }, { id: "b", unit_price: "0.10" }]) } })).body.transaction;
    expect(sale.amounts.tax).toBe("0.01");
    const first = await call(api, "POST", `/api/v1/transactions/${sale.id}/refunds`, { key: own, body: { refund_id: "r-1", date: DATE, lines: [{ id: "a", amount: "0.10" }] } });
    expect(first.body.transaction.amounts.tax).toBe("-0.01");
    const tooMuch = await call(api, "POST", `/api/v1/transactions/${sale.id}/refunds`, { key: own, body: { refund_id: "r-2", date: DATE, lines: [{ id: "a", amount: "0.01" }] } });
    expect(tooMuch.res.status).toBe(422);
    expect(tooMuch.body.type).toMatch(/refund-exceeds-sale$/);
    expect(tooMuch.body.invalid_params[0].name).toBe("lines[0].amount");
    const rest = await call(api, "POST", `/api/v1/transactions/${sale.id}/refunds`, { key: own, body: { refund_id: "r-3", date: DATE, lines: [{ id: "b", amount: "0.10" }] } });
    // The first refund already took back the one cent collected: nothing of the tax is left to take.
    expect(rest.body.transaction.amounts).toMatchObject({ gross: "-0.10", tax: "0.00" });
    const voided = await call(api, "POST", `/api/v1/transactions/${sale.id}/void`, { key: own, body: { date: DATE } });
    expect(voided.res.status).toBe(422);
  });

  it("a refund dated before its sale is refused, naming date; nothing is recorded", async () => {
    const { key: own, orgId: ownOrg } = await newOrganization("Early Refund");
    const sale = (await call(api, "POST", "/api/v1/transactions", { key: own, body: { order_id: "o-1", ...adams([{ id: "a", unit_price: "10.00" }]) } })).body.transaction;
    const early = await call(api, "POST", `/api/v1/transactions/${sale.id}/refunds`, { key: own, body: { refund_id: "r-early", date: "2026-05-31", lines: [{ id: "a", amount: "1.00" }] } });
    expect(early.res.status).toBe(422);
    expect(early.body.type).toMatch(/invalid-refund$/);
    expect(early.body.invalid_params).toEqual([{ name: "date", reason: "must be 2026-06-01 or later" }]);
    expect(await ledgerRows(ownOrg)).toBe(1);
  });

  it("two refunds at once that together pass the sale: one is recorded, the other refused", async () => {
    const { key: own } = await newOrganization("Twin Refunds");
    const sale = (await call(api, "POST", "/api/v1/transactions", { key: own, body: { order_id: "o-1", ...adams([{ id: "a", unit_price: "10.00" }]) } })).body.transaction;
    const both = await Promise.all(
      ["r-a", "r-b"].map((id) => call(api, "POST", `/api/v1/transactions/${sale.id}/refunds`, { key: own, body: { refund_id: id, date: DATE, lines: [{ id: "a", amount: "6.00" }] } })),
    );
    expect(both.map((b) => b.res.status).sort()).toEqual([201, 422]);
  });

  it("a void takes back everything left of the sale on its own date, once", async () => {
    const { key: own } = await newOrganization("Void Shop");
    const sale = (await call(api, "POST", "/api/v1/transactions", { key: own, body: { order_id: "o-1", ...adams([{ id: "a", unit_price: "19.99" }], { shipping: "5.00" }) } })).body.transaction;
    const voided = await call(api, "POST", `/api/v1/transactions/${sale.id}/void`, { key: own, body: { date: "2026-08-02" } });
    expect(voided.res.status).toBe(201);
    expect(voided.body.transaction).toMatchObject({ kind: "void", date: "2026-08-02", amounts: { gross: `-${sale.amounts.gross}`, tax: `-${sale.amounts.tax}` } });
    expect((await call(api, "POST", `/api/v1/transactions/${sale.id}/void`, { key: own, body: { date: "2026-08-02" } })).res.status).toBe(200);
    expect((await call(api, "POST", `/api/v1/transactions/${sale.id}/refunds`, { key: own, body: { refund_id: "late", date: "2026-08-03", lines: [{ id: "a", amount: "1.00" }] } })).res.status).toBe(422);
  });
});

describe("GET /api/v1/transactions: by date range, a page at a time", () => {
  it("from and to bound the dates; next_cursor walks every record once", async () => {
    const { key: own } = await newOrganization("List Shop");
    for (let day = 1; day <= 7; day++) {
      await call(api, "POST", "/api/v1/transactions", { key: own, body: { order_id: `o-${day}`, ...adams([{ id: "a", unit_price: "1.00" }], { date: `2026-06-0${day}` }) } });
    }
    const seen: string[] = [];
    let path = "/api/v1/transactions?from=2026-06-02&to=2026-06-06&limit=2";
    for (let page = 0; page < 5; page++) {
      const { body } = await call(api, "GET", path, { key: own });
      seen.push(...body.transactions.map((t: any) => t.date));
      if (body.next_cursor === null) break;
      path = `/api/v1/transactions?from=2026-06-02&to=2026-06-06&limit=2&cursor=${encodeURIComponent(body.next_cursor)}`;
    }
    expect(seen).toEqual(["2026-06-02", "2026-06-03", "2026-06-04", "2026-06-05", "2026-06-06"]);
  });
});

describe("GET /api/v1/transactions/{id}/replay: the record computed again, from what it cites and from today's data", () => {
  it("matches its record; after a reconciliation changes the county's rate, today's data gives another amount and says where", async () => {
    const { key: own } = await newOrganization("Replay Shop");
    const sale = (await call(api, "POST", "/api/v1/transactions", { key: own, body: { order_id: "o-1", date: "2026-09-10", ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "100.00" }] } })).body.transaction;
    const before = (await call(api, "GET", `/api/v1/transactions/${sale.id}/replay`, { key: own })).body;
    expect(before).toMatchObject({ transaction_id: sale.id, as_recorded: { matches_record: true, amounts: { tax: "7.25" } }, today: { amounts: { tax: "7.25" } }, differs: false, differences: [] });

    const db = api.service.store.db;
    const at = api.clock.now().toISOString();
    const run = await insertReconciliation(db, { status: "succeeded", source: "test", file_name: "SYNTHETIC-rate-change", reconciled_on: at.slice(0, 10), rows: 1, periods_recorded: 1, events_emitted: 0, discrepancies: "[]", error: null, started_at: at, finished_at: at });
    await upsertRecordedPeriod(db, { fips: "39001", component: "county", authority: "Adams County", rate_millionths: 17_500, effective_from: "2026-09-01", effective_to: null, announced_on: "2026-08-01", source: "test: a SYNTHETIC correction", reconciliation_id: run.id, recorded_at: at });
    await api.service.rates.refresh();

    const after = (await call(api, "GET", `/api/v1/transactions/${sale.id}/replay`, { key: own })).body;
    expect(after.as_recorded).toMatchObject({ matches_record: true, amounts: { tax: "7.25", county_tax: "1.50" } });
    expect(after.today.amounts).toMatchObject({ tax: "7.50", county_tax: "1.75" });
    expect(after.today.computed_from.rate_data_version).toContain(run.id);
    expect(after.differs).toBe(true);
    expect(after.differences).toEqual(
      expect.arrayContaining([
        { field: "amounts.tax", recorded: "7.25", today: "7.50" },
        { field: "rates", recorded: "0.0575 + 0.0150 + 0.0000", today: "0.0575 + 0.0175 + 0.0000" },
      ]),
    );
    // The record itself is unchanged.
    expect((await call(api, "GET", `/api/v1/transactions/${sale.id}`, { key: own })).body.transaction.amounts.tax).toBe("7.25");
  });
});
