/**
 * The boundary file's row layout and its validation (src/boundaries/record-layout.ts), and the
 * transit codes a record may carry (src/boundaries/transit-codes.ts) checked against data/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COLUMNS, formatBoundaryRow, OHIO_COUNTY_CODES, parseBoundaryRow, type BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { COUNTYWIDE_TRANSIT_CODES, countywideTransitCode, DISTRICT_TRANSIT_CODES } from "../src/boundaries/transit-codes.ts";
import { DATA_DIR, linedRecords } from "./_boundary-files.ts";

const records = linedRecords(4000);
const sample = (type: BoundaryRecord["recordType"]) => records.find((r) => r.recordType === type && r.transitCode !== null)!;

/** A valid synthetic row of the type with one column (1-based) replaced. */
function rowWith(type: BoundaryRecord["recordType"], column: number, value: string): string[] {
  const fields = formatBoundaryRow(sample(type));
  fields[column - 1] = value;
  return fields;
}

describe("a row is read back exactly as it was written (89 columns)", () => {
  it("every generated record round-trips", () => {
    for (const record of records) {
      const { line, ...expected } = record;
      const fields = formatBoundaryRow(expected);
      expect(fields).toHaveLength(COLUMNS);
      expect(parseBoundaryRow(fields, line)).toEqual({ ...expected, districts: expected.districts });
    }
  });

  it("the transit code is the first special-district triplet of type 63, in columns 30-32", () => {
    const fields = formatBoundaryRow(sample("A"));
    expect(fields.slice(29, 32)).toEqual(["ST", sample("A").transitCode, "63"]);
    expect(fields[24]).toBe(sample("A").countyFips.slice(2));
  });
});

describe("every malformed row is refused with its line number", () => {
  it.each([
    ["too few columns", () => formatBoundaryRow(sample("A")).slice(0, 88), "88 columns, expected 89"],
    ["90 columns", () => [...formatBoundaryRow(sample("A")), ""], "90 columns, expected 89"],
    ["an unknown record type", () => rowWith("A", 1, "X"), 'record type "X"'],
    ["a begin date that is no date", () => rowWith("A", 2, "20250230"), 'begin date "20250230"'],
    ["an end date before the begin date", () => rowWith("A", 3, "20170101"), "ends (20170101) before it begins"],
    ["a state other than Ohio", () => rowWith("A", 23, "40"), 'state FIPS "40"'],
    ["a county FIPS not among the 88", () => rowWith("A", 25, "002"), 'county FIPS "002"'],
    ["an unknown transit code", () => rowWith("A", 31, "12345"), 'transit code "12345"'],
    ["an incomplete triplet", () => rowWith("A", 32, ""), "triplet 1 is incomplete"],
    ["a low house number above the high", () => rowWith("A", 4, "99999"), "low house number 99999 is above the high"],
    ["an odd/even flag other than O, E, B", () => rowWith("A", 6, "X"), 'odd/even flag "X"'],
    ["an address range without a street", () => rowWith("A", 8, ""), "without a street name"],
    ["a ZIP that is not 5 digits", () => rowWith("A", 16, "4308"), 'ZIP "4308"'],
    ["a plus-4 low above the high", () => rowWith("4", 19, "9999"), "low plus-4 9999 is above the high"],
    ["a ZIP+4 range across two ZIPs", () => rowWith("4", 20, "43999"), "must stay within one ZIP5"],
    ["a ZIP range low above its high", () => rowWith("Z", 18, "45999"), "low ZIP 45999 is above the high"],
  ])("%s", (_, fields, problem) => {
    const parsed = parseBoundaryRow(fields(), 1234);
    expect(parsed).toBeTypeOf("string");
    expect(parsed).toContain("line 1234:");
    expect(parsed).toContain(problem);
  });
});

describe("Ohio's 88 counties and the transit codes agree with data/", () => {
  const csv = (name: string) => readFileSync(join(DATA_DIR, name), "utf8").trim().split(/\r?\n/).slice(1).map((line) => line.split(","));

  it("the county codes are exactly data/counties.csv's", () => {
    expect([...OHIO_COUNTY_CODES].map((c) => `39${c}`).sort()).toEqual(csv("counties.csv").map(([fips]) => fips).sort());
  });

  it("every county with a countywide transit levy in rate-periods.csv has its code, and no other", () => {
    const withTransit = [...new Set(csv("rate-periods.csv").filter((row) => row[1] === "transit").map(([fips]) => fips!))];
    const districtCounties = new Set(DISTRICT_TRANSIT_CODES.values());
    const countywide = withTransit.filter((fips) => !districtCounties.has(fips)).sort();
    expect([...COUNTYWIDE_TRANSIT_CODES.values()].sort()).toEqual(countywide);
    for (const [code, fips] of COUNTYWIDE_TRANSIT_CODES) expect(countywideTransitCode(fips)).toBe(code);
  });

  it("the district codes are data/transit-districts.json's", () => {
    const districts = JSON.parse(readFileSync(join(DATA_DIR, "transit-districts.json"), "utf8")) as Array<{ fips: string; sst_code: string }>;
    expect(new Map(districts.map((d) => [d.sst_code, d.fips]))).toEqual(DISTRICT_TRANSIT_CODES);
  });
});
