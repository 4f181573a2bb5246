/**
 * Batches of orders (POST /api/v1/tax/batches), end to end: real HTTP requests through the app, real
 * batch-lane worker threads, a real store (SQLite, or PostgreSQL with TEST_DATABASE_URL), and a FAKE
 * UPSTREAM Census geocoder (test/fake-census-geocoder.ts) for the address rows. Every expected answer
 * is what POST /api/v1/tax (or POST /api/v1/transactions) answers for the same sale in the same run,
 * never a figure written here. The files are SYNTHETIC, written by these tests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { call } from "./_api.ts";
import { oneLine } from "./fake-census-geocoder.ts";
import { startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";
import { parse } from "csv-parse/sync";

const DATE = "2026-06-01";
let api: GeocodedTestService;

beforeAll(async () => {
  // Three sales a chunk, so every file here spans chunks, and a group holds several.
  api = await startTestServiceWithFakeGeocoder({ BATCH_CHUNK_ROWS: "3", BATCH_POLL_MS: "20" });
}, 60_000);

afterAll(async () => {
  await api?.close();
});

async function newOrganization(name: string) {
  const org = await createOrganization(api.service.store.db, name);
  return { orgId: org.id, live: (await createKey(api.service.store.db, org.id, name, "live")).key, test: (await createKey(api.service.store.db, org.id, `${name} test`, "test")).key };
}

async function upload(key: string, body: string, type: string, query = ""): Promise<{ status: number; body: any }> {
  const res = await api.service.app.fetch(new Request(`http://buckeye.test/api/v1/tax/batches${query}`, { method: "POST", body, headers: { authorization: `Bearer ${key}`, "content-type": type } }));
  return { status: res.status, body: await res.json() };
}

/** The job's results once it completed (a wait, not a timed assertion), as NDJSON lines or CSV records. */
async function results(key: string, location: string, format: "ndjson" | "csv" = "ndjson"): Promise<any[]> {
  for (;;) {
    const job = (await call(api, "GET", location, { key })).body;
    if (job.status === "completed") break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const res = await api.service.app.fetch(new Request(`http://buckeye.test${location}/results?format=${format}`, { headers: { authorization: `Bearer ${key}` } }));
  expect(res.status).toBe(200);
  const text = await res.text();
  return format === "csv" ? parse(text, { columns: true }) : text.trim().split("\n").map((line) => JSON.parse(line));
}

const ndjson = (rows: unknown[]) => rows.map((row) => (typeof row === "string" ? row : JSON.stringify(row))).join("\n") + "\n";
/** Dollars as exact cents: "-0.60" is -60n. */
const cents = (amount: string) => BigInt(amount.replace(".", ""));
const withoutRequestId = (body: any) => {
  const { request_id: _requestId, ...rest } = body;
  return rest;
};

/** What POST /api/v1/tax answers for this sale now: status and body, its request id left out. */
async function single(key: string, sale: Record<string, unknown>) {
  const { order_id: _orderId, ...body } = sale;
  const answer = await call(api, "POST", "/api/v1/tax", { key, body });
  return { status: answer.res.status, body: withoutRequestId(answer.body) };
}

async function ledgerCount(orgId: string, env: string): Promise<number> {
  const row = await api.service.store.db
    .selectFrom("tax_transactions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("organization_id", "=", orgId)
    .where("env", "=", env)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("POST /api/v1/tax/batches: an NDJSON batch of mixed sales, calculated", () => {
  const sales: Array<Record<string, unknown>> = [
    { order_id: "n1", date: DATE, ship_to: { county: "Adams" }, lines: [{ id: "a", quantity: 3, unit_price: "9.99", discount: "1.00" }, { id: "b", amount: "0.63" }], shipping: "5.00" },
    { order_id: "n2", date: DATE, ship_to: { address: oneLine("statehouse") }, lines: [{ id: "a", unit_price: "100.00" }] },
    { order_id: "n3", date: DATE, ship_to: { zip: "43402" }, lines: [{ id: "a", unit_price: "20.00", category: "food-for-home-consumption" }, { id: "b", unit_price: "20.00" }] },
    { order_id: "n4", date: DATE, ship_to: { county: "Delaware" }, lines: [{ id: "a", unit_price: "19.99" }] },
    { order_id: "n5", date: DATE, ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "1.999" }] },
    { order_id: "n6", date: DATE, currency: "EUR", ship_to: { county: "Hamilton" }, lines: [{ id: "a", unit_price: "1.00" }] },
    { order_id: "n7", date: "2017-12-31", ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "1.00" }] },
    { order_id: "n8", date: DATE, pickup_location_id: "loc_nowhere", lines: [{ id: "a", unit_price: "1.00" }] },
    { order_id: "n9", date: DATE, ship_to: { county: "Franklin" }, lines: [{ id: "a", unit_price: "12.34", exempt: true }, { id: "b", quantity: 2, unit_price: "45.67" }], handling: "2.50" },
  ];
  let key: string;
  let location: string;
  let lines: any[];

  beforeAll(async () => {
    ({ live: key } = await newOrganization("NDJSON Shop"));
    const file = ndjson([...sales.slice(0, 4), "{not json", ...sales.slice(4)]);
    const accepted = await upload(key, file, "application/x-ndjson");
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: "orders", ledger: null, format: "ndjson", total: 10 });
    location = accepted.body.links.self;
    lines = await results(key, location);
  }, 60_000);

  it("has one result per sale, in the upload's order, each named by its order_id", () => {
    expect(lines.map((line) => [line.row, line.id])).toEqual([[1, "n1"], [2, "n2"], [3, "n3"], [4, "n4"], [5, null], [6, "n5"], [7, "n6"], [8, "n7"], [9, "n8"], [10, "n9"]]);
  });

  it("each sale's result is the status and body POST /api/v1/tax answers for it: the tax, the candidates of a place not settled, or the problem naming the field", async () => {
    const rows = lines.filter((line) => line.id !== null);
    for (const [i, sale] of sales.entries()) {
      const expected = await single(key, sale);
      expect({ id: rows[i].id, status: rows[i].status, body: withoutRequestId(rows[i].body) }).toEqual({ id: sale["order_id"], ...expected });
    }
  });

  it("bad rows fail alone, each naming its field, while the rest succeed", () => {
    const failed = lines.filter((line) => line.status >= 400).map((line) => [line.id, line.status, line.body.type.split("/").pop(), line.body.invalid_params?.map((p: any) => p.name)]);
    expect(failed).toEqual([
      [null, 422, "invalid-sale", ["body"]],
      ["n5", 422, "invalid-sale", ["lines.0.unit_price"]],
      ["n6", 422, "invalid-sale", ["currency"]],
      ["n7", 422, "date-out-of-range", ["date"]],
      ["n8", 422, "invalid-sale", ["pickup_location_id"]],
    ]);
    expect(lines.filter((line) => line.status === 200)).toHaveLength(5);
  });

  it("amounts are decimal strings with two places, never numbers", () => {
    const settled = lines.filter((line) => line.status === 200 && line.body.settled);
    expect(settled.length).toBeGreaterThan(0);
    for (const line of settled) for (const value of Object.values(line.body.totals)) expect(value).toMatch(/^\d+\.\d{2,8}$/);
  });

  it("the job says how many sales failed", async () => {
    expect((await call(api, "GET", location, { key })).body).toMatchObject({ kind: "orders", status: "completed", total: 10, done: 10, failed: 5 });
  });
});

