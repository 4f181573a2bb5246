/**
 * The typed client (client/buckeye-client.ts: openapi-fetch over the types generated from the
 * document) against a running service on a real socket, used as docs/api/README.md shows. The compiler
 * checks each call and answer here against the generated types (`tsc --noEmit` covers test/), and
 * the committed types must be what the served document generates today.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientTypes, CLIENT_TYPES_PATH } from "../scripts/generate-client-types.ts";
import { createBuckeyeClient } from "../client/buckeye-client.ts";
import { FAKE_ADDRESSES, oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestService, type TestService } from "./_setup.ts";

let fake: FakeCensusGeocoder;
let api: TestService & { url?: string };
let buckeye: ReturnType<typeof createBuckeyeClient>;

beforeAll(async () => {
  fake = await startFakeCensusGeocoder();
  // WEBHOOK_PRIVATE_TARGETS: the sandbox webhook below targets loopback, which the operator must allow.
  api = await startTestService({ CENSUS_GEOCODER_URL: fake.url, WEBHOOK_PRIVATE_TARGETS: "loopback" }, true);
  buckeye = createBuckeyeClient({ baseUrl: api.url!, apiKey: api.liveKey });
});
afterAll(async () => {
  await api?.close();
  await fake?.close();
});

describe("client/api-types.ts", () => {
  it("is what the served document generates: `npm run client:types` was run after the last change", async () => {
    const served = await (await fetch(`${api.url}/api/v1/openapi.json`)).json();
    expect(readFileSync(CLIENT_TYPES_PATH, "utf8")).toBe(await clientTypes(served));
  });
});

describe("the typed client against the running service", () => {
  it("gets a rate by county", async () => {
    const { data, error, response } = await buckeye.GET("/api/v1/rates", { params: { query: { county: "Van Wert", date: "2026-06-01" } } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    if (!data || data.ambiguous) throw new Error("expected an exact rate");
    expect(data).toMatchObject({ county: "Van Wert", resolved_by: "county_param", date_evaluated: "2026-06-01" });
    expect(data.combined_rate).toBeCloseTo(data.components.state + data.components.county_permissive + data.components.transit_authority, 10);
  });

  it("gets a rate by street address (fake Census upstream)", async () => {
    const address = FAKE_ADDRESSES.westervilleInDelaware;
    const { data } = await buckeye.GET("/api/v1/rates", { params: { query: { address: oneLine("westervilleInDelaware") } } });
    if (!data || data.ambiguous) throw new Error("expected an exact rate");
    expect(data).toMatchObject({ county: "Delaware", resolved_by: "address_geocoding", transit_district: { status: "inside" } });
    expect(fake.requests.some((url) => [...url.searchParams.values()].some((value) => value.includes(address.street)))).toBe(true);
  });

  it("gets a month's return, typed: the county lines and line 9", async () => {
    const { writeLedgerRows } = await import("./_ledger-rows.ts");
    await writeLedgerRows(api.service.store.db, [
      { organizationId: api.orgId, env: "live", date: "2026-10-05", countyFips: "39049", grossCents: 10_000, stateTaxCents: 575, countyTaxCents: 125, transitTaxCents: 100 },
    ]);
    const { data, error } = await buckeye.GET("/api/v1/returns/{period}", { params: { path: { period: "2026-10" } } });
    expect(error).toBeUndefined();
    // The operation answers JSON or CSV, so the type holds both; without an Accept it is the JSON worksheet.
    if (!data || typeof data === "string") throw new Error("expected the JSON worksheet");
    expect(data.counties.map((line) => [line.county, line.reporting_code, line.tax_liability])).toEqual([["Franklin", "25", "8.00"]]);
    expect(data.net_amount_due).toBe("7.94");
  });

  it("reads a problem as the error: 404 county-not-found", async () => {
    const { data, error, response } = await buckeye.GET("/api/v1/rates", { params: { query: { county: "atlantis" } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ status: 404, title: "County Not Found" });
  });

  it("runs an inline batch, and a batch job to its CSV results", async () => {
    const inline = await buckeye.POST("/api/v1/rates/batch", { body: { lookups: [{ id: "a", county: "franklin" }, { id: "b", zip: "43068" }] } });
    expect(inline.data?.results.map((r) => [r.id, r.status])).toEqual([
      ["a", 200],
      ["b", 200],
    ]);

    const submitted = await buckeye.POST("/api/v1/batches", {
      body: "id,county\n1,franklin\n2,wayne\n",
      bodySerializer: (csv) => csv,
      headers: { "content-type": "text/csv" },
    });
    expect(submitted.response.status).toBe(202);
    let job = submitted.data!;
    for (let i = 0; i < 200 && job.status !== "completed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await buckeye.GET("/api/v1/batches/{id}", { params: { path: { id: job.id } } })).data!;
    }
    expect(job).toMatchObject({ status: "completed", total: 2, failed: 0 });
    const results = await buckeye.GET("/api/v1/batches/{id}/results", { params: { path: { id: job.id } }, parseAs: "text" });
    expect(results.data?.split("\n").filter(Boolean)).toHaveLength(3);
  });

  it("creates a webhook and lists it", async () => {
    const sandbox = createBuckeyeClient({ baseUrl: api.url!, apiKey: api.testKey });
    const created = await sandbox.POST("/api/v1/webhooks", { body: { url: "http://127.0.0.1:9/typed-client", events: ["rate.changed"] } });
    expect(created.response.status).toBe(201);
    expect(created.data?.webhook.secret).toMatch(/^whsec_/);
    const listed = await sandbox.GET("/api/v1/webhooks");
    expect(listed.data?.webhooks.map((w) => w.id)).toContain(created.data!.webhook.id);
  });

  it("computes the tax on a sale, records it, refunds part of it and replays it", async () => {
    const sale = { date: "2026-06-01", ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "0.79" }] };
    const computed = await buckeye.POST("/api/v1/tax", { body: sale });
    expect(computed.response.status).toBe(200);
    const answer = computed.data!;
    expect(answer.settled && answer.totals.tax).toBe("0.06");
    const recorded = await buckeye.POST("/api/v1/transactions", { body: { order_id: "typed-1", ...sale } });
    expect(recorded.response.status).toBe(201);
    const id = recorded.data!.transaction.id;
    const refunded = await buckeye.POST("/api/v1/transactions/{id}/refunds", { params: { path: { id } }, body: { refund_id: "typed-r1", date: "2026-07-01", lines: [{ id: "a", amount: "0.79" }] } });
    expect(refunded.data?.transaction.amounts.tax).toBe("-0.06");
    const replay = await buckeye.GET("/api/v1/transactions/{id}/replay", { params: { path: { id } } });
    expect(replay.data).toMatchObject({ transaction_id: id, as_recorded: { matches_record: true }, differs: false });
  });
});
