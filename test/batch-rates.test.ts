/** POST /api/v1/rates/batch: up to 1,000 lookups answered inline, over real worker threads and a FAKE UPSTREAM geocoder. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_ADDRESSES, oneLine, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestService, type TestService, startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

let fake: FakeCensusGeocoder;
let api: GeocodedTestService;
beforeAll(async () => {
  api = await startTestServiceWithFakeGeocoder();
  fake = api.fake;
});
afterAll(async () => {
  await api?.close();
});

async function postBatch(service: TestService, body: unknown, contentType = "application/json") {
  const res = await service.service.app.fetch(
    new Request("http://buckeye.test/api/v1/rates/batch", {
      method: "POST",
      headers: { authorization: `Bearer ${service.liveKey}`, "content-type": contentType },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("POST /api/v1/rates/batch answers every lookup inline, in input order", () => {
  it("gives each item a rate record, an ambiguous response or a problem object, with the status a single lookup would get", async () => {
    const rossford = FAKE_ADDRESSES.rossford;
    const lookups = [
      { id: "a", zip: "43215", date: "2026-06-01" },
      { id: "b", county: "Adams" },
      { id: "c", address: oneLine("columbusInDelaware"), date: "2026-06-01" },
      { id: "d", lat: rossford.lat, lon: rossford.lon, date: "2026-06-01" },
      { id: "e", zip: "4321" },
      { id: "f", county: "Nowhere" },
      { id: "g", address: "nowhere at all" },
      { id: "h", zip: "43017" },
      { id: "i", address: "1 Nowhere Ln, Galena, OH 43021", date: "2026-06-01" },
      { id: "j", zip: "43215", colour: "blue" },
      { id: "k", lat: 40.1, lon: -84.9 },
      { id: "l", county: "adams", date: "2017-12-31" },
    ];
    const { res, body } = await postBatch(api, { lookups });
    expect(res.status).toBe(200);
    expect(body.total).toBe(lookups.length);
    expect(body.results.map((r: any) => r.id)).toEqual(lookups.map((l) => l.id));
    expect(body.results.map((r: any) => r.status)).toEqual([200, 200, 200, 200, 400, 404, 422, 200, 200, 200, 422, 422]);
    const [a, b, c, d, e, f, g, h, i, j, k, l] = body.results.map((r: any) => r.body);
    expect(a).toMatchObject({ county: "Franklin", resolved_by: "zip_unambiguous" });
    expect(b).toMatchObject({ county: "Adams", resolved_by: "county_param" });
    expect(c).toMatchObject({ county: "Delaware", resolved_by: "address_geocoding", combined_rate: 0.08 });
    expect(c.transit_district.status).toBe("inside");
    expect(d).toMatchObject({ county: "Wood", resolved_by: "coordinates", combined_rate: 0.0725 });
    expect(e).toMatchObject({ type: expect.stringMatching(/\/bad-request$/), status: 400, invalid_params: [{ name: "zip", reason: expect.any(String) }] });
    expect(f.type).toMatch(/\/county-not-found$/);
    expect(g.type).toMatch(/\/address-not-resolved$/);
    expect(h).toMatchObject({ ambiguous: true, zip: "43017" });
    expect(i).toMatchObject({ county: "Delaware", resolved_by: "zip_fallback" });
    expect(i.transit_district.status).toBe("unknown");
    // A field Buckeye does not read (an export's own column) is ignored and named in ignored_fields.
    expect(j).toMatchObject({ county: "Franklin", resolved_by: "zip_unambiguous" });
    expect(body.ignored_fields).toEqual(["colour"]);
    expect(k.type).toMatch(/\/outside-ohio$/);
    expect(l.type).toMatch(/\/date-out-of-range$/);
    expect(body.failed).toBe(5);
    for (const result of body.results) expect(result.body.request_id).toBe(body.request_id);
  });

  it("takes 1,000 lookups", async () => {
    const lookups = Array.from({ length: 1000 }, (_, n) => ({ id: String(n), zip: n % 2 ? "43215" : "43402" }));
    const { res, body } = await postBatch(api, { lookups });
    expect(res.status).toBe(200);
    expect(body.results).toHaveLength(1000);
    expect(body.results[999]).toMatchObject({ id: "999", status: 200, body: { county: "Franklin" } });
  });
});

describe("POST /api/v1/rates/batch refuses a body it cannot take as a whole", () => {
  it("413 batch-too-large over 1,000 lookups", async () => {
    const { res, body } = await postBatch(api, { lookups: Array.from({ length: 1001 }, () => ({ zip: "43215" })) });
    expect(res.status).toBe(413);
    expect(body.type).toMatch(/\/batch-too-large$/);
  });

  it("400 bad-request for a body that is not JSON, has no lookups array, or an empty one", async () => {
    for (const body of ["{", JSON.stringify({ items: [] }), JSON.stringify({ lookups: [] }), JSON.stringify([{ zip: "43215" }])]) {
      const { res } = await postBatch(api, body);
      expect(res.status).toBe(400);
    }
  });

  it("415 unsupported-media-type unless the body is application/json", async () => {
    const { res, body } = await postBatch(api, "zip\n43215\n", "text/csv");
    expect(res.status).toBe(415);
    expect(body.type).toMatch(/\/unsupported-media-type$/);
  });
});

describe("a batch counts as one request against the rate limit", () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startTestService({ RATE_LIMIT_PER_SECOND: "2", CENSUS_GEOCODER_URL: fake.url });
  });
  afterAll(() => limited?.close());

  it("500 lookups take one token from a bucket of 2", async () => {
    const { res } = await postBatch(limited, { lookups: Array.from({ length: 500 }, () => ({ county: "wood" })) });
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("2");
    expect(res.headers.get("ratelimit-remaining")).toBe("1");
  });
});

describe("one lookup item: GET /rates and a batch item accept and refuse the same values", () => {
  async function single(query: Record<string, string>) {
    const res = await api.service.app.fetch(
      new Request(`http://buckeye.test/api/v1/rates?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${api.liveKey}` } }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  it("lat/lon with up to 15 decimal places are accepted, 16 refused; a JSON number is read by its shortest decimal form", async () => {
    const fine = { lat: "39.961234567890123", lon: "-82.998812345678", date: "2026-06-01" };
    const get = await single(fine);
    const { body } = await postBatch(api, { lookups: [fine, { ...fine, lat: Number(fine.lat), lon: Number(fine.lon) }] });
    expect(get.status).toBe(200);
    expect(body.results.map((r: any) => [r.status, r.body.county])).toEqual([[200, get.body.county], [200, get.body.county]]);

    const tooFine = { lat: "39.9612345678901234", lon: "-82.9988", date: "2026-06-01" };
    const refused = await single(tooFine);
    const batch = await postBatch(api, { lookups: [tooFine] });
    expect(refused.status).toBe(400);
    expect(batch.body.results[0].status).toBe(400);
    expect(refused.body.invalid_params).toEqual(batch.body.results[0].body.invalid_params);
  });

  it("zip takes 43017-1234 and 430171234 in a batch item as in the query string", async () => {
    const { body } = await postBatch(api, { lookups: [{ zip: "43017-1234" }, { zip: "430171234" }, { zip: 43017 }, { zip: "43017-12" }] });
    expect(body.results.map((r: any) => r.status)).toEqual([200, 200, 200, 400]);
    for (const result of body.results.slice(0, 3)) expect(result.body).toMatchObject({ ambiguous: true, zip: "43017" });
    const get = await single({ zip: "43017-12" });
    expect(get.body.invalid_params[0].reason).toBe(body.results[3].body.invalid_params[0].reason);
  });
});
