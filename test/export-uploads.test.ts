/**
 * Exports as platforms write them, uploaded to POST /api/v1/batches and run through `buckeye batch`:
 * each platform's header is read (the shipping address by default), a header that reads no address
 * part while a column looks like one is refused with 400, a column mapping reads any other header, and
 * a row answered from less than it was sent says so. The fixtures in test/fixtures/exports/ were
 * WRITTEN BY US in the platforms' documented layouts; the geocoder is a FAKE UPSTREAM
 * (test/fake-census-geocoder.ts) that knows their addresses. Real worker threads and store.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "./_serve-process.ts";
import { startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

let api: GeocodedTestService;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "buckeye-exports-"));
  api = await startTestServiceWithFakeGeocoder({ BATCH_CHUNK_ROWS: "4", BATCH_POLL_MS: "20" });
});
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/exports/${name}`, import.meta.url)));

async function upload(body: Uint8Array<ArrayBuffer> | string, query = "") {
  const res = await api.service.app.fetch(
    new Request(`http://buckeye.test/api/v1/batches${query}`, { method: "POST", body, headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "text/csv" } }),
  );
  return { res, body: (await res.json()) as Record<string, any> };
}

/** The job's NDJSON results once it is completed (a wait, not a timed assertion). */
async function results(location: string): Promise<Array<Record<string, any>>> {
  for (;;) {
    const job = (await (await api.get(location, { authorization: `Bearer ${api.liveKey}` })).json()) as { status: string };
    if (job.status === "completed") break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const text = await (await api.get(`${location}/results`, { authorization: `Bearer ${api.liveKey}`, accept: "application/x-ndjson" })).text();
  return text.trim().split("\n").map((line) => JSON.parse(line) as Record<string, any>);
}

describe("POST /api/v1/batches reads exports as platforms write them: each row answered from its shipping address", () => {
  // The fake upstream knows no units: a row with one (Suite 5, Floor 2, # 1) is not matched and falls back to its
  // ZIP (zip_fallback), which a lookup reaches only from an address it read; a ZIP alone would be zip_unambiguous.
  it.each([
    ["shopify-orders.csv", [["5550001001", "Delaware", "zip_fallback"], ["5550001002", "Delaware", "address_geocoding"]]],
    ["woocommerce-orders.csv", [["WC-501", "Franklin", "address_geocoding"], ["WC-502", "Delaware", "zip_fallback"]]],
    ["bigcommerce-orders.csv", [["9101", "Delaware", "address_geocoding"]]],
    ["magento-orders.csv", [["000000101", "Franklin", "address_geocoding"]]],
    ["square-customers.csv", [[null, "Delaware", "zip_fallback"], [null, "Wood", "address_geocoding"]]],
    ["amazon-orders.txt", [["111-0000001-0000001", "Delaware", "address_geocoding"], ["111-0000002-0000002", "Franklin", "address_geocoding"]]],
    ["quickbooks-customers.csv", [[null, "Delaware", "address_geocoding"]]],
    ["salesforce-accounts.csv", [["0015g00000AbCdEAAA", "Franklin", "address_geocoding"]]],
    ["address-line-export.csv", [["1", "Delaware", "zip_fallback"], ["2", "Delaware", "address_geocoding"]]],
    ["street-address-export.csv", [[null, "Delaware", "zip_fallback"], [null, "Franklin", "address_geocoding"]]],
  ] as const)("%s: 202, and every row answered 200 from its shipping address, with its id", async (name, expected) => {
    const { res } = await upload(fixture(name));
    expect(res.status).toBe(202);
    const rows = await results(res.headers.get("location")!);
    expect(rows.map((row) => [row.id, row.status, row.body.county, row.body.resolved_by])).toEqual(expected.map(([id, county, by]) => [id, 200, county, by]));
    for (const row of rows) expect(row).not.toHaveProperty("unread_columns");
  });

  it("?address_side=billing reads the billing address of an export that carries both", async () => {
    const { res } = await upload(fixture("shopify-orders.csv"), "?address_side=billing");
    expect(res.status).toBe(202);
    expect((await results(res.headers.get("location")!)).map((row) => row.body.county)).toEqual(["Wood", "Wood"]);
  });

  it("a Shopify export's job lists every column it does not read in ignored_columns (56 names, the billing ones included), not the first 20", async () => {
    const { res, body } = await upload(fixture("shopify-orders.csv"));
    expect(res.status).toBe(202);
    expect(body.ignored_columns).toHaveLength(56);
    expect(body.ignored_columns).toEqual(expect.arrayContaining(["billing_address1", "billing_zip", "shipping_street", "shipping_country", "tags"]));
  });
});

describe("no silent downgrade: an upload that reads no address part while a column looks like one is refused at once with 400", () => {
  it("id, county, Delivery Addr, Zip Cd: 400 problem+json naming those columns, what was read and the columns mapping; no job is stored", async () => {
    const before = await api.service.store.db.selectFrom("batch_jobs").select(sql<number | string>`count(*)`.as("n")).executeTakeFirstOrThrow();
    const { res, body } = await upload("id,county,Delivery Addr,Zip Cd\nr1,Franklin,100 Polaris Pkwy,43240\n");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(body.type).toMatch(/\/bad-request$/);
    expect(body.detail).toContain('"Delivery Addr", "Zip Cd" look like one');
    expect(body.detail).toContain("Read: id, county.");
    expect(body.detail).toContain("?columns=street=Delivery Addr,zip=Zip Cd");
    const after = await api.service.store.db.selectFrom("batch_jobs").select(sql<number | string>`count(*)`.as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("the suggested ?columns= mapping is read: the row is answered from its address", async () => {
    const { res } = await upload("id,county,Delivery Addr,Zip Cd\nr1,,100 Polaris Pkwy,43240\n", `?columns=${encodeURIComponent("street=Delivery Addr,zip=Zip Cd")}`);
    expect(res.status).toBe(202);
    expect((await results(res.headers.get("location")!))[0]).toMatchObject({ id: "r1", status: 200, body: { county: "Delaware", resolved_by: "address_geocoding" } });
  });

  it("a ?columns= that cannot be read, or names a column the file does not have, is a 400 naming columns", async () => {
    const bad = await upload("zip\n43215\n", "?columns=road%3DAddr");
    expect(bad.res.status).toBe(400);
    expect(bad.body.invalid_params).toEqual([{ name: "columns", reason: expect.stringContaining("road is not a column Buckeye reads") }]);
    const missing = await upload("zip\n43215\n", "?columns=street%3DAddr");
    expect(missing.res.status).toBe(400);
    expect(missing.body.detail).toContain('columns maps street to "Addr", which the header does not have');
  });

  it("a row answered while an address-like column it carries was not read says so: unread_columns on its NDJSON line and in the CSV's column", async () => {
    const { res } = await upload("id,zip,Delivery Address\nr1,43215,1 Capitol Sq\nr2,43215,\n");
    expect(res.status).toBe(202);
    const location = res.headers.get("location")!;
    const rows = await results(location);
    expect(rows[0]).toMatchObject({ id: "r1", status: 200, unread_columns: ["delivery_address"], body: { resolved_by: "zip_unambiguous" } });
    expect(rows[1]).not.toHaveProperty("unread_columns");
    const csv = parse(await (await api.get(`${location}/results`, { authorization: `Bearer ${api.liveKey}`, accept: "text/csv" })).text(), { columns: true }) as Array<Record<string, string>>;
    expect(csv.map((row) => row["unread_columns"])).toEqual(["delivery_address", ""]);
  });
});

describe("buckeye batch reads the same exports, takes --columns and --address-side, and refuses what the API refuses", () => {
  const cliEnv = () => ({ ...process.env, DATABASE_URL: api.config.databaseUrl, CENSUS_GEOCODER_URL: api.fake.url, GEO_DATA_DIR: api.config.geoDataDir, LOG_LEVEL: "silent" });
  const batch = (args: string[]) =>
    promisify(execFile)(process.execPath, [BIN, "batch", ...args], { env: cliEnv() }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );

  it("a Shopify export: says which columns it read, answers each row from the shipping address; --address-side billing from the billing one", async () => {
    const input = join(dir, "shopify.csv");
    writeFileSync(input, fixture("shopify-orders.csv"));
    const shipping = await batch([input, "--out", join(dir, "shopify-out.csv")]);
    expect(shipping.stderr).toContain("columns read: street ← Shipping Address1, address2 ← Shipping Address2, city ← Shipping City, zip ← Shipping Zip, state ← Shipping Province, id ← Id");
    expect(shipping.code).toBe(0);
    const counties = (file: string) => (parse(readFileSync(join(dir, file), "utf8"), { columns: true }) as Array<Record<string, string>>).map((row) => row["county"]);
    expect(counties("shopify-out.csv")).toEqual(["Delaware", "Delaware"]);
    expect((await batch([input, "--address-side", "billing", "--out", join(dir, "shopify-billing.csv")])).code).toBe(0);
    expect(counties("shopify-billing.csv")).toEqual(["Wood", "Wood"]);
  }, 120_000);

  it("a header it cannot read as an address exits 1 with the same suggestion; --columns reads it", async () => {
    const input = join(dir, "custom.csv");
    writeFileSync(input, "id,Delivery Addr,Zip Cd\nr1,100 Polaris Pkwy,43240\n");
    const refused = await batch([input, "--out", join(dir, "custom-out.csv")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("buckeye batch --columns street=Delivery Addr,zip=Zip Cd");
    const mapped = await batch([input, "--columns", "street=Delivery Addr,zip=Zip Cd", "--out", join(dir, "custom-out.csv")]);
    expect(mapped.code).toBe(0);
    expect((parse(readFileSync(join(dir, "custom-out.csv"), "utf8"), { columns: true }) as Array<Record<string, string>>)[0]).toMatchObject({ id: "r1", county: "Delaware", resolved_by: "address_geocoding" });
  }, 120_000);
});
