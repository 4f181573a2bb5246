import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_SOURCES, startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService();
});
afterAll(() => api.close());

const published: Array<Record<string, string>> = parse(readFileSync(new URL("ohio/county-rates.csv", RATE_SOURCES)), {
  columns: true,
});

async function rate(query: string) {
  const res = await api.get(`/api/v1/rates?${query}`);
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("GET /api/v1/rates?county=", () => {
  it("returns every field of the rate record, resolved_by county_param", async () => {
    const { res, body } = await rate("county=Franklin&date=2026-01-15");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Object.keys(body).sort()).toEqual(
      [
        "county", "fips", "date_evaluated", "combined_rate", "components", "effective_from",
        "transit_district_possible", "transit_district", "has_upcoming_change", "upcoming", "source",
        "last_reconciled", "jurisdiction_type", "statutory_sourcing", "resolved_by", "ambiguous", "request_id",
      ].sort(),
    );
    expect(body).toMatchObject({
      county: "Franklin",
      fips: "39049",
      date_evaluated: "2026-01-15",
      combined_rate: 0.08,
      components: { state: 0.0575, county_permissive: 0.0125, transit_authority: 0.01 },
      effective_from: "2025-04-01",
      transit_district_possible: false,
      transit_district: null,
      has_upcoming_change: false,
      upcoming: null,
      source: "Ohio Department of Taxation",
      jurisdiction_type: "County Permissive",
      resolved_by: "county_param",
      ambiguous: false,
    });
    expect(body.statutory_sourcing).toContain("5739.033");
    expect(body.last_reconciled).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.request_id).toMatch(/^req_[0-9a-z]{26}$/);
    expect(res.headers.get("x-request-id")).toBe(body.request_id);
  });

  it.each(published.map((row) => [row.county!, row] as const))(
    "%s matches the state's published rate (county-rates.csv, in force from 2026-01-01)",
    async (_name, row) => {
      const { body } = await rate(`county=${encodeURIComponent(row.county!)}&date=2026-01-01`);
      expect(body.fips).toBe(row.fips);
      expect(body.combined_rate).toBe(Number(row.combined_rate));
      expect(body.components.county_permissive).toBe(Number(row.county_permissive));
      expect(body.components.transit_authority).toBe(Number(row.transit_rate));
      expect(body.effective_from).toBe(row.effective_from || null);
    },
  );

  it("accepts the canonical name or the slug in any case", async () => {
    for (const county of ["Van Wert", "van-wert", "VAN WERT", "van wert", "Van_Wert", "Van Wert County"]) {
      const { res, body } = await rate(`county=${encodeURIComponent(county)}`);
      expect(res.status, county).toBe(200);
      expect(body.county).toBe("Van Wert");
    }
  });

  it("an unknown county is 404 county-not-found", async () => {
    const { res, body } = await rate("county=Gotham");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(body.type).toMatch(/\/county-not-found$/);
    expect(body.detail).not.toMatch(/Did you mean/);
  });

  it("a misspelt county's 404 suggests the one county within two edits: Frankiln → Franklin, Cuyhoga County → Cuyahoga, Van Wret → Van Wert", async () => {
    for (const [typed, meant] of [["Frankiln", "Franklin"], ["cuyhoga%20county", "Cuyahoga"], ["Van%20Wret", "Van Wert"]]) {
      const { res, body } = await rate(`county=${typed}`);
      expect(res.status, typed).toBe(404);
      expect(body.detail, typed).toContain(`is not one of Ohio's 88 counties. Did you mean ${meant}? Use a county name or slug`);
    }
  });

  it("a county written with its abbreviated suffix is told the county it names: franklin co, Franklin Co., franklin cnty → Franklin", async () => {
    for (const typed of ["franklin%20co", "Franklin%20Co.", "franklin%20cnty"]) {
      const { res, body } = await rate(`county=${typed}`);
      expect(res.status, typed).toBe(404);
      expect(body.detail, typed).toContain("Did you mean Franklin?");
    }
  });
});