describe("POST /api/v1/tax/batches: a CSV of line items, grouped into sales by order_id", () => {
  const HEADER = "order_id,date,ship_to_county,ship_to_zip,line_id,quantity,unit_price,amount,discount,exempt,category,shipping";
  const CSV = [
    HEADER,
    "c1,2026-06-01,Adams,,a,3,9.99,,1.00,,,5.00",
    "c1,,,,b,,,0.63,,,,",
    "c2,2026-06-01,,43402,x,,20.00,,,,food-for-home-consumption,",
    "c2,2026-06-01,,43402,y,,20.00,,,true,,",
    "c3,2026-06-01,Adams,,a,1,1.999,,,,,",
    "c4,2026-06-01,Adams,,a,1,5.00,,,,,",
    "c4,2026-06-01,Hamilton,,b,1,5.00,,,,,",
    "c1,2026-06-01,Adams,,c,1,1.00,,,,,",
    "c5,2026-06-01,Franklin,,,2,45.67,,,,,",
  ].join("\n");
  /** The sales the rows above mean, by the layout docs/guides/tax-and-returns.md gives. */
  const MEANT: Record<string, Record<string, unknown>> = {
    c1: { date: DATE, ship_to: { county: "Adams" }, shipping: "5.00", lines: [{ id: "a", quantity: 3, unit_price: "9.99", discount: "1.00" }, { id: "b", amount: "0.63" }] },
    c2: { date: DATE, ship_to: { zip: "43402" }, lines: [{ id: "x", unit_price: "20.00", category: "food-for-home-consumption" }, { id: "y", unit_price: "20.00", exempt: true }] },
    c3: { date: DATE, ship_to: { county: "Adams" }, lines: [{ id: "a", quantity: 1, unit_price: "1.999" }] },
    c5: { date: DATE, ship_to: { county: "Franklin" }, lines: [{ id: "1", quantity: 2, unit_price: "45.67" }] },
  };
  let key: string;
  let rows: any[];
  let records: any[];

  beforeAll(async () => {
    ({ live: key } = await newOrganization("CSV Shop"));
    const accepted = await upload(key, CSV, "text/csv");
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: "orders", format: "csv", total: 6 });
    rows = await results(key, accepted.body.links.self);
    records = await results(key, accepted.body.links.self, "csv");
  }, 60_000);

  it("each order's answer is POST /api/v1/tax's for the sale its rows make, and a row without line_id is the order's nth line", async () => {
    for (const id of ["c1", "c2", "c3", "c5"]) {
      const row = rows.find((r) => r.id === id);
      expect({ status: row.status, body: withoutRequestId(row.body) }).toEqual(await single(key, MEANT[id]!));
    }
  });

  it("an order whose rows disagree on an order field, and an order_id whose rows are apart, fail alone naming the field", () => {
    expect(rows.map((r) => [r.row, r.id, r.status, r.body.invalid_params?.map((p: any) => p.name) ?? null])).toEqual([
      [1, "c1", 200, null],
      [2, "c2", 200, null],
      [3, "c3", 422, ["lines.0.unit_price"]],
      [4, "c4", 422, ["ship_to.county"]],
      [5, "c1", 422, ["order_id"]],
      [6, "c5", 200, null],
    ]);
  });

  it("the CSV results carry each order's figures as the NDJSON answers do, and the failed rows' problem fields", () => {
    const c1 = rows[0].body;
    expect(records[0]).toMatchObject({ row: "1", order_id: "c1", status: "200", settled: "true", fips: "39001", gross: c1.totals.gross, tax: c1.totals.tax, state_tax: c1.jurisdictions[0].tax });
    expect(records[3]).toMatchObject({ order_id: "c4", status: "422", problem_fields: "ship_to.county" });
  });

  it("a CSV with a column an order is not read from is refused whole, naming it, and nothing is stored", async () => {
    const refused = await upload(key, `${HEADER},gift_wrap\nz1,2026-06-01,Adams,,a,1,1.00,,,,,,yes\n`, "text/csv");
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('"gift_wrap"');
  });
});

