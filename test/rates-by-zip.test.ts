import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService();
});
afterAll(() => api.close());

async function rate(query: string) {
  const res = await api.get(`/api/v1/rates?${query}`);
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("GET /api/v1/rates?zip=", () => {
  it("a ZIP inside one county returns the exact rate, resolved_by zip_unambiguous", async () => {
    const { res, body } = await rate("zip=43215&date=2026-01-01");
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ county: "Franklin", fips: "39049", combined_rate: 0.08, resolved_by: "zip_unambiguous", ambiguous: false });
  });

  it("a ZIP with no ZCTA (a post office or unique ZIP) is placed in its county by its point", async () => {
    const { body } = await rate("zip=45999&date=2026-01-01");
    expect(body).toMatchObject({ county: "Hamilton", resolved_by: "zip_unambiguous", combined_rate: 0.078 });
  });

  it("a ZIP spanning counties is a 200 ambiguous response with one candidate per county", async () => {
    const { res, body } = await rate("zip=43068&date=2026-01-01");
    expect(res.status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      ["ambiguous", "zip", "message", "candidate_counties", "lowest_combined_rate", "lowest_rate_basis", "date_evaluated", "source", "last_reconciled", "request_id"].sort(),
    );
    expect(body).toMatchObject({ ambiguous: true, zip: "43068", date_evaluated: "2026-01-01" });
    expect(body.message).toMatch(/address|county/);
    expect(body.candidate_counties.map((c: any) => c.county)).toEqual(["Franklin", "Licking", "Fairfield"]);
    for (const candidate of body.candidate_counties) {
      expect(Object.keys(candidate)).toEqual(
        expect.arrayContaining(["county", "fips", "combined_rate", "components", "effective_from", "transit_district_possible", "transit_district", "land_area_share"]),
      );
    }
    const [franklin, licking, fairfield] = body.candidate_counties;
    expect(franklin).toMatchObject({ combined_rate: 0.08, transit_district: null, transit_district_possible: false });
    expect(licking).toMatchObject({ combined_rate: 0.0725, transit_district_possible: true, transit_district: { status: "unknown", combined_rate_inside: 0.0825 } });
    expect(fairfield).toMatchObject({ combined_rate: 0.0675, transit_district: { status: "unknown", combined_rate_inside: 0.0775 } });
    const shares = body.candidate_counties.map((c: any) => c.land_area_share);
    expect(shares.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 4);
  });

  it("lowest_combined_rate is the lowest candidate rate (Ohio Adm. Code 5703-9-51)", async () => {
    const { body } = await rate("zip=43068&date=2026-01-01");
    expect(body.lowest_combined_rate).toBe(0.0675);
    expect(body.lowest_rate_basis).toContain("5703-9-51");
  });

  it("a county with a sliver of a ZIP is still a candidate: no threshold drops it", async () => {
    const { body } = await rate("zip=45327");
    const warren = body.candidate_counties.find((c: any) => c.county === "Warren");
    expect(warren.land_area_share).toBeLessThan(0.001);
  });

  it("a malformed ZIP is 400 bad-request (5 digits, or a ZIP+4)", async () => {
    for (const zip of ["4321", "432150", "43215-123", "43215 1234", "4321512345", "abcde"]) {
      const { res, body } = await rate(`zip=${zip}`);
      expect(res.status, zip).toBe(400);
      expect(body.invalid_params[0].name).toBe("zip");
    }
  });

  it("a ZIP+4, as 43215-1234 or 432151234, answers as its 5-digit ZIP when no boundary file is loaded", async () => {
    const five = await rate("zip=43017");
    for (const zip of ["43017-1234", "430171234"]) {
      const { res, body } = await rate(`zip=${zip}`);
      expect(res.status, zip).toBe(200);
      expect({ ...body, request_id: "" }, zip).toEqual({ ...five.body, request_id: "" });
    }
  });

  it("a well-formed ZIP that is not an Ohio ZIP is 404 zip-not-found", async () => {
    for (const zip of ["90210", "43999"]) {
      const { res, body } = await rate(`zip=${zip}`);
      expect(res.status, zip).toBe(404);
      expect(body.type).toMatch(/\/zip-not-found$/);
    }
  });
});

describe("several lookup parameters at once", () => {
  it("county wins over zip and resolves a split ZIP when the ZIP touches the county", async () => {
    const { body } = await rate("zip=43068&county=licking&date=2026-01-01");
    expect(body).toMatchObject({ county: "Licking", resolved_by: "county_param", combined_rate: 0.0725 });
  });

  it("a zip that does not touch the county is 400 parameter-conflict", async () => {
    const { res, body } = await rate("zip=43215&county=lucas");
    expect(res.status).toBe(400);
    expect(body.type).toMatch(/\/parameter-conflict$/);
    expect(body.invalid_params[0].name).toBe("zip");
  });
});
