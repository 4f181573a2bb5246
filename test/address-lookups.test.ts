/**
 * GET /api/v1/rates by address and by lat/lon (resolved_by, transit districts),
 * through real worker threads and a FAKE UPSTREAM Census Geocoder (test/fake-census-geocoder.ts).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_ADDRESSES, oneLine, startFakeCensusGeocoder, type FakeAddressName, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestService, type TestService, startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";
import { polygonFiles } from "./_polygons.ts";

/** The notes name the TIGER/Line vintages the service loaded: whatever GEO_DATA_DIR holds. */
const { counties: { vintage: countyVintage }, places: { vintage: placeVintage } } = polygonFiles();

const DATE = "2026-06-01";
let fake: FakeCensusGeocoder;
let api: GeocodedTestService;

beforeAll(async () => {
  api = await startTestServiceWithFakeGeocoder();
  fake = api.fake;
});
afterAll(async () => {
  await api?.close();
});

async function rates(service: TestService, query: Record<string, string>) {
  const res = await service.get(`/api/v1/rates?${new URLSearchParams({ date: DATE, ...query })}`);
  return { res, body: (await res.json()) as Record<string, any> };
}
const byAddress = (name: FakeAddressName) => rates(api, { address: oneLine(name) });
const byPoint = (name: FakeAddressName) => rates(api, { lat: String(FAKE_ADDRESSES[name].lat), lon: String(FAKE_ADDRESSES[name].lon) });

/** [county, address inside the district, address outside it, rate inside, rate outside, district levy, a ZIP wholly in the county]. */
const SPLIT_COUNTIES: Array<[string, FakeAddressName[], FakeAddressName, number, number, number, string]> = [
  ["Delaware", ["columbusInDelaware", "westervilleInDelaware", "dublinInDelaware"], "delawareCity", 0.08, 0.07, 0.01, "43021"],
  ["Fairfield", ["columbusInFairfield", "reynoldsburgInFairfield"], "carroll", 0.0775, 0.0675, 0.01, "43112"],
  ["Licking", ["reynoldsburgInLicking"], "pataskala", 0.0825, 0.0725, 0.01, "43073"],
  ["Union", ["dublinInUnion"], "marysville", 0.08, 0.07, 0.01, "43007"],
  ["Wood", ["rossford"], "bowlingGreen", 0.0725, 0.0675, 0.005, "43402"],
];

describe("resolved_by address_geocoding: the geocoder's match decides county and place", () => {
  it("resolves the Ohio Statehouse to Franklin County, where COTA's levy is countywide", async () => {
    const { res, body } = await byAddress("statehouse");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ county: "Franklin", fips: "39049", resolved_by: "address_geocoding", combined_rate: 0.08, transit_district: null, ambiguous: false });
    expect(body.components.transit_authority).toBe(0.01);
  });

  it("asks the Census Geocoder for geographies with benchmark Public_AR_Current, vintage Current_Current, format json and the county and place layers", async () => {
    await byAddress("marysville");
    const call = fake.requests.find((url) => url.searchParams.get("street") === FAKE_ADDRESSES.marysville.street)!;
    expect(call.pathname).toBe("/geocoder/geographies/address");
    expect(Object.fromEntries(call.searchParams)).toMatchObject({
      city: "Marysville", state: "OH", zip: "43040", benchmark: "Public_AR_Current", vintage: "Current_Current", format: "json", layers: "Counties,Incorporated Places",
    });
  });

  it("uses the one-line endpoint when street and city cannot be told apart", async () => {
    await rates(api, { address: "300 Dixie Hwy Rossford" });
    expect(fake.requests.at(-1)!.pathname).toBe("/geocoder/geographies/onelineaddress");
  });

  it("lets the address win over a county sent with it", async () => {
    const { body } = await rates(api, { address: oneLine("rossford"), county: "adams" });
    expect(body).toMatchObject({ county: "Wood", resolved_by: "address_geocoding" });
  });
});

