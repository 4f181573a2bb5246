/**
 * The pure rate engine (src/rates), without HTTP, a database or threads: the shipped tables in
 * data/ parsed as the service parses them, evaluated at dates. Figures are Ohio's published rates
 * (data/SOURCES.md), held in millionths so that sums are exact.
 */
import { describe, expect, it } from "vitest";
import { loadShippedData } from "../src/load-data.ts";
import { addDays, dateInOhio } from "../src/rates/calendar.ts";
import { countyKey, evaluateCounty, findCounty } from "../src/rates/evaluate.ts";
import { formatRate, parseRate, toDecimal } from "../src/rates/millionths.ts";

const { table } = loadShippedData(new URL("../data", import.meta.url).pathname);
const county = (name: string) => findCounty(table, name)!;

describe("rates are exact decimals (integers in millionths)", () => {
  it("parses decimal strings without going through a float", () => {
    expect(parseRate("0.0575")).toBe(57_500);
    expect(parseRate(".01500")).toBe(15_000);
    expect(parseRate("1")).toBe(1_000_000);
    expect(() => parseRate("0.0000001")).toThrow(/not a decimal rate/);
    expect(() => parseRate("7%")).toThrow(/not a decimal rate/);
  });

  it("a sum of components prints as its decimal, never as 0.07500000000000001", () => {
    expect(toDecimal(parseRate("0.0575") + parseRate("0.0125") + parseRate("0.005"))).toBe(0.075);
    expect(String(toDecimal(57_500 + 12_500 + 10_000))).toBe("0.08");
    expect(formatRate(72_500)).toBe("0.0725");
    expect(formatRate(80_000)).toBe("0.0800");
  });
});

describe("counties are found by FIPS, name or slug, in any case", () => {
  it("all 88 Ohio counties are loaded, with the 5.75% state rate", () => {
    expect(table.counties).toHaveLength(88);
    expect(table.stateRate).toBe(57_500);
  });

  it.each(["Van Wert", "van-wert", "VAN_WERT", "Van Wert County", " 39161 "])("%j is Van Wert", (text) => {
    expect(findCounty(table, text)?.name).toBe("Van Wert");
  });

  it("an unknown county is null, not a guess", () => {
    expect(findCounty(table, "Wayne County, Michigan")).toBeNull();
    expect(countyKey("  Van   Wert ")).toBe("van-wert");
  });
});

describe("a county's rate at a date: state + county permissive + transit", () => {
  it("Franklin on 2025-03-31 is 7.50%, with COTA's increase to 8.00% enacted for 2025-04-01 as the upcoming change", () => {
    const rate = evaluateCounty(table, county("Franklin"), "2025-03-31");
    expect(rate.combined).toBe(75_000);
    expect(rate.components).toEqual({ state: 57_500, county: 12_500, transit: 5_000 });
    expect(rate.upcoming).toMatchObject({ effectiveDate: "2025-04-01", combined: 80_000, components: { transit: 10_000 } });
  });

  it("on the change's effective date the new rate applies, effective from that date, with nothing upcoming", () => {
    const rate = evaluateCounty(table, county("Franklin"), "2025-04-01");
    expect(rate).toMatchObject({ combined: 80_000, effectiveFrom: "2025-04-01", upcoming: null });
  });

  it("the day before a change still answers the old rate (periods end exclusively)", () => {
    const before = evaluateCounty(table, county("Franklin"), addDays("2025-04-01", -1));
    expect(before.combined).toBe(75_000);
  });

  it("a county with no transit levy has a transit component of 0", () => {
    const rate = evaluateCounty(table, county("Van Wert"), "2026-11-23");
    expect(rate.components).toEqual({ state: 57_500, county: 15_000, transit: 0 });
    expect(rate.combined).toBe(72_500);
    expect(rate.district).toBeNull();
  });
});

describe("a transit district that covers part of a county", () => {
  it("Delaware inside COTA's district is 8.00%: the district's levy joins the transit component", () => {
    const rate = evaluateCounty(table, county("Delaware"), "2026-11-23", "inside");
    expect(rate.combined).toBe(80_000);
    expect(rate.components.transit).toBe(10_000);
    expect(rate.district).toMatchObject({ levy: 10_000, combinedInside: 80_000, status: "inside", district: { authority: "COTA" } });
  });

  it("Delaware outside the district is 7.00%", () => {
    const rate = evaluateCounty(table, county("Delaware"), "2026-11-23", "outside");
    expect(rate.combined).toBe(70_000);
    expect(rate.components.transit).toBe(0);
  });

  it("while the location is not settled, the countywide rate stands and the in-district rate is given beside it", () => {
    const rate = evaluateCounty(table, county("Delaware"), "2026-11-23");
    expect(rate.combined).toBe(70_000);
    expect(rate.district).toMatchObject({ combinedInside: 80_000, status: "unknown" });
  });

  it("an enacted change to the district's levy is upcoming for an unsettled location, as the in-district rate", () => {
    const rate = evaluateCounty(table, county("Delaware"), "2025-03-31");
    expect(rate.upcoming).toMatchObject({ effectiveDate: "2025-04-01", combined: 70_000, combinedInside: 80_000 });
  });

  it("outside the district, a change only to the district's levy is not an upcoming change", () => {
    const rate = evaluateCounty(table, county("Delaware"), "2025-03-31", "outside");
    expect(rate.upcoming).toBeNull();
  });
});

describe("dates are Ohio's calendar dates (America/New_York)", () => {
  it("03:00 UTC on New Year's Day is still New Year's Eve in Ohio", () => {
    expect(dateInOhio(new Date("2026-01-01T03:00:00Z"))).toBe("2025-12-31");
    expect(dateInOhio(new Date("2026-01-01T06:00:00Z"))).toBe("2026-01-01");
  });

  it("adds days across month and leap-year ends", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
    expect(addDays("2025-03-01", -1)).toBe("2025-02-28");
  });
});
