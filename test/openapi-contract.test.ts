/**
 * The contract: the running service does what its OpenAPI document says. Every request goes to a
 * real server (a socket, the shipped data, a real database, the fake Census upstream) through
 * Prism in proxy mode (test/_prism.ts), an independent checker that validates each real answer
 * against the served document. A test fails on any status, header or body the document does not
 * describe: Prism's response violations, and here besides, any header outside HTTP's own framing
 * that the documented answer does not list. Valid requests must raise no violation at all; invalid
 * ones are refused by the service with a documented problem. Every operation is exercised, each
 * with a success and (behind the API key) a client error.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { newId } from "../src/ids.ts";
import { insertWebhook } from "../src/store/webhooks.repository.ts";
import { newWebhookSecret } from "../src/webhooks/sign.ts";
import { startFakeCensusGeocoder, oneLine, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startPrismProxy, violationsOf, type PrismProxy, type Violation } from "./_prism.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import { startTestService, type TestService } from "./_setup.ts";

/** Headers of HTTP itself, and the ones Prism adds as a proxy, which no API document lists. */
const FRAMING = new Set(["content-type", "content-length", "date", "connection", "keep-alive", "transfer-encoding", "sl-violations"]);
const PER_SECOND = 200;

let fake: FakeCensusGeocoder;
let receiver: Receiver;
let api: TestService & { url?: string };
let prism: PrismProxy;
let dir: string;
let documentPath: string;
let doc: any;
const exercised = new Map<string, Set<number>>();

beforeAll(async () => {
  fake = await startFakeCensusGeocoder();
  receiver = await startReceiver();
  // WEBHOOK_PRIVATE_TARGETS: the webhooks below target a loopback receiver, which the operator must allow.
  api = await startTestService({ CENSUS_GEOCODER_URL: fake.url, RATE_LIMIT_PER_SECOND: String(PER_SECOND), WEBHOOK_PRIVATE_TARGETS: "loopback", BATCH_JOBS_IN_FLIGHT_PER_ORG: "2", BATCH_JOBS_STORED_PER_ORG: "4" }, true);
  const res = await fetch(`${api.url}/api/v1/openapi.json`);
  doc = await res.json();
  dir = mkdtempSync(join(tmpdir(), "buckeye-contract-"));
  documentPath = join(dir, "openapi.json");
  writeFileSync(documentPath, JSON.stringify(doc));
  prism = await startPrismProxy(documentPath, api.url!);
}, 120_000);
afterAll(async () => {
  await prism?.close();
  await api?.close();
  await receiver?.close();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Exchange {
  status: number;
  headers: Headers;
  body: any;
  violations: Violation[];
}

/** The document's operation for a concrete method and path. */
function operationFor(method: string, path: string): { operationId: string; responses: Record<string, any>; security?: unknown[] } {
  const bare = path.split("?")[0]!;
  const template = Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(bare));
  const operation = template && doc.paths[template][method.toLowerCase()];
  if (!operation) throw new Error(`the document has no operation for ${method} ${bare}`);
  return operation;
}

interface Send {
  key?: string | null;
  json?: unknown;
  body?: string;
  type?: string;
  accept?: string;
  ifNoneMatch?: string;
}

async function send(method: string, path: string, options: Send = {}): Promise<Exchange> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? api.liveKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined = options.body;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (body !== undefined) headers["content-type"] = options.type ?? "application/json";
  if (options.accept) headers.accept = options.accept;
  if (options.ifNoneMatch) headers["if-none-match"] = options.ifNoneMatch;
  const res = await fetch(`${prism.url}${path}`, { method, headers, ...(body !== undefined && { body }) });
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  const exchange = { status: res.status, headers: res.headers, body: /^application\/(problem\+)?json/.test(type) && text ? JSON.parse(text) : text, violations: violationsOf(res) };

  const operation = operationFor(method, path);
  const described = operation.responses[String(res.status)];
  expect(described, `${method} ${path} answered ${res.status}, which the document does not list`).toBeDefined();
  expect(exchange.violations.filter((v) => v.location[0] === "response"), `${method} ${path} → ${res.status}`).toEqual([]);
  const documented = new Set(Object.keys(described.headers ?? {}).map((name) => name.toLowerCase()));
  const undocumented = [...res.headers.keys()].filter((name) => !FRAMING.has(name) && !name.startsWith("access-control-") && !documented.has(name));
  expect(undocumented, `${method} ${path} → ${res.status}: headers the document does not list`).toEqual([]);
  if (text) expect(Object.keys(described.content ?? {}), `${method} ${path} → ${res.status}`).toContain(type.split(";")[0]!.trim());
  else expect(described.content, `${method} ${path} → ${res.status} has no body`).toBeUndefined();

  const statuses = exercised.get(operation.operationId) ?? new Set<number>();
  statuses.add(res.status);
  exercised.set(operation.operationId, statuses);
  return exchange;
}