describe("rates at a date", () => {
  it("the COTA levy doubled on 2025-04-01: Franklin is 0.075 on 2025-03-31 and 0.08 on 2025-04-01", async () => {
    const before = (await rate("county=franklin&date=2025-03-31")).body;
    const after = (await rate("county=franklin&date=2025-04-01")).body;
    expect(before.combined_rate).toBe(0.075);
    expect(before.components.transit_authority).toBe(0.005);
    expect(after.combined_rate).toBe(0.08);
    expect(after.components.transit_authority).toBe(0.01);
    expect(after.effective_from).toBe("2025-04-01");
  });

  it("an enacted change after the date shows in has_upcoming_change and upcoming", async () => {
    const { body } = await rate("county=franklin&date=2025-03-31");
    expect(body.has_upcoming_change).toBe(true);
    expect(body.upcoming).toEqual({
      effective_date: "2025-04-01",
      combined_rate: 0.08,
      components: { state: 0.0575, county_permissive: 0.0125, transit_authority: 0.01 },
    });
  });

  it("a temporary levy is undone on its end date (Tuscarawas 911 tax, 2018-10-01 to 2020-09-30)", async () => {
    expect((await rate("county=tuscarawas&date=2018-09-30")).body.combined_rate).toBe(0.0675);
    expect((await rate("county=tuscarawas&date=2019-06-01")).body.combined_rate).toBe(0.0725);
    expect((await rate("county=tuscarawas&date=2020-10-01")).body.combined_rate).toBe(0.0675);
  });

  it("effective_from is null when the start of the rate in force is not known", async () => {
    const { body } = await rate("county=adams&date=2026-01-01");
    expect(body.effective_from).toBeNull();
    expect(body.combined_rate).toBe(0.0725);
  });

  it("the date defaults to today in America/New_York", async () => {
    const { body } = await rate("county=adams");
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    expect(body.date_evaluated).toBe(today);
  });

  it("dates before 2018-01-01, where our history starts, are 422 date-out-of-range", async () => {
    const { res, body } = await rate("county=adams&date=2017-12-31");
    expect(res.status).toBe(422);
    expect(body.type).toMatch(/\/date-out-of-range$/);
    expect(body.invalid_params).toEqual([{ name: "date", reason: expect.stringContaining("2018-01-01") }]);
    expect((await rate("county=adams&date=2018-01-01")).res.status).toBe(200);
  });

  it("a date that is not a real YYYY-MM-DD calendar date is 400 bad-request", async () => {
    for (const date of ["2025-02-30", "2025-4-01", "20250401", "yesterday"]) {
      const { res, body } = await rate(`county=adams&date=${date}`);
      expect(res.status, date).toBe(400);
      expect(body.invalid_params[0].name).toBe("date");
    }
  });

  it("a date written YYYY-MM-DD that no calendar has is told it is not a calendar date, not that it is written wrongly", async () => {
    const { res, body } = await rate("county=adams&date=2025-02-30");
    expect(res.status).toBe(400);
    expect(body.invalid_params).toEqual([{ name: "date", reason: "2025-02-30 is written YYYY-MM-DD but is not a calendar date: February 2025 has 28 days" }]);
    expect((await rate("county=adams&date=2025-13-01")).body.invalid_params[0].reason).toBe("2025-13-01 is written YYYY-MM-DD but is not a calendar date: there is no month 13");
  });

  it("a date written MM/DD/YYYY is shown in the form to send", async () => {
    const { res, body } = await rate(`county=adams&date=${encodeURIComponent("03/31/2025")}`);
    expect(res.status).toBe(400);
    expect(body.invalid_params).toEqual([{ name: "date", reason: "must be written YYYY-MM-DD: for 03/31/2025 send 2025-03-31" }]);
  });

  it("an empty date= means today, as an empty date cell of a batch row does", async () => {
    const { res, body } = await rate("county=adams&date=");
    expect(res.status).toBe(200);
    expect(body.date_evaluated).toBe((await rate("county=adams")).body.date_evaluated);
    const inline = await api.service.app.fetch(
      new Request("http://buckeye.test/api/v1/rates/batch", {
        method: "POST",
        headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "application/json" },
        body: JSON.stringify({ lookups: [{ county: "adams", date: "" }] }),
      }),
    );
    expect(((await inline.json()) as { results: Array<{ status: number; body: { date_evaluated: string } }> }).results[0]).toMatchObject({ status: 200, body: { date_evaluated: body.date_evaluated } });
  });

  it("rates print as decimals without float noise (0.0575 + 0.0125 prints 0.07)", async () => {
    const res = await api.get("/api/v1/rates?county=ashland&date=2026-01-01");
    const text = await res.text();
    expect(text).toContain('"combined_rate":0.07,');
    expect(text).not.toMatch(/\d\.\d*0000000\d/);
    expect(text).not.toMatch(/\d\.\d*9999999\d/);
  });
});