describe("POST /api/v1/tax/batches?record=true: each sale recorded as POST /api/v1/transactions records it", () => {
  let org: Awaited<ReturnType<typeof newOrganization>>;
  const sales = [
    { order_id: "r1", date: DATE, ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "100.00" }] },
    { order_id: "r2", date: DATE, ship_to: { county: "Hamilton" }, lines: [{ id: "a", unit_price: "50.00" }], shipping: "4.99" },
    { order_id: "r3", date: "2026-06-15", ship_to: { address: oneLine("statehouse") }, lines: [{ id: "a", unit_price: "19.99" }] },
    { date: DATE, ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "1.00" }] },
    { order_id: "r4", date: DATE, ship_to: { county: "Delaware" }, lines: [{ id: "a", unit_price: "19.99" }] },
  ];
  let first: any[];
  let again: any[];

  beforeAll(async () => {
    org = await newOrganization("Recording Shop");
    const accepted = await upload(org.test, ndjson(sales), "application/x-ndjson", "?record=true");
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: "orders", ledger: "test" });
    first = await results(org.test, accepted.body.links.self);
    const reupload = await upload(org.test, ndjson(sales), "application/x-ndjson", "?record=true");
    again = await results(org.test, reupload.body.links.self);
  }, 60_000);

  it("a test key's batch records into the test ledger only: each sale 201 with its transaction, the live ledger untouched", async () => {
    expect(first.map((line) => [line.id, line.status, line.body.transaction?.ledger ?? line.body.type.split("/").pop()])).toEqual([
      ["r1", 201, "test"],
      ["r2", 201, "test"],
      ["r3", 201, "test"],
      [null, 422, "invalid-sale"],
      ["r4", 422, "location-not-settled"],
    ]);
    expect(first[3].body.invalid_params.map((p: any) => p.name)).toEqual(["order_id"]);
    expect([await ledgerCount(org.orgId, "test"), await ledgerCount(org.orgId, "live")]).toEqual([3, 0]);
  });

  it("each recorded sale carries POST /api/v1/tax's answer for it, and POST /api/v1/transactions with the same body answers the same transaction", async () => {
    for (const line of first.filter((l) => l.status === 201)) {
      const sale = sales.find((s) => s.order_id === line.id)!;
      expect(withoutRequestId(line.body.transaction.calculation.answer)).toEqual((await single(org.test, sale)).body);
      const direct = await call(api, "POST", "/api/v1/transactions", { key: org.test, body: sale });
      expect([direct.res.status, direct.body.transaction.id]).toEqual([200, line.body.transaction.id]);
    }
  });

  it("a re-upload of the same file records nothing twice: each sale answers 200 with the transaction already recorded", async () => {
    expect(again.map((line) => [line.id, line.status, line.body.transaction?.id ?? null])).toEqual(first.map((line) => [line.id, line.status === 201 ? 200 : line.status, line.body.transaction?.id ?? null]));
    expect(await ledgerCount(org.orgId, "test")).toBe(3);
  });

  it("an order_id already recorded with another body is that row's 409 transaction-conflict; the file's other sales are recorded", async () => {
    const changed = [{ ...sales[0], lines: [{ id: "a", unit_price: "100.01" }] }, { order_id: "r5", date: DATE, ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "3.00" }] }];
    const accepted = await upload(org.test, ndjson(changed), "application/x-ndjson", "?record=true");
    const lines = await results(org.test, accepted.body.links.self);
    expect(lines.map((line) => [line.id, line.status, line.body.type?.split("/").pop() ?? line.body.transaction.reference])).toEqual([
      ["r1", 409, "transaction-conflict"],
      ["r5", 201, "r5"],
    ]);
    expect(await ledgerCount(org.orgId, "test")).toBe(4);
  });

  it("an order_id twice in one file: the first records it, the same body again answers 200 with that transaction, another body is 409", async () => {
    const twice = { order_id: "r6", date: DATE, ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "6.00" }] };
    const accepted = await upload(org.test, ndjson([twice, twice, { ...twice, lines: [{ id: "a", unit_price: "6.01" }] }]), "application/x-ndjson", "?record=true");
    const lines = await results(org.test, accepted.body.links.self);
    expect(lines.map((line) => [line.id, line.status, line.body.type?.split("/").pop() ?? line.body.transaction.reference])).toEqual([
      ["r6", 201, "r6"],
      ["r6", 200, "r6"],
      ["r6", 409, "transaction-conflict"],
    ]);
    expect(lines[1].body.transaction.id).toBe(lines[0].body.transaction.id);
    expect(await ledgerCount(org.orgId, "test")).toBe(5);
  });

  it("a live key's batch records into the live ledger, where the test ledger's order ids are not taken", async () => {
    const accepted = await upload(org.live, ndjson([sales[0]]), "application/x-ndjson", "?record=true");
    expect(accepted.body.ledger).toBe("live");
    const [line] = await results(org.live, accepted.body.links.self);
    expect([line.status, line.body.transaction.ledger]).toEqual([201, "live"]);
    expect([await ledgerCount(org.orgId, "test"), await ledgerCount(org.orgId, "live")]).toEqual([5, 1]);
  });

  it("the return for the period includes the batch's recorded sales, county by county", async () => {
    const recorded = [...first, ...again].filter((line) => line.status === 201).map((line) => line.body.transaction);
    const worksheet = (await call(api, "GET", "/api/v1/returns/2026-06", { key: org.test })).body;
    const byCounty = new Map<string, { records: number; tax: bigint }>();
    for (const t of [...recorded, ...(await call(api, "GET", "/api/v1/transactions?from=2026-06-01&to=2026-06-30", { key: org.test })).body.transactions.filter((x: any) => x.reference === "r5" || x.reference === "r6")]) {
      const sum = byCounty.get(t.county_fips) ?? { records: 0, tax: 0n };
      byCounty.set(t.county_fips, { records: sum.records + 1, tax: sum.tax + cents(t.amounts.tax) });
    }
    const lines = new Map<string, { records: number; tax: bigint }>();
    for (const line of worksheet.counties) {
      const sum = lines.get(line.county_fips) ?? { records: 0, tax: 0n };
      lines.set(line.county_fips, { records: sum.records + line.records, tax: sum.tax + cents(line.tax_liability) });
    }
    expect(lines).toEqual(byCounty);
  });
});

describe("POST /api/v1/tax/batches: what is refused before anything is stored", () => {
  it("a body neither CSV nor NDJSON is a 415, and record other than true or false a 400", async () => {
    const { live } = await newOrganization("Refused Shop");
    expect((await upload(live, "{}", "application/json")).status).toBe(415);
    const bad = await upload(live, ndjson([{ date: DATE }]), "application/x-ndjson", "?record=yes");
    expect([bad.status, bad.body.invalid_params[0].name]).toEqual([400, "record"]);
  });
});