/** A valid request: the expected status, and not a single violation, of the request or of the answer. */
async function valid(status: number, method: string, path: string, options?: Send): Promise<Exchange> {
  const exchange = await send(method, path, options);
  expect(exchange.status, JSON.stringify(exchange.body)).toBe(status);
  expect(exchange.violations).toEqual([]);
  return exchange;
}

/** An invalid request: the service refuses it with the expected, documented problem. */
async function invalid(status: number, method: string, path: string, options?: Send): Promise<Exchange> {
  const exchange = await send(method, path, options);
  expect(exchange.status, JSON.stringify(exchange.body)).toBe(status);
  expect(exchange.body).toMatchObject({ status, request_id: exchange.headers.get("x-request-id") });
  return exchange;
}

describe("GET /api/v1/rates (getRate)", () => {
  it("answers a county, a ZIP, a split ZIP, an address, a point and a county with a ZIP in it as documented", async () => {
    await valid(200, "GET", "/api/v1/rates?county=franklin");
    await valid(200, "GET", "/api/v1/rates?zip=43215&date=2024-01-15");
    expect((await valid(200, "GET", "/api/v1/rates?zip=43068")).body.ambiguous).toBe(true);
    const address = await valid(200, "GET", `/api/v1/rates?${new URLSearchParams({ address: oneLine("statehouse") })}`);
    expect(address.body.resolved_by).toBe("address_geocoding");
    await valid(200, "GET", "/api/v1/rates?lat=40.14302&lon=-82.94709");
    expect((await valid(200, "GET", "/api/v1/rates?county=franklin&zip=43215")).body.resolved_by).toBe("county_param");
  });

  it("the documented precedence: an address wins over a county sent with it", async () => {
    const { body } = await valid(200, "GET", `/api/v1/rates?${new URLSearchParams({ address: oneLine("statehouse"), county: "wayne" })}`);
    expect(body).toMatchObject({ county: "Franklin", resolved_by: "address_geocoding" });
    expect(doc.paths["/api/v1/rates"].get.description).toMatch(/`address` wins.*A `county` sent with an address or a point is not used/s);
  });

  it("refuses bad input with the documented 400, 404 and 422, and a missing key with 401 and WWW-Authenticate", async () => {
    await invalid(400, "GET", "/api/v1/rates");
    await invalid(400, "GET", "/api/v1/rates?county=franklin&dat=2020-01-01");
    await invalid(400, "GET", "/api/v1/rates?county=franklin&zip=44691");
    await invalid(400, "GET", "/api/v1/rates?lat=40.1");
    await invalid(404, "GET", "/api/v1/rates?county=atlantis");
    await invalid(404, "GET", "/api/v1/rates?zip=99999");
    await invalid(422, "GET", "/api/v1/rates?county=franklin&date=2010-01-01");
    await invalid(422, "GET", "/api/v1/rates?lat=41.88&lon=-87.63");
    const noKey = await invalid(401, "GET", "/api/v1/rates?county=franklin", { key: null });
    expect(noKey.headers.get("www-authenticate")).toBe('Bearer realm="buckeye"');
    const badKey = await invalid(401, "GET", "/api/v1/rates?county=franklin", { key: "tax_live_nonsense" });
    expect(badKey.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });

  it("429 with Retry-After and the RateLimit headers once a key is over its requests per second", async () => {
    const flood = await createKey(api.service.store.db, api.orgId, "contract flood", "live");
    // The service's clock stands still, so the key's bucket does not refill between the requests
    // that empty it and the one sent through Prism.
    const frozen = new Date();
    api.clock.set(frozen);
    let limited: Exchange;
    try {
      for (let i = 0; i < PER_SECOND; i++) expect((await api.get("/api/v1/rates?county=wayne", { authorization: `Bearer ${flood.key}` })).status).toBe(200);
      limited = await invalid(429, "GET", "/api/v1/rates?county=franklin", { key: flood.key });
    } finally {
      api.clock.set(null);
    }
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit-limit")).toBe(String(PER_SECOND));
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("one JSON Content-Type for every JSON answer: the rate, the counties and the certificates alike", async () => {
    const types = await Promise.all(
      ["/api/v1/rates?county=franklin", "/api/v1/counties", "/api/v1/certificates"].map(async (path) => (await api.get(path)).headers.get("content-type")),
    );
    expect(new Set(types)).toEqual(new Set(["application/json;charset=UTF-8"]));
  });
});

describe("POST /api/v1/rates/batch (getRatesBatch)", () => {
  it("answers lookups inline and refuses an empty list, too many lookups and a body that is not JSON", async () => {
    const { body } = await valid(200, "POST", "/api/v1/rates/batch", { json: { lookups: [{ id: "a", county: "franklin" }, { id: "b", zip: "43068" }, { id: "c", county: "atlantis" }] } });
    expect(body.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 404]);
    expect(doc.paths["/api/v1/rates/batch"].post.requestBody.content["application/json"].schema.properties.lookups.minItems).toBe(1);
    await invalid(400, "POST", "/api/v1/rates/batch", { json: { lookups: [] } });
    await invalid(413, "POST", "/api/v1/rates/batch", { json: { lookups: Array.from({ length: 1001 }, () => ({ county: "wayne" })) } });
    await invalid(415, "POST", "/api/v1/rates/batch", { body: JSON.stringify({ lookups: [{ county: "wayne" }] }), type: "text/plain" });
  });

  it("accepts items the service refuses one by one (a malformed ZIP, a bad date, only an unread field) and answers each with its own problem", async () => {
    const lookups = [{ id: "ok", zip: "43215" }, { id: "zip", zip: "4321" }, { id: "date", county: "wayne", date: "31/03/2026" }, { id: "field", cuonty: "wayne" }];
    const { body } = await valid(200, "POST", "/api/v1/rates/batch", { json: { lookups } });
    expect(body).toMatchObject({ total: 4, failed: 3, ignored_fields: ["cuonty"] });
    expect(body.results.map((r: { id: string; status: number; body: { invalid_params?: Array<{ name: string }> } }) => [r.id, r.status, r.body.invalid_params?.[0]?.name])).toEqual([
      ["ok", 200, undefined],
      ["zip", 400, "zip"],
      ["date", 400, "date"],
      ["field", 400, "county"],
    ]);
  });
});

describe("batch jobs (createBatch, getBatch, getBatchResults)", () => {
  it("submits CSV and NDJSON with a Location, polls, and serves results by Accept; 406 for another format", async () => {
    const csv = await valid(202, "POST", "/api/v1/batches", { body: "id,county\n1,franklin\n2,wayne\n", type: "text/csv" });
    expect(csv.headers.get("location")).toBe(`/api/v1/batches/${csv.body.id}`);
    await valid(202, "POST", "/api/v1/batches", { body: '{"id":"1","zip":"43215"}\n', type: "application/x-ndjson" });
    let job = csv.body;
    for (let i = 0; i < 200 && job.status !== "completed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await valid(200, "GET", `/api/v1/batches/${csv.body.id}`)).body;
    }
    expect(job.status).toBe("completed");
    expect((await valid(200, "GET", `/api/v1/batches/${job.id}/results`)).body).toMatch(/^row,id,status/);
    expect((await valid(200, "GET", `/api/v1/batches/${job.id}/results`, { accept: "application/x-ndjson" })).headers.get("content-type")).toBe("application/x-ndjson");
    await invalid(406, "GET", `/api/v1/batches/${job.id}/results`, { accept: "text/html" });
    await invalid(400, "GET", `/api/v1/batches/${job.id}/results?format=finder`);
  });

  it("submits a Finder file with ?format=finder and serves its results and errors files by ?format=", async () => {
    const finder = await valid(202, "POST", "/api/v1/batches?format=finder", { body: "INV-1,1 Main St,,Columbus,OH,43215,,01/02/2026\nINV-2,1 Main St,,Columbus,PA,43215,,01/02/2026\n", type: "text/csv" });
    expect(finder.body).toMatchObject({ format: "finder", ignored_columns: [] });
    let job = finder.body;
    for (let i = 0; i < 200 && job.status !== "completed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await valid(200, "GET", `/api/v1/batches/${finder.body.id}`)).body;
    }
    expect((await valid(200, "GET", `/api/v1/batches/${job.id}/results?format=finder-errors`)).body).toMatch(/^INV-2,1 Main St,,Columbus,PA,43215,,01\/02\/2026,,2,400,/);
    await invalid(400, "POST", "/api/v1/batches?format=sst", { body: "id,county\n1,franklin\n", type: "text/csv" });
  });

  it("refuses another upload type (415), an empty file (400), a file over 100,000 rows (413) and unknown jobs (404); results before the end are a 409", async () => {
    await invalid(415, "POST", "/api/v1/batches", { body: "id,county\n1,franklin\n", type: "text/plain" });
    await invalid(413, "POST", "/api/v1/batches", { body: `id,county\n${Array.from({ length: 100_001 }, (_, i) => `${i},wayne`).join("\n")}\n`, type: "text/csv" });
    await invalid(400, "POST", "/api/v1/batches", { body: "", type: "text/csv" });
    await invalid(404, "GET", "/api/v1/batches/bat_nope");
    await invalid(404, "GET", "/api/v1/batches/bat_nope/results");
    fake.setMode("hold");
    try {
      const held = await valid(202, "POST", "/api/v1/batches", { body: `address\n"${oneLine("carroll").replace("10 ", "14 ")}"\n`, type: "text/csv" });
      const early = await invalid(409, "GET", `/api/v1/batches/${held.body.id}/results`);
      expect(early.headers.get("retry-after")).toBe("2");
    } finally {
      fake.release();
    }
  });
});

describe("deleting batch jobs, and the caps per organization (deleteBatch; createBatch 429, 409 and 403)", () => {
  it("refuses a job over the jobs in flight (429 with Retry-After) and over the jobs stored (409); deletes a job (204) and then finds it no more (404)", async () => {
    const org = await createOrganization(api.service.store.db, "Contract Batches");
    const key = (await createKey(api.service.store.db, org.id, "contract batches", "live")).key;
    const county = { body: "id,county\n1,franklin\n", type: "text/csv", key };
    fake.setMode("hold");
    try {
      const held = [];
      for (const n of [21, 22]) held.push(await valid(202, "POST", "/api/v1/batches", { body: `address\n"${oneLine("carroll").replace("10 ", `${n} `)}"\n`, type: "text/csv", key }));
      const limited = await invalid(429, "POST", "/api/v1/batches", county);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      for (const job of held) await valid(204, "DELETE", `/api/v1/batches/${job.body.id}`, { key });
      await invalid(404, "DELETE", `/api/v1/batches/${held[0]!.body.id}`, { key });
    } finally {
      fake.release();
    }
    for (let stored = 0; stored < 4; stored++) {
      let job = (await valid(202, "POST", "/api/v1/batches", county)).body;
      while (job.status !== "completed") {
        await new Promise((resolve) => setTimeout(resolve, 50));
        job = (await valid(200, "GET", `/api/v1/batches/${job.id}`, { key })).body;
      }
    }
    await invalid(409, "POST", "/api/v1/batches", county);
    // A batch of orders is a job under the same caps.
    await invalid(409, "POST", "/api/v1/tax/batches", { body: '{"order_id":"o1","ship_to":{"county":"Adams"},"lines":[{"id":"a","unit_price":"1.00"}]}\n', type: "application/x-ndjson", key });
  });

  it("refuses a job from an organization in trial (403)", async () => {
    const trial = await createOrganization(api.service.store.db, "Contract Trial", new Date(), { trial: true });
    const key = (await createKey(api.service.store.db, trial.id, "contract trial", "test")).key;
    await invalid(403, "POST", "/api/v1/batches", { body: "id,county\n1,franklin\n", type: "text/csv", key });
    await invalid(403, "POST", "/api/v1/tax/batches", { body: "order_id,ship_to_county,unit_price\no1,Adams,1.00\n", type: "text/csv", key });
  });
});

describe("batches of orders (createOrderBatch)", () => {
  it("starts a job of a CSV or NDJSON of sales (202), and refuses a bad record (400), a column no order is read from (400), another type (415) and a file over 100,000 rows (413)", async () => {
    // An organization of its own: the jobs here would pass the default one's caps (BATCH_JOBS_STORED_PER_ORG is 4).
    const org = await createOrganization(api.service.store.db, "Contract Orders");
    const key = (await createKey(api.service.store.db, org.id, "contract orders", "live")).key;
    const sale = { order_id: "o1", date: "2026-06-01", ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "1.00" }] };
    await invalid(400, "POST", "/api/v1/tax/batches?record=maybe", { body: `${JSON.stringify(sale)}\n`, type: "application/x-ndjson", key });
    await invalid(400, "POST", "/api/v1/tax/batches", { body: "order_id,colour\no1,red\n", type: "text/csv", key });
    await invalid(415, "POST", "/api/v1/tax/batches", { body: JSON.stringify(sale), type: "application/json", key });
    await invalid(413, "POST", "/api/v1/tax/batches", { body: `order_id,line_id\n${Array.from({ length: 100_001 }, (_, i) => `o${i},a`).join("\n")}\n`, type: "text/csv", key });
    // The two jobs last: they are the organization's jobs in flight (its cap is 2) until the batch lane finishes them,
    // and a refusal sent after them would meet that cap first on a busy machine.
    const csv = await valid(202, "POST", "/api/v1/tax/batches", { body: "order_id,date,ship_to_county,line_id,unit_price\no1,2026-06-01,Adams,a,1.00\n", type: "text/csv", key });
    expect(csv.body).toMatchObject({ kind: "orders", ledger: null });
    expect((await valid(202, "POST", "/api/v1/tax/batches?record=true", { body: `${JSON.stringify(sale)}\n`, type: "application/x-ndjson", key })).body.ledger).toBe("live");
  });
});

