/**
 * GET /api/v1/openapi.json: generated from the service's own zod schemas, and checked
 * here the other way round: real responses of the running service are validated against the
 * served document with ajv, an independent JSON Schema validator.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./_api.ts";
import { FAKE_ADDRESSES } from "./fake-census-geocoder.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
let document: any;
let ajv: Ajv2020;

beforeAll(async () => {
  // WEBHOOK_PRIVATE_TARGETS: a test webhook below targets loopback, which the operator must allow.
  api = await startTestService({ RECONCILE_SOURCE: fileURLToPath(new URL("fixtures/sst/OHR2027Q1NOV30.csv", import.meta.url)), WEBHOOK_PRIVATE_TARGETS: "loopback" });
  const res = await api.service.app.fetch(new Request("http://buckeye.test/api/v1/openapi.json"));
  expect(res.status).toBe(200);
  document = await res.json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "buckeye", components: document.components });
});
afterAll(() => api.close());

function validator(schema: object): ValidateFunction {
  return ajv.compile({ $ref: `buckeye#/components/schemas/${(schema as { $ref: string }).$ref.split("/").pop()}` });
}

/** The schema the document gives for this operation's answer with this status and media type. */
function answerSchema(path: string, method: string, status: number, media = "application/json"): ValidateFunction {
  const schema = document.paths[path]?.[method]?.responses?.[String(status)]?.content?.[media]?.schema;
  if (!schema) throw new Error(`the document has no ${media} ${status} answer for ${method.toUpperCase()} ${path}`);
  if (schema.$ref) return validator(schema);
  return ajv.compile({ ...JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"buckeye#/components')) });
}

function expectValid(validate: ValidateFunction, body: unknown): void {
  const valid = validate(body);
  expect(valid ? [] : validate.errors).toEqual([]);
}

describe("GET /api/v1/openapi.json", () => {
  it("is OpenAPI 3.1, served without an API key, and names the bearer key scheme", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ apiKey: [] }]);
  });

  it("documents every route the API serves, with each method", () => {
    const routes: Array<{ route: string; method: string }> = api.service.app["~routes" as keyof typeof api.service.app] as never;
    const served = routes
      .filter((r) => r.route.startsWith("/api/") || r.route === "/healthz" || r.route === "/readyz")
      .map((r) => `${r.method.toLowerCase()} ${r.route.replace(/:(\w+)/g, "{$1}")}`)
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations as object).map((method) => `${method} ${path}`))
      .sort();
    expect(documented).toEqual(served);
  });

  it("every operation, in paths and in webhooks, has a unique camelCase operationId, one declared tag, a summary and a description", () => {
    const operations = [...Object.values<Record<string, any>>(document.paths), ...Object.values<Record<string, any>>(document.webhooks)].flatMap((item) => Object.values<any>(item));
    expect(operations.length).toBeGreaterThan(25);
    const ids = operations.map((o) => o.operationId);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(document.tags.map((t: { name: string }) => t.name));
    expect([...tags]).toEqual(["Rates", "Counties", "Batches", "Webhook endpoints", "Certificates", "Tax", "Returns", "Health"]);
    for (const operation of operations) {
      expect(operation.tags, operation.operationId).toHaveLength(1);
      expect(tags.has(operation.tags[0]), operation.operationId).toBe(true);
      expect(operation.summary.length, operation.operationId).toBeGreaterThan(5);
      expect(operation.description.length, operation.operationId).toBeGreaterThan(10);
    }
    expect(document.paths["/api/v1/rates"].get.operationId).toBe("getRate");
    expect(document.paths["/api/v1/counties"].get.operationId).toBe("listCounties");
    expect(document.paths["/api/v1/webhooks"].post.operationId).toBe("createWebhook");
  });

  it("names its servers, contact and license", () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: "/" })]);
    expect(document.info.contact).toMatchObject({ name: "Buckeye", url: expect.stringMatching(/^https:\/\//) });
    expect(document.info.license).toEqual({ name: "MIT", identifier: "MIT" });
  });

  it("operations behind the API key document the RateLimit headers and X-Request-Id on every answer, WWW-Authenticate on 401 and Retry-After on 429", () => {
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        if (operation.security?.length === 0) continue;
        for (const [status, answer] of Object.entries<any>(operation.responses)) {
          const headers = Object.keys(answer.headers ?? {});
          const where = `${method} ${path} ${status}`;
          expect(headers, where).toContain("X-Request-Id");
          if (status === "401") expect(headers, where).toContain("WWW-Authenticate");
          else expect(headers, where).toEqual(expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]));
          if (status === "429") expect(answer.headers["Retry-After"], where).toEqual({ $ref: "#/components/headers/Retry-After" });
          if (status === "201") expect(headers, where).toContain("Location");
        }
      }
    }
  });

  it("every $ref points at a schema the document defines", () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of new Set(refs)) {
      const [, section, name] = /^#\/components\/(schemas|headers)\/(.+)$/.exec(ref) ?? [];
      expect(section && document.components[section][name!], ref).toBeDefined();
    }
  });
});

