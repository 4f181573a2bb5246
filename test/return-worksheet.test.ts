/**
 * The return's pure parts, without HTTP or a database: filing periods and their due dates (R.C. 5739.12),
 * the vendor discount's rounding, money as two-decimal strings, and the county schedule's reporting lines.
 */
import { describe, expect, it } from "vitest";
import { loadShippedData } from "../src/load-data.ts";
import { formatCents } from "../src/returns/money.ts";
import { parsePeriod, periodLabel, recentPeriods } from "../src/returns/periods.ts";
import { discountCents, discountFor } from "../src/returns/vendor-discount.ts";
import { buildWorksheet, countyNumber, lineOf } from "../src/returns/worksheet.ts";

const { table } = loadShippedData(new URL("../data/", import.meta.url).pathname);

describe("filing periods: a month YYYY-MM or a half year YYYY-H1/H2, due on the 23rd of the month after", () => {
  it("a month ends on its last day (February of a leap year on the 29th); December's return is due January 23", () => {
    expect(parsePeriod("2028-02")).toEqual({ label: "2028-02", frequency: "monthly", start: "2028-02-01", end: "2028-02-29", dueDate: "2028-03-23" });
    expect(parsePeriod("2026-12")).toMatchObject({ start: "2026-12-01", end: "2026-12-31", dueDate: "2027-01-23" });
  });

  it("January–June is due July 23, July–December January 23", () => {
    expect(parsePeriod("2026-H1")).toEqual({ label: "2026-H1", frequency: "semiannual", start: "2026-01-01", end: "2026-06-30", dueDate: "2026-07-23" });
    expect(parsePeriod("2026-H2")).toMatchObject({ start: "2026-07-01", end: "2026-12-31", dueDate: "2027-01-23" });
  });

  it("anything else is no period", () => {
    for (const label of ["2026-13", "2026-00", "2026-1", "2026-H3", "2026-h1", "26-11", "2026-11-01", ""]) expect(parsePeriod(label), label).toBeNull();
  });

  it("a reminder's period start names the same period; the dashboard lists the periods back from today's", () => {
    expect([periodLabel("monthly", "2026-11-01"), periodLabel("semiannual", "2026-07-01"), periodLabel("semiannual", "2027-01-01")]).toEqual(["2026-11", "2026-H2", "2027-H1"]);
    expect(recentPeriods("monthly", "2026-02-10", 3).map((p) => p.label)).toEqual(["2026-02", "2026-01", "2025-12"]);
    expect(recentPeriods("semiannual", "2026-12-02", 3).map((p) => p.label)).toEqual(["2026-H2", "2026-H1", "2025-H2"]);
  });
});

describe("the prompt-payment discount: 0.75 % of line 6, to the nearest cent, a half cent up", () => {
  it("is the dated figure in force for the due date, with its source", () => {
    expect(discountFor("2026-12-23")).toMatchObject({ basisPoints: 75, effectiveFrom: "2007-07-01" });
    expect(discountFor("2026-12-23").source).toMatch(/R\.C\. 5739\.12/);
  });

  it("$1,234.56 → $9.26 (925.92 cents); $2.00 → 2 cents (1.5 up); $11.26 → 8 cents (8.445 down); $0.66 → 0 (0.495 down)", () => {
    expect([discountCents(123_456, 75), discountCents(200, 75), discountCents(1_126, 75), discountCents(66, 75)]).toEqual([926, 2, 8, 0]);
  });

  it("none on a liability of zero or less", () => {
    expect([discountCents(0, 75), discountCents(-5_000, 75)]).toEqual([0, 0]);
  });

  it("exact for a liability past 2^53 / 75 cents (no float in between)", () => {
    expect(discountCents(9_000_000_000_000_00, 75)).toBe(6_750_000_000_000_00 / 100);
  });
});

describe("money on a return: integer cents out as two-decimal strings", () => {
  it("writes every cent, and a negative figure with its sign", () => {
    expect([formatCents(0), formatCents(5), formatCents(-5), formatCents(123_456), formatCents(-100)]).toEqual(["0.00", "0.05", "-0.05", "1234.56", "-1.00"]);
  });

  it("refuses what is not a whole number of cents", () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });
});

describe("the county schedule's lines: ODT's county number, or the code of a COTA district's part", () => {
  it("counties are numbered 01–88 alphabetically: Adams 01, Franklin 25, Wyandot 88", () => {
    expect([countyNumber("39001"), countyNumber("39049"), countyNumber("39175")]).toEqual(["01", "25", "88"]);
  });

  it("Delaware's COTA part is 96 and the rest 21; Fairfield 93/23, Licking 94/45, Union 98/80; Rossford stays in Wood's 87", () => {
    const code = (countyFips: string, transitDistrict: string | null) => lineOf({ countyFips, transitDistrict }, table.districts).code;
    expect([code("39041", "COTA"), code("39041", null), code("39045", "COTA"), code("39045", null), code("39089", "COTA"), code("39089", null), code("39159", "COTA"), code("39159", null)]).toEqual(["96", "21", "93", "23", "94", "45", "98", "80"]);
    expect([code("39173", "TARTA"), code("39173", null)]).toEqual(["87", "87"]);
    // A county a transit authority covers whole (Franklin, COTA) has one line whatever the ledger recorded.
    expect([code("39049", "COTA"), code("39049", null)]).toEqual(["25", "25"]);
  });

  it("merges the ledger's sums that fall on one line, and lists lines by county, the rest of a county before its district part", () => {
    const sums = (countyFips: string, transitDistrict: string | null, gross: number, tax: number) => ({ countyFips, transitDistrict, gross, exempt: 0, tax, stateTax: tax, countyTax: 0, transitTax: 0, records: 1 });
    const worksheet = buildWorksheet({
      period: parsePeriod("2026-11")!,
      ledger: "live",
      organizationId: "org_x",
      sums: [sums("39173", "TARTA", 1_000, 73), sums("39173", null, 1_000, 68), sums("39041", "COTA", 500, 40), sums("39041", null, 500, 35)],
      counties: table.byFips,
      districts: table.districts,
      today: "2026-12-02",
      generatedAt: "2026-12-02T15:00:00.000Z",
    });
    expect(worksheet.counties.map((line) => [line.county, line.reporting_code, line.gross_sales, line.tax_liability, line.records])).toEqual([
      ["Delaware", "21", "5.00", "0.35", 1],
      ["Delaware", "96", "5.00", "0.40", 1],
      ["Wood", "87", "20.00", "1.41", 2],
    ]);
  });
});