describe("GET /api/v1/counties (listCounties)", () => {
  it("lists the counties, and refuses a bad sort (400) and a date before the data (422)", async () => {
    expect((await valid(200, "GET", "/api/v1/counties?search=van&sort=rate_desc")).body.total).toBe(1);
    await invalid(400, "GET", "/api/v1/counties?sort=sideways");
    await invalid(422, "GET", "/api/v1/counties?date=2010-01-01");
  });
});

describe("webhooks (createWebhook … recoverWebhookEvents)", () => {
  it("every webhook operation, with its documented successes and refusals", async () => {
    const key = api.testKey;
    const created = await valid(201, "POST", "/api/v1/webhooks", { key, json: { url: `${receiver.url}/hooks`, events: ["rate.changed"] } });
    const id = created.body.webhook.id;
    expect(created.headers.get("location")).toBe(`/api/v1/webhooks/${id}`);
    // The same JSON sent as text/plain: 415 on every JSON endpoint, as on the batch.
    await invalid(415, "POST", "/api/v1/webhooks", { key, body: JSON.stringify({ url: `${receiver.url}/x`, events: ["rate.changed"] }), type: "text/plain" });
    // A JSON body over 64 KiB: 413, refused by its Content-Length before it is read.
    const oversized = (fields: Record<string, unknown>) => ({ key, body: JSON.stringify({ ...fields, padding: "x".repeat(70_000) }), type: "application/json" });
    await invalid(413, "POST", "/api/v1/webhooks", oversized({ url: `${receiver.url}/x`, events: ["rate.changed"] }));
    await invalid(422, "POST", "/api/v1/webhooks", { key, json: { url: "ftp://example.com", events: ["rate.changed"] } });
    await valid(200, "GET", "/api/v1/webhooks", { key });
    await valid(200, "GET", `/api/v1/webhooks/${id}`, { key });
    await invalid(404, "GET", "/api/v1/webhooks/wh_nope", { key });
    await valid(200, "PATCH", `/api/v1/webhooks/${id}`, { key, json: { events: ["rate.changed", "rate.announced"] } });
    await invalid(415, "PATCH", `/api/v1/webhooks/${id}`, { key, body: '{"events":["rate.changed"]}', type: "text/plain" });
    await invalid(413, "PATCH", `/api/v1/webhooks/${id}`, oversized({ events: ["rate.changed"] }));
    await invalid(422, "PATCH", `/api/v1/webhooks/${id}`, { key, json: { events: ["rate.exploded"] } });
    await invalid(404, "PATCH", "/api/v1/webhooks/wh_nope", { key, json: { events: ["rate.changed"] } });
    await valid(200, "POST", `/api/v1/webhooks/${id}/rotate-secret`, { key });
    await invalid(404, "POST", "/api/v1/webhooks/wh_nope/rotate-secret", { key });
    await valid(202, "POST", `/api/v1/webhooks/${id}/test`, { key });
    await invalid(404, "POST", "/api/v1/webhooks/wh_nope/test", { key });

    await receiver.waitFor((received) => received.length > 0, 10_000);
    let deliveries: any[] = [];
    for (let i = 0; i < 100 && deliveries[0]?.status !== "delivered"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      deliveries = (await valid(200, "GET", `/api/v1/webhooks/${id}/deliveries?limit=10`, { key })).body.deliveries;
    }
    expect(deliveries[0].status).toBe("delivered");
    await invalid(400, "GET", `/api/v1/webhooks/${id}/deliveries?limit=0`, { key });
    await invalid(404, "GET", "/api/v1/webhooks/wh_nope/deliveries", { key });
    const redeliver = `/api/v1/webhooks/${id}/deliveries/${deliveries[0].id}/redeliver`;
    // The receiver takes its time, so the event is still pending when it is asked for again.
    receiver.respond = () => ({ status: 200, delayMs: 3000 });
    await valid(202, "POST", redeliver, { key });
    await invalid(409, "POST", redeliver, { key });
    receiver.respond = () => ({ status: 200 });
    await invalid(404, "POST", `/api/v1/webhooks/${id}/deliveries/dlv_nope/redeliver`, { key });

    await valid(202, "POST", `/api/v1/webhooks/${id}/recover`, { key, json: { since: "2026-01-01T00:00:00Z" } });
    await invalid(400, "POST", `/api/v1/webhooks/${id}/recover`, { key, json: { since: "2999-01-01T00:00:00Z" } });
    await invalid(415, "POST", `/api/v1/webhooks/${id}/recover`, { key, body: '{"since":"2026-01-01T00:00:00Z"}', type: "text/plain" });
    await invalid(413, "POST", `/api/v1/webhooks/${id}/recover`, oversized({ since: "2026-01-01T00:00:00Z" }));
    await invalid(404, "POST", "/api/v1/webhooks/wh_nope/recover", { key, json: { since: "2026-01-01T00:00:00Z" } });
    await valid(200, "PATCH", `/api/v1/webhooks/${id}`, { key, json: { status: "disabled" } });
    await invalid(409, "POST", `/api/v1/webhooks/${id}/recover`, { key, json: { since: "2026-01-01T00:00:00Z" } });

    await valid(204, "DELETE", `/api/v1/webhooks/${id}`, { key });
    await invalid(404, "DELETE", `/api/v1/webhooks/${id}`, { key });

    // An organization with as many webhooks as it may have: the next is refused.
    const db = api.service.store.db;
    const full = await createOrganization(db, "Full of Webhooks");
    for (let i = 0; i < api.config.webhooksPerOrganization; i++) {
      await insertWebhook(db, { organizationId: full.id, env: "test", url: `${receiver.url}/hooks/${i}`, events: ["*"], secret: newWebhookSecret() }, new Date());
    }
    const fullKey = (await createKey(db, full.id, "full", "test")).key;
    await invalid(409, "POST", "/api/v1/webhooks", { key: fullKey, json: { url: `${receiver.url}/hooks`, events: ["rate.changed"] } });
  }, 60_000);
});