describe("transit districts", () => {
  it.each([
    ["delaware", "COTA", 0.07, 0.08],
    ["fairfield", "COTA", 0.0675, 0.0775],
    ["licking", "COTA", 0.0725, 0.0825],
    ["union", "COTA", 0.07, 0.08],
    ["wood", "TARTA", 0.0675, 0.0725],
  ])("%s is split by %s: countywide rate, transit_district_possible, status unknown", async (county, authority, countywide, inside) => {
    const { body } = await rate(`county=${county}&date=2026-01-01`);
    expect(body.combined_rate).toBe(countywide);
    expect(body.components.transit_authority).toBe(0);
    expect(body.transit_district_possible).toBe(true);
    expect(body.transit_district).toMatchObject({ authority, combined_rate_inside: inside, status: "unknown" });
    expect(body.transit_district.name).toMatch(/Transit Authority/);
    expect(body.transit_district.area.length).toBeGreaterThan(10);
    expect(body.transit_district.note.length).toBeGreaterThan(10);
  });

  it("Franklin lies wholly inside COTA: its levy is in components.transit_authority and transit_district is null", async () => {
    const { body } = await rate("county=franklin");
    expect(body.transit_district).toBeNull();
    expect(body.transit_district_possible).toBe(false);
    expect(body.components.transit_authority).toBe(0.01);
  });

  it("before TARTA's levy began (2022-04-01) Wood had no district rate to tell apart", async () => {
    const { body } = await rate("county=wood&date=2022-03-31");
    expect(body.transit_district).toBeNull();
    expect(body.transit_district_possible).toBe(false);
    expect(body.upcoming).toMatchObject({ effective_date: "2022-04-01", combined_rate: 0.0675, combined_rate_inside: 0.0725 });
  });
});

describe("limits", () => {
  it("county_permissive is 0.0050 to 0.0150 in the contract's sample, but real figures win: Coshocton's 2.00% is reported as the state publishes it", async () => {
    const { body } = await rate("county=coshocton&date=2026-01-01");
    expect(body.components.county_permissive).toBe(0.02);
    expect(body.combined_rate).toBe(0.0775);
    expect((await rate("county=coshocton&date=2022-03-31")).body.components.county_permissive).toBe(0.015);
  });

  it("every other county's permissive rate, on any date we hold, lies within 0.0050 to 0.0150", async () => {
    for (const date of ["2018-01-01", "2020-06-30", "2022-04-01", "2025-04-01", "2026-01-01"]) {
      const res = await api.get(`/api/v1/counties?date=${date}`);
      const { counties } = (await res.json()) as { counties: Array<{ county: string; components: { county: number } }> };
      for (const item of counties.filter((c) => !(c.county === "Coshocton" && date >= "2022-04-01"))) {
        expect(item.components.county, `${item.county} on ${date}`).toBeGreaterThanOrEqual(0.005);
        expect(item.components.county, `${item.county} on ${date}`).toBeLessThanOrEqual(0.015);
      }
    }
  });
});

describe("request ids", () => {
  it("every response has its own request_id, echoed in X-Request-ID, sortable by time", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { res, body } = await rate("county=adams");
      expect(res.headers.get("x-request-id")).toBe(body.request_id);
      ids.push(body.request_id);
    }
    expect(new Set(ids).size).toBe(20);
    expect(ids.map((id) => id.slice(0, 14))).toEqual([...ids.map((id) => id.slice(0, 14))].sort());
  });
});

