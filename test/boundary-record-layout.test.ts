/**
 * The boundary file's row layout and its validation (src/boundaries/record-layout.ts), and the
 * transit codes a record may carry (src/boundaries/transit-codes.ts) checked against data/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  COLUMNS,
  formatBoundaryRow,
  MAX_ZIP5S_PER_ZIP4_RANGE,
  OHIO_COUNTY_CODES,
  parseBoundaryRow,
  zip4Segments,
  type BoundaryRecord,
} from "../src/boundaries/record-layout.ts";
import { COUNTYWIDE_TRANSIT_CODES, countywideTransitCode, DISTRICT_TRANSIT_CODES } from "../src/boundaries/transit-codes.ts";
import { DATA_DIR, linedRecords } from "./_boundary-files.ts";

const records = linedRecords(4000);
const sample = (type: BoundaryRecord["recordType"]) => records.find((r) => r.recordType === type && r.transitCode !== null)!;

/** A valid synthetic row of the type with columns (1-based) replaced. */
function rowWith(type: BoundaryRecord["recordType"], column: number, value: string, more: Record<number, string> = {}): string[] {
  const fields = formatBoundaryRow(sample(type));
  for (const [n, text] of Object.entries({ ...more, [column]: value })) fields[Number(n) - 1] = text;
  return fields;
}

/** The record parsed from fields the test expects to be read, not refused or skipped. */
function read(fields: string[]): BoundaryRecord {
  const parsed = parseBoundaryRow(fields, 7);
  if (typeof parsed === "string" || "skip" in parsed) throw new Error(`expected a record, got ${JSON.stringify(parsed)}`);
  return parsed;
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
    ["a 90th column that is not empty", () => [...formatBoundaryRow(sample("A")), "X"], "90 columns, expected 89 (or 90 with the last one empty)"],
    ["91 columns", () => [...formatBoundaryRow(sample("A")), "", ""], "91 columns, expected 89"],
    ["an unknown record type", () => rowWith("A", 1, "X"), 'record type "X"'],
    ["a begin date that is no date", () => rowWith("A", 2, "20250230"), 'begin date "20250230"'],
    ["an end date before the begin date", () => rowWith("A", 3, "20170101"), "ends (20170101) before it begins"],
    ["a state FIPS that is no FIPS code", () => rowWith("A", 23, "OH"), 'state FIPS "OH"'],
    ["a county FIPS not among the 88", () => rowWith("A", 25, "002"), 'county FIPS "002"'],
    ["an unknown transit code", () => rowWith("A", 31, "12345"), 'transit code "12345"'],
    ["an incomplete triplet", () => rowWith("A", 32, ""), "triplet 1 is incomplete"],
    ["a low house number above the high", () => rowWith("A", 4, "99999"), "low house number 99999 is above the high"],
    ["an odd/even flag other than O, E, B", () => rowWith("A", 6, "X"), 'odd/even flag "X"'],
    ["an address range without a street", () => rowWith("A", 8, ""), "without a street name"],
    ["a ZIP that is not 5 digits", () => rowWith("A", 16, "4308"), 'ZIP "4308"'],
    ["a plus-4 low above the high", () => rowWith("4", 19, "9999"), "low plus-4 9999 is above the high"],
    [`a ZIP+4 range across more than ${MAX_ZIP5S_PER_ZIP4_RANGE} ZIPs`, () => rowWith("4", 20, "43999"), "a ZIP+4 range across"],
    ["an impossible end date", () => rowWith("A", 3, "20261131"), 'end date "20261131"'],
    ["a date cut short", () => rowWith("A", 3, "2099"), 'end date "2099"'],
    ["a ZIP range low above its high", () => rowWith("Z", 18, "45999"), "low ZIP 45999 is above the high"],
  ])("%s", (_, fields, problem) => {
    const parsed = parseBoundaryRow(fields(), 1234);
    expect(parsed).toBeTypeOf("string");
    expect(parsed).toContain("line 1234:");
    expect(parsed).toContain(problem);
  });
});