describe("certificates (createCertificate, listCertificates, getCertificate, deleteCertificate)", () => {
  it("records, lists, reads and deletes, and refuses a non-JSON body (415), a bad one (422) and unknown ids (404)", async () => {
    const certificate = { customer_id: "cust_c1", customer_name: "Lima Locksmiths", exempt_reason: "resale", expires_on: "2027-03-31" };
    const created = await valid(201, "POST", "/api/v1/certificates", { json: certificate });
    const id = created.body.certificate.id;
    expect(created.headers.get("location")).toBe(`/api/v1/certificates/${id}`);
    await invalid(415, "POST", "/api/v1/certificates", { body: JSON.stringify(certificate), type: "text/plain" });
    await invalid(413, "POST", "/api/v1/certificates", { body: JSON.stringify({ ...certificate, customer_name: "x".repeat(70_000) }), type: "application/json" });
    await invalid(422, "POST", "/api/v1/certificates", { json: { ...certificate, expires_on: "2027-02-30" } });
    await valid(200, "GET", "/api/v1/certificates");
    await valid(200, "GET", "/api/v1/certificates?limit=1");
    await invalid(400, "GET", "/api/v1/certificates?cursor=nowhere");
    await valid(200, "GET", `/api/v1/certificates/${id}`);
    await valid(204, "DELETE", `/api/v1/certificates/${id}`);
    await invalid(404, "GET", `/api/v1/certificates/${id}`);
    await invalid(404, "DELETE", `/api/v1/certificates/${id}`);

    // An organization keeping as many certificates as it may: the next is refused.
    const db = api.service.store.db;
    const full = await createOrganization(db, "Full of Certificates");
    const at = new Date().toISOString();
    const rows = Array.from({ length: api.config.certificatesPerOrganization }, (_, i) => ({
      id: newId("cert"),
      organization_id: full.id,
      customer_id: `cust_${i}`,
      customer_name: `Customer ${i}`,
      exempt_reason: "resale",
      expires_on: "2027-03-31",
      created_at: at,
    }));
    for (let start = 0; start < rows.length; start += 1000) await db.insertInto("certificates").values(rows.slice(start, start + 1000)).execute();
    await invalid(409, "POST", "/api/v1/certificates", { key: (await createKey(db, full.id, "full", "live")).key, json: certificate });
  });
});

