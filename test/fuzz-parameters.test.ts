import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneLine } from "./fake-census-geocoder.ts";
import { startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

let api: GeocodedTestService;
beforeAll(async () => {
  // Address lookups geocode against a fake upstream, so no 5xx can come from an unreachable geocoder.
  api = await startTestServiceWithFakeGeocoder();
});
afterAll(async () => {
  await api?.close();
});

/** Any answer is fine but a 5xx; every error must be problem+json with the contract's fields. */
async function expectWellFormed(res: Response): Promise<void> {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["type", "title", "status", "detail", "request_id"]));
    expect(body.status).toBe(res.status);
  } else {
    await res.arrayBuffer();
  }
}

const text = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.constantFrom("", " ", "%", "\u0000", "43215", "2025-04-01", "franklin", oneLine("rossford"), "1 Nowhere Ln, Galena, OH 43021", "40.1", "-83.02", "91"));
const PARAMS = ["county", "zip", "address", "lat", "lon", "date", "search", "sort", "x"];

describe("random input never breaks the API (property-based)", () => {
  it("random values for every query parameter of /rates and /counties give no 5xx and only problem+json errors", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/api/v1/rates", "/api/v1/counties"),
        fc.dictionary(fc.constantFrom(...PARAMS), text, { maxKeys: 4 }),
        async (path, params) => {
          const query = new URLSearchParams(params).toString();
          await expectWellFormed(await api.get(`${path}?${query}`));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("random raw query strings give no 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 200 }), async (raw) => {
        await expectWellFormed(await api.get(`/api/v1/rates?${encodeURI(raw).replace(/#/g, "%23")}`));
      }),
      { numRuns: 300 },
    );
  });

  it("random Authorization headers are 401 problems, never 5xx", async () => {
    const header = fc.oneof(
      fc.string(),
      fc.string().map((s) => `Bearer ${s}`),
      fc.string().map((s) => `Bearer tax_live_${s}`),
      fc.stringMatching(/^[0-9A-Za-z]{38}$/).map((s) => `Bearer tax_test_${s}`),
    );
    await fc.assert(
      fc.asyncProperty(header, async (value) => {
        let headers: Record<string, string>;
        try {
          headers = { authorization: new Headers({ authorization: value }).get("authorization")! };
        } catch {
          return; // not a legal header value: no HTTP client could send it
        }
        const res = await api.get("/api/v1/rates?county=adams", headers);
        expect(res.status).toBe(401);
        await expectWellFormed(res);
      }),
      { numRuns: 300 },
    );
  });
});

/** Rows in a table, counted to prove a refused request stored nothing. */
const count = async (table: "webhooks" | "certificates" | "batch_jobs") => (await api.service.store.db.selectFrom(table).select("id").execute()).length;

async function post(path: string, body: string, contentType: string | null, key = api.liveKey): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (contentType !== null) headers["content-type"] = contentType;
  return api.service.app.fetch(new Request(`http://buckeye.test${path}`, { method: "POST", headers, body }));
}

/** Sends; a 5xx fails; a refusal must leave `table` as it was, an acceptance may add one row. */
async function expectStoredOnlyIfAccepted(table: "webhooks" | "certificates" | "batch_jobs", send: () => Promise<Response>): Promise<void> {
  const before = await count(table);
  const res = await send();
  const status = res.status;
  await expectWellFormed(res);
  const after = await count(table);
  if (status >= 400) expect(after, `stored by a refused ${status}`).toBe(before);
  else expect(after - before).toBeLessThanOrEqual(1);
}

const ITEM_FIELDS = ["id", "address", "zip", "county", "lat", "lon", "date"];
const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 2 }), fc.dictionary(fc.string(), text, { maxKeys: 2 }));
const item = fc.dictionary(fc.constantFrom(...ITEM_FIELDS, "extra"), value, { maxKeys: 4 });
const contentType = fc.oneof(fc.constant("application/json"), fc.constantFrom("application/json; charset=utf-8", "application/json-seq", "text/plain", "", "APPLICATION/JSON"), fc.string());
/** Raw bodies: JSON of any shape, JSON cut short, or bytes that are not JSON at all. */
const rawJson = (shaped: fc.Arbitrary<unknown>) =>
  fc.oneof(
    shaped.map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    shaped.chain((v) => fc.nat().map((n) => JSON.stringify(v).slice(0, n))),
    fc.string({ unit: "binary" }),
  );