describe("files as states publish them: each variant is read and normalised", () => {
  it("lower-case record types and odd/even flags read as upper case (Minnesota)", () => {
    const address = sample("A");
    expect(read(rowWith("A", 1, "a", { 6: address.parity!.toLowerCase() }))).toEqual(read(formatBoundaryRow(address)));
    expect(read(rowWith("Z", 1, "z")).recordType).toBe("Z");
    const unit = records.find((r) => r.unit !== null)!;
    const fields = formatBoundaryRow(unit);
    fields[13] = fields[13]!.toLowerCase();
    expect(read(fields).unit?.parity).toBe(unit.unit!.parity);
  });

  it("a 90th column left empty is dropped (South Dakota, Washington)", () => {
    for (const type of ["A", "4", "Z"] as const) expect(read([...formatBoundaryRow(sample(type)), ""])).toEqual(read(formatBoundaryRow(sample(type))));
  });

  it.each(["99991231", "29991231", "20991231"])("the end date %s is open: no end (Ohio, Minnesota, Kansas)", (end) => {
    expect(read(rowWith("A", 3, end)).effectiveTo).toBeNull();
  });

  it("an unpadded plus-4 is padded to four digits (Oklahoma: 1 is 0001)", () => {
    expect(read(rowWith("4", 19, "1", { 21: "45" }))).toMatchObject({ plus4Low: "0001", plus4High: "0045" });
    expect(read(rowWith("A", 17, "7"))).toMatchObject({ plus4Low: "0007", plus4High: "0007" });
  });

  it("a Z record may cover a range of ZIPs", () => {
    expect(read(rowWith("Z", 18, "43001", { 20: "43099" }))).toMatchObject({ recordType: "Z", zip5: "43001", zip5High: "43099" });
  });

  it("a ZIP+4 range across two ZIP5s is read whole and stored as one range per ZIP5 (Minnesota)", () => {
    const record = read(rowWith("4", 18, "43081", { 19: "11", 20: "43082", 21: "9999" }));
    expect(record).toMatchObject({ zip5: "43081", zip5High: "43082", plus4Low: "0011", plus4High: "9999" });
    expect(zip4Segments(record).map((r) => [r.zip5, r.zip5High, r.plus4Low, r.plus4High])).toEqual([
      ["43081", "43081", "0011", "9999"],
      ["43082", "43082", "0000", "9999"],
    ]);
    const across3 = read(rowWith("4", 18, "43081", { 19: "5000", 20: "43083", 21: "0100" }));
    expect(zip4Segments(across3).map((r) => `${r.zip5}-${r.plus4Low}…${r.plus4High}`)).toEqual(["43081-5000…9999", "43082-0000…9999", "43083-0000…0100"]);
    expect(zip4Segments(sample("4"))).toEqual([sample("4")]);
  });
});

describe("a well-formed row that can answer no Ohio lookup is skipped, with its reason", () => {
  it("a blank county is skipped as no-county (Minnesota)", () => {
    expect(parseBoundaryRow(rowWith("A", 25, ""), 9)).toEqual({ skip: "no-county" });
    expect(parseBoundaryRow(rowWith("4", 25, "  "), 9)).toEqual({ skip: "no-county" });
  });

  it("another state's FIPS is skipped as other-state, whatever its county and districts", () => {
    expect(parseBoundaryRow(rowWith("A", 23, "27", { 24: "27", 25: "123", 31: "12345" }), 9)).toEqual({ skip: "other-state" });
  });

  it("a corrupt row is still refused, not skipped: a bad date, a cut row, an Ohio county that does not exist", () => {
    expect(parseBoundaryRow(rowWith("A", 25, "", { 2: "20250230" }), 9)).toContain('line 9: begin date "20250230"');
    expect(parseBoundaryRow(rowWith("A", 23, "27").slice(0, 40), 9)).toContain("line 9: 40 columns");
    expect(parseBoundaryRow(rowWith("A", 25, "200"), 9)).toContain('county FIPS "200"');
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