describe("GET /api/v1/openapi.json is one prepared representation: an ETag, a 304 for it, and brotli or gzip as asked", () => {
  const get = (headers: Record<string, string>) => api.service.app.fetch(new Request("http://buckeye.test/api/v1/openapi.json", { headers }));

  it("each encoding has its own strong ETag; If-None-Match with it answers an empty 304", async () => {
    const plain = await get({});
    const etag = plain.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(plain.headers.get("cache-control")).toBe("no-cache");
    expect(plain.headers.get("vary")).toBe("accept-encoding");
    expect(JSON.parse(await plain.text())).toEqual(document);
    expect((await get({})).headers.get("etag")).toBe(etag);
    const again = await get({ "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await get({ "if-none-match": '"something-else"' })).status).toBe(200);
  });

  it("is sent brotli- or gzip-compressed as Accept-Encoding prefers, decoding to the same document", async () => {
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const br = await get({ "accept-encoding": "gzip, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(JSON.parse(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString())).toEqual(document);
    const gz = await get({ "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(document);
    expect(gz.headers.get("etag")).not.toBe(br.headers.get("etag"));
  });
});

describe("real answers validate against the document", () => {
  const rates = (query: string) => call(api, "GET", `/api/v1/rates?${query}`);

  it("rate records: county, ZIP, a split county, a coming change, a point inside a transit district", async () => {
    const validate = answerSchema("/api/v1/rates", "get", 200);
    const point = FAKE_ADDRESSES.westervilleInDelaware;
    const answers = await Promise.all([
      rates("county=franklin"),
      rates("zip=43215"),
      rates("county=delaware"),
      rates("county=franklin&date=2025-03-01"),
      rates(`lat=${point.lat}&lon=${point.lon}`),
    ]);
    expect(answers.map((a) => a.res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[2]!.body.transit_district.status).toBe("unknown");
    expect(answers[3]!.body.upcoming).toMatchObject({ effective_date: "2025-04-01" });
    expect(answers[4]!.body).toMatchObject({ resolved_by: "coordinates", transit_district: { status: "inside" } });
    for (const { body } of answers) expectValid(validate, body);
    // The schemas are strict: a field the contract does not declare, or a missing one, is refused.
    const { request_id: _id, ...withoutId } = answers[0]!.body;
    expect([validate({ ...answers[0]!.body, surcharge: 0.01 }), validate(withoutId)]).toEqual([false, false]);
  });

  it("the ambiguous response, which a RateRecord schema alone would refuse", async () => {
    const { body } = await rates("zip=43068");
    expect(body.ambiguous).toBe(true);
    expectValid(answerSchema("/api/v1/rates", "get", 200), body);
    expect(validator({ $ref: "#/components/schemas/RateRecord" })(body)).toBe(false);
  });

  it("the counties response", async () => {
    const { body } = await call(api, "GET", "/api/v1/counties");
    expect(body.total).toBe(88);
    expectValid(answerSchema("/api/v1/counties", "get", 200), body);
  });

  it("problem details, with and without invalid_params", async () => {
    const validate = answerSchema("/api/v1/rates", "get", 404, "application/problem+json");
    const notFound = await rates("county=atlantis");
    const badDate = await rates("county=franklin&date=2025-02-30");
    const noKey = await api.get("/api/v1/rates?county=franklin", {});
    expect([notFound.res.status, badDate.res.status, noKey.status]).toEqual([404, 400, 401]);
    expect(badDate.body.invalid_params).toHaveLength(1);
    for (const body of [notFound.body, badDate.body, await noKey.json()]) expectValid(validate, body);
  });

  it("a webhook as registered and the test event's envelope", async () => {
    const created = await call(api, "POST", "/api/v1/webhooks", { key: api.testKey, body: { url: "http://127.0.0.1:9/hooks", events: ["rate.changed"] } });
    expect(created.res.status).toBe(201);
    expectValid(answerSchema("/api/v1/webhooks", "post", 201), created.body);
    const read = await call(api, "GET", `/api/v1/webhooks/${created.body.webhook.id}`, { key: api.testKey });
    expectValid(answerSchema("/api/v1/webhooks/{id}", "get", 200), read.body);
    const test = await call(api, "POST", `/api/v1/webhooks/${created.body.webhook.id}/test`, { key: api.testKey });
    expectValid(answerSchema("/api/v1/webhooks/{id}/test", "post", 202), test.body);
  });

  it("an inline batch, with a record, an ambiguous answer and a problem among its results", async () => {
    const { res, body } = await call(api, "POST", "/api/v1/rates/batch", {
      body: { lookups: [{ id: "a", county: "franklin" }, { id: "b", zip: "43068" }, { id: "c", county: "atlantis" }] },
    });
    expect(res.status).toBe(200);
    expect(body.results.map((r: any) => r.status)).toEqual([200, 200, 404]);
    expectValid(answerSchema("/api/v1/rates/batch", "post", 200), body);
  });

  it("a batch job as submitted and as polled", async () => {
    const submitted = await api.service.app.fetch(
      new Request("http://buckeye.test/api/v1/batches", {
        method: "POST",
        headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "text/csv" },
        body: "id,county\n1,franklin\n2,wayne\n",
      }),
    );
    expect(submitted.status).toBe(202);
    const job = await submitted.json();
    expectValid(answerSchema("/api/v1/batches", "post", 202), job);
    const polled = await call(api, "GET", `/api/v1/batches/${job.id}`);
    expectValid(answerSchema("/api/v1/batches/{id}", "get", 200), polled.body);
  });

  it("certificates, a webhook's deliveries, and the reconciliation log", async () => {
    const certificate = await call(api, "POST", "/api/v1/certificates", {
      body: { customer_id: "cust_9", customer_name: "Lima Locksmiths", exempt_reason: "resale", expires_on: "2027-03-31" },
    });
    expect(certificate.res.status).toBe(201);
    expectValid(answerSchema("/api/v1/certificates", "post", 201), certificate.body);
    expectValid(answerSchema("/api/v1/certificates", "get", 200), (await call(api, "GET", "/api/v1/certificates")).body);

    const { webhooks } = (await call(api, "GET", "/api/v1/webhooks", { key: api.testKey })).body;
    const deliveries = await call(api, "GET", `/api/v1/webhooks/${webhooks[0].id}/deliveries`, { key: api.testKey });
    expect(deliveries.body.deliveries.length).toBeGreaterThan(0);
    expectValid(answerSchema("/api/v1/webhooks/{id}/deliveries", "get", 200), deliveries.body);

    await api.service.background.scheduler.run("reconcile", new Date("2026-12-01T10:30:00Z"));
    const log = await call(api, "GET", "/api/v1/reconciliations");
    expect(log.body.reconciliations).toHaveLength(1);
    expectValid(answerSchema("/api/v1/reconciliations", "get", 200), log.body);
  });
});
