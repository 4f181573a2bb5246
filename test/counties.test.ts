import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService();
});
afterAll(() => api.close());

async function counties(query = "") {
  const res = await api.get(`/api/v1/counties${query}`);
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("GET /api/v1/counties", () => {
  it("the wrapper has total 88, state_base_rate 0.0575, last_reconciled, statutory_authority and the counties", async () => {
    const { res, body } = await counties();
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ total: 88, state_base_rate: 0.0575, statutory_authority: "Ohio Department of Taxation" });
    expect(body.last_reconciled).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.counties).toHaveLength(88);
  });

  it("each county item carries county, slug, fips, combined_rate, components {state, county, transit}, effective_from, transit fields, has_upcoming_change, source", async () => {
    const { body } = await counties("?date=2026-01-01");
    const lucas = body.counties.find((c: any) => c.slug === "lucas");
    expect(lucas).toMatchObject({
      county: "Lucas",
      slug: "lucas",
      fips: "39095",
      combined_rate: 0.0775,
      components: { state: 0.0575, county: 0.015, transit: 0.005 },
      effective_from: "2022-04-01",
      transit_district_possible: false,
      transit_district: null,
      has_upcoming_change: false,
      source: "Ohio Department of Taxation",
    });
  });

  it("transit_district_possible is true for exactly Delaware, Fairfield, Licking, Union and Wood", async () => {
    const { body } = await counties();
    const split = body.counties.filter((c: any) => c.transit_district_possible).map((c: any) => c.county);
    expect(split).toEqual(["Delaware", "Fairfield", "Licking", "Union", "Wood"]);
  });

  it("sort=name (the default) lists counties alphabetically", async () => {
    const names = (await counties()).body.counties.map((c: any) => c.county);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    expect(names[0]).toBe("Adams");
  });

  it("sort=rate_asc and rate_desc order by combined rate, then name", async () => {
    const asc = (await counties("?sort=rate_asc&date=2026-01-01")).body.counties;
    const desc = (await counties("?sort=rate_desc&date=2026-01-01")).body.counties;
    const ascRates = asc.map((c: any) => c.combined_rate);
    expect(ascRates).toEqual([...ascRates].sort((a, b) => a - b));
    expect(desc[0].combined_rate).toBe(0.08);
    expect(desc.slice(0, 2).map((c: any) => c.county)).toEqual(["Cuyahoga", "Franklin"]);
    expect(asc[0].combined_rate).toBe(0.065);
  });

  it("search filters by name prefix, case-insensitively", async () => {
    const { body } = await counties("?search=ma");
    expect(body.counties.map((c: any) => c.county)).toEqual(["Madison", "Mahoning", "Marion"]);
    expect(body.total).toBe(3);
    expect((await counties("?search=VAN%20W")).body.counties.map((c: any) => c.county)).toEqual(["Van Wert"]);
    expect((await counties("?search=zzz")).body.total).toBe(0);
  });

  it("an empty search or an unknown sort is 400 bad-request naming the parameter", async () => {
    for (const [query, name] of [["?search=", "search"], ["?sort=cheapest", "sort"], ["?sort=name&colour=blue", "colour"]]) {
      const { res, body } = await counties(query);
      expect(res.status, query).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(body.invalid_params.map((p: any) => p.name)).toEqual([name]);
    }
  });

  it("is a protected path: no key is 401", async () => {
    const res = await api.get("/api/v1/counties", {});
    expect(res.status).toBe(401);
  });
});