describe("transit_district.status inside / outside / unknown in each split county", () => {
  for (const [county, insides, outside, rateInside, rateOutside, levy, zip] of SPLIT_COUNTIES) {
    describe(`${county} County`, () => {
      for (const inside of insides) {
        it(`an address in ${FAKE_ADDRESSES[inside].place.name} is inside: the levy is in combined_rate and components.transit_authority`, async () => {
          const { res, body } = await byAddress(inside);
          expect(res.status).toBe(200);
          expect(body).toMatchObject({ county, resolved_by: "address_geocoding", combined_rate: rateInside, transit_district_possible: false });
          expect(body.transit_district).toMatchObject({ status: "inside", combined_rate_inside: rateInside });
          expect(body.components.transit_authority).toBe(levy);
        });
      }

      it(`an address in ${FAKE_ADDRESSES[outside].place.name} is outside: the countywide rate, no levy`, async () => {
        const { body } = await byAddress(outside);
        expect(body).toMatchObject({ county, resolved_by: "address_geocoding", combined_rate: rateOutside, transit_district_possible: false });
        expect(body.transit_district).toMatchObject({ status: "outside", combined_rate_inside: rateInside });
        expect(body.components.transit_authority).toBe(0);
      });

      it(`the same points as lat/lon resolve offline with resolved_by coordinates and the same status`, async () => {
        const inside = await byPoint(insides[0]!);
        expect(inside.body).toMatchObject({ county, resolved_by: "coordinates", combined_rate: rateInside });
        expect(inside.body.transit_district.status).toBe("inside");
        const out = await byPoint(outside);
        expect(out.body).toMatchObject({ county, resolved_by: "coordinates", combined_rate: rateOutside });
        expect(out.body.transit_district.status).toBe("outside");
      });

      it(`an address the geocoder cannot match falls back to ZIP ${zip}: status unknown, transit_district_possible true`, async () => {
        const { body } = await rates(api, { address: `1 Nowhere Ln, Somewhere, OH ${zip}` });
        expect(body).toMatchObject({ county, resolved_by: "zip_fallback", combined_rate: rateOutside, transit_district_possible: true });
        expect(body.transit_district.status).toBe("unknown");
        expect(body.note).toMatch(/no match/);
      });
    });
  }
});

describe("the annexation note", () => {
  it("names the boundaries that decided and warns that newer annexations are not reflected", async () => {
    const { body } = await byAddress("columbusInDelaware");
    expect(body.note).toMatch(/Census Bureau's current incorporated places/);
    expect(body.note).toMatch(/Columbus city/);
    expect(body.note).toMatch(/annexation/);
  });

  it("uses the Census Bureau's current place over our place polygons, and says they disagree", async () => {
    const { body } = await byAddress("annexedToColumbus");
    expect(body).toMatchObject({ county: "Delaware", combined_rate: 0.08 });
    expect(body.transit_district.status).toBe("inside");
    expect(body.note).toMatch(new RegExp(`TIGER/Line ${placeVintage} place boundaries put these coordinates in no incorporated city or village`));
    // The same point by coordinates has only our polygons to go by: unincorporated, so outside.
    const point = await byPoint("annexedToColumbus");
    expect(point.body.transit_district.status).toBe("outside");
    expect(point.body.note).toMatch(new RegExp(`TIGER/Line ${placeVintage} place boundaries.*annexations`));
  });

  it("falls back to our place polygons when the Census places layer reports an error", async () => {
    const { body } = await byAddress("rossfordLayerError");
    expect(body.transit_district.status).toBe("inside");
    expect(body.note).toMatch(new RegExp(`TIGER/Line ${placeVintage} place boundaries \\(the geocoder returned no place layer\\)`));
  });

  it("adds no note outside the split counties", async () => {
    const { body } = await byAddress("statehouse");
    expect(body.note).toBeUndefined();
  });
});

describe("resolved_by zip_fallback", () => {
  it("uses the zip parameter before the ZIP at the end of the address", async () => {
    const { body } = await rates(api, { address: "1 Nowhere Ln, Columbus, OH 43215", zip: "43402" });
    expect(body).toMatchObject({ county: "Wood", resolved_by: "zip_fallback" });
  });

  it("answers a ZIP with no ZCTA (a post-office ZIP placed by its point) from that point's county", async () => {
    const { body } = await rates(api, { address: "PO Box 12, Kirkersville, OH 43073" });
    expect(body).toMatchObject({ county: "Licking", resolved_by: "zip_fallback" });
  });

  it("gives the ambiguous response when the fallback ZIP spans several counties", async () => {
    const { res, body } = await rates(api, { address: "1 Nowhere Ln, Dublin, OH 43017" });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ ambiguous: true, zip: "43017" });
    expect(body.candidate_counties.map((c: any) => c.county).sort()).toEqual(["Delaware", "Franklin", "Union"]);
    expect(body.note).toMatch(/no match/);
  });

  it("a geocoder that returns coordinates is not asked again for the same normalised address (LRU cache)", async () => {
    await rates(api, { address: "8000 Avery Rd, Dublin, OH 43016" });
    const before = fake.requests.length;
    await rates(api, { address: "8000  AVERY ROAD , dublin, Ohio 43016-1234" });
    expect(fake.requests.length).toBe(before);
  });
});