describe("the tax on a sale and the ledger (calculateTax … replayTransaction)", () => {
  it("computes, records, refunds, voids, lists and replays, with the organization's locations and basis; refuses bad bodies (422), non-JSON (415), too large (413), unknown ids (404) and a reused id with another body (409)", async () => {
    const sale = { date: "2026-06-01", ship_to: { county: "Adams" }, lines: [{ id: "a", unit_price: "19.99" }], shipping: "5.00" };
    const computed = await valid(200, "POST", "/api/v1/tax", { json: sale });
    // 24.99 × 7.25 % = 1.811775 → 1.81 (third decimal 1).
    expect(computed.body).toMatchObject({ settled: true, totals: { tax: "1.81" } });
    await valid(200, "POST", "/api/v1/tax", { json: { ...sale, ship_to: { zip: "45101" } } });
    await invalid(404, "POST", "/api/v1/tax", { json: { ...sale, ship_to: { county: "Atlantis" } } });
    await invalid(422, "POST", "/api/v1/tax", { json: { ...sale, lines: [{ id: "a", unit_price: "1.005" }] } });
    await invalid(415, "POST", "/api/v1/tax", { body: JSON.stringify(sale), type: "text/plain" });
    await invalid(413, "POST", "/api/v1/tax", { body: JSON.stringify({ ...sale, customer_id: "x".repeat(1_100_000) }), type: "application/json" });

    await valid(200, "GET", "/api/v1/tax/settings");
    await valid(200, "PUT", "/api/v1/tax/settings", { json: { rounding_basis: "item" } });
    await valid(200, "PUT", "/api/v1/tax/settings", { json: { rounding_basis: "invoice" } });
    await invalid(422, "PUT", "/api/v1/tax/settings", { json: { rounding_basis: "line" } });
    await invalid(415, "PUT", "/api/v1/tax/settings", { body: "{}", type: "text/plain" });

    const location = await valid(201, "POST", "/api/v1/locations", { json: { name: "Cincinnati store", place: { county: "Hamilton" } } });
    const locationId = location.body.location.id;
    await invalid(404, "POST", "/api/v1/locations", { json: { name: "Nowhere", place: { county: "Atlantis" } } });
    await invalid(422, "POST", "/api/v1/locations", { json: { name: "Split", place: { zip: "45101" } } });
    await invalid(415, "POST", "/api/v1/locations", { body: "{}", type: "text/plain" });
    await valid(200, "GET", "/api/v1/locations");
    await valid(200, "GET", `/api/v1/locations/${locationId}`);
    await valid(200, "POST", "/api/v1/tax", { json: { ...sale, ship_to: undefined, pickup_location_id: locationId } });

    const record = { order_id: "contract-1", ...sale };
    const first = await valid(201, "POST", "/api/v1/transactions", { json: record });
    const id = first.body.transaction.id;
    await valid(200, "POST", "/api/v1/transactions", { json: record });
    await invalid(409, "POST", "/api/v1/transactions", { json: { ...record, shipping: "6.00" } });
    await invalid(422, "POST", "/api/v1/transactions", { json: { ...record, order_id: "contract-2", ship_to: { zip: "45101" } } });
    await invalid(404, "POST", "/api/v1/transactions", { json: { ...record, order_id: "contract-3", ship_to: { county: "Atlantis" } } });
    await invalid(415, "POST", "/api/v1/transactions", { body: JSON.stringify(record), type: "text/plain" });
    await invalid(413, "POST", "/api/v1/transactions", { body: JSON.stringify({ ...record, customer_id: "x".repeat(1_100_000) }), type: "application/json" });
    await valid(200, "GET", `/api/v1/transactions/${id}`);
    await invalid(404, "GET", "/api/v1/transactions/txn_nope");
    await valid(200, "GET", "/api/v1/transactions?from=2026-06-01&to=2026-06-30&limit=1");
    await invalid(400, "GET", "/api/v1/transactions?cursor=nowhere");

    const refund = { refund_id: "contract-r1", date: "2026-07-02", lines: [{ id: "a", amount: "5.00" }] };
    await valid(201, "POST", `/api/v1/transactions/${id}/refunds`, { json: refund });
    await valid(200, "POST", `/api/v1/transactions/${id}/refunds`, { json: refund });
    await invalid(409, "POST", `/api/v1/transactions/${id}/refunds`, { json: { ...refund, date: "2026-07-03" } });
    await invalid(422, "POST", `/api/v1/transactions/${id}/refunds`, { json: { ...refund, refund_id: "contract-r2", lines: [{ id: "a", amount: "15.00" }] } });
    await invalid(404, "POST", "/api/v1/transactions/txn_nope/refunds", { json: refund });
    await invalid(415, "POST", `/api/v1/transactions/${id}/refunds`, { body: JSON.stringify(refund), type: "text/plain" });
    await valid(200, "GET", `/api/v1/transactions/${id}/replay`);
    await invalid(404, "GET", "/api/v1/transactions/txn_nope/replay");

    await valid(201, "POST", `/api/v1/transactions/${id}/void`, { json: { date: "2026-07-04" } });
    await valid(200, "POST", `/api/v1/transactions/${id}/void`, { json: { date: "2026-07-04" } });
    await invalid(409, "POST", `/api/v1/transactions/${id}/void`, { json: { date: "2026-07-05" } });
    await invalid(404, "POST", "/api/v1/transactions/txn_nope/void", { json: {} });
    await invalid(415, "POST", `/api/v1/transactions/${id}/void`, { body: "{}", type: "text/plain" });
    const other = (await valid(201, "POST", "/api/v1/transactions", { json: { ...record, order_id: "contract-4" } })).body.transaction.id;
    await valid(201, "POST", `/api/v1/transactions/${other}/refunds`, { json: { refund_id: "contract-all", date: "2026-07-02", lines: [{ id: "a", amount: "19.99" }], delivery: "5.00" } });
    await invalid(422, "POST", `/api/v1/transactions/${other}/void`, { json: { date: "2026-07-04" } });

    await valid(204, "DELETE", `/api/v1/locations/${locationId}`);
    await invalid(404, "GET", `/api/v1/locations/${locationId}`);
    await invalid(404, "DELETE", `/api/v1/locations/${locationId}`);
  });

  it("a ship_to address the geocoder cannot place while it is down is a 503, on POST /tax and POST /transactions", async () => {
    fake.setMode("error");
    try {
      const street = `${oneLine("statehouse").replace(/ \d{5}$/, "").replace("1 ", "7 ")}`;
      const sale = { date: "2026-06-01", ship_to: { address: street }, lines: [{ id: "a", unit_price: "1.00" }] };
      await invalid(503, "POST", "/api/v1/tax", { json: sale });
      await invalid(503, "POST", "/api/v1/transactions", { json: { order_id: "contract-503", ...sale } });
    } finally {
      fake.setMode("normal");
    }
  }, 60_000);
});

