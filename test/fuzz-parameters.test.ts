import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
let geocoder: FakeCensusGeocoder;
beforeAll(async () => {
  // Address lookups geocode against a fake upstream, so no 5xx can come from an unreachable geocoder.
  geocoder = await startFakeCensusGeocoder();
  api = await startTestService({ CENSUS_GEOCODER_URL: geocoder.url });
});
afterAll(async () => {
  await api.close();
  await geocoder.close();
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