const legalType = (type: string) => {
  try {
    return new Headers({ "content-type": type }).get("content-type");
  } catch {
    return undefined; // not a legal header value: no HTTP client could send it
  }
};

describe("random request bodies never break the API, and a refused request stores nothing (property-based)", () => {
  it("POST /api/v1/rates/batch with random JSON items and raw bodies gives no 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(rawJson(fc.record({ lookups: fc.array(item, { maxLength: 5 }) })), contentType, async (body, type) => {
        const header = legalType(type);
        if (header === undefined) return;
        await expectWellFormed(await post("/api/v1/rates/batch", body, header));
      }),
      { numRuns: 200 },
    );
  });

  it("POST /api/v1/webhooks with random bodies gives no 5xx and stores nothing when refused", async () => {
    // Hosts are address literals or names under .invalid, so no random input waits on a DNS answer.
    const url = fc.oneof(
      text,
      fc.ipV4().map((ip) => `https://${ip}/hooks`),
      fc.ipV6().map((ip) => `https://[${ip}]/hooks`),
      fc.tuple(fc.constantFrom("https://", "HTTP://", "http://", "ftp://", "https:\\\\"), fc.constantFrom("93.184.216.34", "127.0.0.1", "[::1]", "x.invalid"), fc.string({ unit: "binary", maxLength: 20 })).map(([scheme, host, rest]) => `${scheme}${host}${rest}`),
    );
    const events = fc.oneof(fc.constant(["*"]), fc.array(fc.oneof(text, fc.constantFrom("rate.changed", "filing.due", "*")), { maxLength: 3 }), value);
    const shaped = fc.record({ url, events }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(rawJson(shaped), contentType, fc.boolean(), async (body, type, testKey) => {
        const header = legalType(type);
        if (header === undefined) return;
        await expectStoredOnlyIfAccepted("webhooks", () => post("/api/v1/webhooks", body, header, testKey ? api.testKey : api.liveKey));
      }),
      { numRuns: 200 },
    );
  });

  it("POST /api/v1/certificates with random bodies gives no 5xx and stores nothing when refused", async () => {
    const shaped = fc.record(
      { customer_id: value, customer_name: value, exempt_reason: value, expires_on: fc.oneof(value, fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))) },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(rawJson(shaped), contentType, async (body, type) => {
        const header = legalType(type);
        if (header === undefined) return;
        await expectStoredOnlyIfAccepted("certificates", () => post("/api/v1/certificates", body, header));
      }),
      { numRuns: 200 },
    );
  });

  it("CSV and NDJSON uploads to POST /api/v1/batches give no 5xx and store no job when refused", async () => {
    const cell = fc.oneof(text, fc.constantFrom('"', '""', ",", "\n", "\r\n", '"a,b"', "=1+1", "43215", "franklin"));
    const csv = fc
      .tuple(fc.array(fc.oneof(fc.constantFrom(...ITEM_FIELDS), fc.string()), { minLength: 0, maxLength: 4 }), fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 6 }), fc.constantFrom("\n", "\r\n"))
      .map(([header, rows, eol]) => [header.join(","), ...rows.map((row) => row.join(","))].join(eol));
    const ndjson = fc.array(fc.oneof(item.map((i) => JSON.stringify(i)), fc.jsonValue().map((v) => JSON.stringify(v)), fc.string()), { maxLength: 6 }).map((lines) => lines.join("\n"));
    const upload = fc.oneof(
      fc.tuple(csv, fc.constantFrom("text/csv", "text/csv; charset=utf-8", "application/x-ndjson")),
      fc.tuple(ndjson, fc.constantFrom("application/x-ndjson", "application/jsonl", "text/csv")),
      fc.tuple(fc.string({ unit: "binary" }), contentType),
    );
    await fc.assert(
      fc.asyncProperty(upload, async ([body, type]) => {
        const header = legalType(type);
        if (header === undefined) return;
        await expectStoredOnlyIfAccepted("batch_jobs", () => post("/api/v1/batches", body, header));
      }),
      { numRuns: 150 },
    );
  });
});