describe("GET /api/v1/reconciliations (listReconciliations)", () => {
  it("lists the log and refuses a bad limit", async () => {
    await valid(200, "GET", "/api/v1/reconciliations?limit=5");
    await invalid(400, "GET", "/api/v1/reconciliations?limit=lots");
  });
});

describe("GET /api/v1/returns/{period} (getReturn)", () => {
  it("answers a month's worksheet as JSON and CSV, and refuses a bad period (400), another format (406), a half year of a monthly filer (409) and a period not begun (422)", async () => {
    const { writeLedgerRows } = await import("./_ledger-rows.ts");
    await writeLedgerRows(api.service.store.db, [
      { organizationId: api.orgId, env: "live", date: "2026-10-05", countyFips: "39041", transitDistrict: "COTA", grossCents: 5_000, stateTaxCents: 288, countyTaxCents: 63, transitTaxCents: 50 },
      { organizationId: api.orgId, env: "live", kind: "refund", date: "2026-10-06", countyFips: "39041", transitDistrict: "COTA", grossCents: -1_000, stateTaxCents: -58, countyTaxCents: -13, transitTaxCents: -10 },
    ]);
    expect((await valid(200, "GET", "/api/v1/returns/2026-10")).body.counties).toHaveLength(1);
    expect((await valid(200, "GET", "/api/v1/returns/2026-10?format=csv")).body).toMatch(/^row,line,label/);
    await invalid(400, "GET", "/api/v1/returns/2026-13");
    await invalid(406, "GET", "/api/v1/returns/2026-10", { accept: "application/xml" });
    await invalid(409, "GET", "/api/v1/returns/2026-H1");
    await invalid(422, "GET", "/api/v1/returns/2099-01");
  });
});