describe("address and coordinate errors", () => {
  it("422 address-not-resolved when the geocoder finds no match and no ZIP is usable; 422 outside-ohio when its ZIP is outside Ohio", async () => {
    const none = await rates(api, { address: "somewhere over the rainbow" });
    expect(none.res.status).toBe(422);
    expect(none.body.type).toMatch(/\/address-not-resolved$/);
    const foreign = await rates(api, { address: "1 Nowhere Ln, Springfield, IL 62701" });
    expect(foreign.res.status).toBe(422);
    expect(foreign.body.type).toMatch(/\/outside-ohio$/);
    expect(foreign.body.detail).toMatch(/^ZIP 62701 \(Ohio's begin 430 to 459\) is outside Ohio/);
  });

  it("422 outside-ohio for an address the geocoder places in Indiana, and for a point there", async () => {
    const address = await byAddress("fortWayne");
    expect(address.res.status).toBe(422);
    expect(address.body.type).toMatch(/\/outside-ohio$/);
    const point = await rates(api, { lat: "40.1", lon: "-84.9" });
    expect(point.res.status).toBe(422);
    expect(point.body.type).toMatch(/\/outside-ohio$/);
  });

  it("400 bad-request for lat without lon, or degrees out of range", async () => {
    const lone = await rates(api, { lat: "40.1" });
    expect(lone.res.status).toBe(400);
    expect(lone.body.invalid_params[0].name).toBe("lon");
    const far = await rates(api, { lat: "91", lon: "-83" });
    expect(far.res.status).toBe(400);
    expect(far.body.invalid_params.map((p: any) => p.name)).toEqual(["lat"]);
  });
});

describe("geocoder outage: zip fallback with a note, else 503 geocoder-unavailable with Retry-After", () => {
  let down: FakeCensusGeocoder;
  let service: TestService;
  beforeAll(async () => {
    down = await startFakeCensusGeocoder();
    down.setMode("error");
    service = await startTestService({ CENSUS_GEOCODER_URL: down.url, GEOCODER_FAILURE_THRESHOLD: "2", GEOCODER_COOLDOWN_MS: "60000" });
  });
  afterAll(async () => {
    await service?.close();
    await down?.close();
  });

  it("answers from the ZIP, saying the address could not be geocoded", async () => {
    const { res, body } = await rates(service, { address: oneLine("rossford") });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ county: "Wood", resolved_by: "zip_fallback" });
    expect(body.note).toMatch(/could not be geocoded \(the geocoder answered HTTP 500\)/);
  });

  it("retries a 5xx once, then opens the circuit: later lookups cost no upstream call", async () => {
    // Two failed lookups so far (threshold 2), each tried twice.
    await rates(service, { address: "1 Other St, Somewhere, OH 43402" });
    const calls = down.requests.length;
    expect(calls).toBe(4);
    const { res, body } = await rates(service, { address: "2 Other St, Somewhere" });
    expect(down.requests.length).toBe(calls);
    expect(res.status).toBe(503);
    expect(body.type).toMatch(/\/geocoder-unavailable$/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(50);
  });
});

describe("without boundary data: 503 boundaries-unavailable, county and ZIP still work, /readyz says why", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ GEO_DATA_DIR: mkdtempSync(join(tmpdir(), "buckeye-no-geo-")), CENSUS_GEOCODER_URL: fake.url });
  });
  afterAll(() => service?.close());

  it("address and lat/lon lookups answer 503 boundaries-unavailable", async () => {
    for (const query of [{ address: oneLine("rossford") }, { lat: "41.6", lon: "-83.6" }] as Record<string, string>[]) {
      const { res, body } = await rates(service, query);
      expect(res.status).toBe(503);
      expect(body.type).toMatch(/\/boundaries-unavailable$/);
      expect(body.detail).toMatch(/fetch-geo/);
    }
  });

  it("county and ZIP lookups still answer", async () => {
    expect((await rates(service, { county: "wood" })).res.status).toBe(200);
    expect((await rates(service, { zip: "43402" })).res.status).toBe(200);
  });

  it("/readyz is 503 and names the missing polygon files", async () => {
    const res = await service.get("/readyz", {});
    const body = (await res.json()) as any;
    expect(res.status).toBe(503);
    expect(body.checks.boundaries).toBe("unavailable");
    expect(body.reasons.join(" ")).toMatch(/no county or place polygon file.*fetch-geo/);
  });
});

describe("/readyz with boundary data", () => {
  it("is 200 once the worker threads have loaded the polygons", async () => {
    await api.service.context.lookups.pool.warm();
    const res = await api.get("/readyz", {});
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.checks.boundaries).toMatch(new RegExp(`TIGER/Line ${countyVintage}, places ${placeVintage}, 2 worker threads`));
  });
});