describe("health and this document (getHealth, getReadiness, getOpenApiDocument)", () => {
  it("answer without an API key, as documented", async () => {
    await valid(200, "GET", "/healthz", { key: null });
    await valid(200, "GET", "/readyz", { key: null });
    const document = await valid(200, "GET", "/api/v1/openapi.json", { key: null });
    await valid(304, "GET", "/api/v1/openapi.json", { key: null, ifNoneMatch: document.headers.get("etag")! });
  });
});

describe("the geocoder's 503", () => {
  it("has Retry-After, and does not ask for the county when the request sent it", async () => {
    fake.setMode("error");
    try {
      const street = `${oneLine("statehouse").replace(/ \d{5}$/, "").replace("1 ", "3 ")}`;
      const alone = await invalid(503, "GET", `/api/v1/rates?${new URLSearchParams({ address: street })}`);
      expect(Number(alone.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(alone.body.detail).toMatch(/send the county\.$/);
      const withCounty = await invalid(503, "GET", `/api/v1/rates?${new URLSearchParams({ address: street.replace("3 ", "5 "), county: "franklin" })}`);
      expect(withCounty.body.detail).toMatch(/send the county \(franklin\) without the address/);
    } finally {
      fake.setMode("normal");
    }
  }, 60_000);
});

describe("every operation", () => {
  it("behind the API key answers 401 with WWW-Authenticate to a request without one", async () => {
    for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of Object.keys(operations)) {
        if (operations[method].security?.length === 0) continue;
        const concrete = path.replace(/\{[^}]+\}/g, "x_nope");
        const res = await invalid(401, method.toUpperCase(), concrete, { key: null });
        expect(res.headers.get("www-authenticate"), `${method} ${path}`).toMatch(/^Bearer realm="buckeye"/);
      }
    }
  });

  it("was exercised here with each status its document lists", () => {
    // 429 is answered by one middleware for every operation and is driven once, on getRate; a
    // readiness 503 needs a service that is not ready, which test/operations.test.ts starts; the
    // 503 of createBatch (and createOrderBatch, which admits its uploads by the same code) needs 128 MiB of uploads
    // held open at once, which test/upload-admission.test.ts sends.
    const notDriven = (operationId: string, status: string) =>
      (status === "429" && operationId !== "getRate") || (status === "503" && (operationId === "getReadiness" || operationId === "createBatch" || operationId === "createOrderBatch"));
    const missing: string[] = [];
    for (const operations of Object.values<Record<string, any>>(doc.paths)) {
      for (const operation of Object.values<any>(operations)) {
        const statuses = exercised.get(operation.operationId) ?? new Set<number>();
        for (const status of Object.keys(operation.responses)) {
          if (!statuses.has(Number(status)) && !notDriven(operation.operationId, status)) missing.push(`${operation.operationId} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("the checker", () => {
  it("fails an answer the document does not describe: an undocumented status, a wrong body field, a header off its schema", async () => {
    const broken = structuredClone(doc);
    delete broken.paths["/api/v1/counties"].get.responses["422"];
    broken.components.schemas.RateRecord.properties.county = { type: "integer" };
    broken.components.headers["X-Request-Id"].schema.pattern = "^zzz_";
    const brokenPath = join(dir, "broken.json");
    writeFileSync(brokenPath, JSON.stringify(broken));
    const strict = await startPrismProxy(brokenPath, api.url!);
    try {
      const ask = async (path: string) => violationsOf(await fetch(`${strict.url}${path}`, { headers: { authorization: `Bearer ${api.liveKey}` } })).filter((v) => v.location[0] === "response");
      const [status, body] = await Promise.all([ask("/api/v1/counties?date=2010-01-01"), ask("/api/v1/rates?county=franklin")]);
      expect(status.map((v) => v.message).join("\n")).toMatch(/Unable to match the returned status code/);
      expect(body.map((v) => v.location.join("."))).toEqual(expect.arrayContaining(["response.body.county", "response.header.x-request-id"]));
    } finally {
      await strict.close();
    }
  }, 120_000);
});
