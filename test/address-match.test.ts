/**
 * Addresses as customers send them, matched against the streets the active boundary file holds
 * (src/lookup/address-match.ts, docs/guides/address-resolution.md "Matching a typed address"),
 * one `describe` per kind of address the matcher must read, and the traps it must not fall into.
 * A real store (SQLite, or PostgreSQL under TEST_DATABASE_URL) holds a SYNTHETIC boundary file:
 * the generator's records plus the streets below. Their city names are made up for the test (the
 * file's column 15 is what the matcher reads a city from); each address goes the way a lookup's
 * does (ladder.ts askBoundaryFile).
 */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { openBoundaryIndex } from "../src/boundaries/boundary-index.ts";
import { formatBoundaryRow, type BoundaryRecord, type Parity, type UnitRange } from "../src/boundaries/record-layout.ts";
import { askBoundaryFile, type FileAnswer } from "../src/lookup/ladder.ts";
import { filedCities, filedStreets, preparedStreetRows } from "../src/store/boundaries.repository.ts";
import { StreetIndex, type StreetFind } from "../src/boundaries/street-index.ts";
import { streetKeyParts } from "../src/boundaries/pub28.ts";
import { readLookupItem } from "../src/lookup/lookup-item.ts";
import { boundaryWorkspace, linedRecords, type BoundaryWorkspace } from "./_boundary-files.ts";

const RECORDS = 4000;
const DATE = "2026-06-01";
const generated = linedRecords(RECORDS);

interface Street {
  zip: string;
  city: string;
  pre?: string;
  name: string;
  suffix?: string;
  post?: string;
  parity?: Parity;
  low?: number;
  high?: number;
  unit?: UnitRange;
}

/** A block on a street the generator does not use, under the county of the ZIP's first record. */
function record(s: Street): BoundaryRecord {
  const template = generated.find((r) => r.recordType === "A" && r.zip5 === s.zip)!;
  return {
    ...template, effectiveFrom: "2018-01-01", effectiveTo: null, houseLow: s.low ?? 100, houseHigh: s.high ?? 199, parity: s.parity ?? "B",
    preDirectional: s.pre ?? "", streetName: s.name, suffix: s.suffix ?? "", postDirectional: s.post ?? "", unit: s.unit ?? null, city: s.city,
  };
}

const STREETS: Street[] = [
  { zip: "43081", city: "WESTERVILLE", name: "CHESTNUT", suffix: "ST" },
  { zip: "43081", city: "WESTERVILLE", name: "CHESTNUT", suffix: "ST", low: 151, high: 151, parity: "O", unit: { designator: "STE", low: "100", high: "399", parity: "B" } },
  { zip: "43081", city: "WESTERVILLE", name: "CHESTNUT", suffix: "AVE" },
  { zip: "43081", city: "WESTERVILLE", name: "BIRCH", suffix: "CT" },
  { zip: "43081", city: "WESTERVILLE", name: "K", suffix: "ST", post: "NW" },
  { zip: "43081", city: "WESTERVILLE", name: "2ND", suffix: "ST", post: "SE" },
  { zip: "43081", city: "WESTERVILLE", pre: "N", name: "HARBOR ST", suffix: "PKWY" },
  { zip: "43081", city: "WESTERVILLE", name: "8TH STREET", suffix: "CT" },
  { zip: "43081", city: "WESTERVILLE", name: "FOX", suffix: "MDW" },
  { zip: "43081", city: "WESTERVILLE", name: "QUINCE", suffix: "LN", parity: "O" },
  { zip: "43015", city: "MOUNT GILEAD", name: "ACORN", suffix: "ST" },
  { zip: "43460", city: "WEST UNION", name: "LOCUST", suffix: "ST" },
  { zip: "43460", city: "WEST UNION", name: "LOCUST", suffix: "ST", post: "W" },
  { zip: "43064", city: "WEST UNION", name: "LOCUST", suffix: "ST" },
  { zip: "43064", city: "WEST UNION", name: "LOCUST", suffix: "ST", post: "W" },
  { zip: "43064", city: "WEST UNION", name: "ACORN", suffix: "ST", low: 500, high: 599 },
  { zip: "43604", city: "NORTH CANTON", name: "ASH", suffix: "ST" },
];
const ADDED = STREETS.map(record);

let ws: BoundaryWorkspace;
let index: ReturnType<typeof openBoundaryIndex>;

beforeAll(async () => {
  ws = await boundaryWorkspace();
  const path = await ws.write("OHB2026Q4SEP17-synthetic.csv", RECORDS);
  writeFileSync(path, ADDED.map((r) => `${formatBoundaryRow(r).join(",")}\r\n`).join(""), { flag: "a" });
  expect(await importBoundaryFile({ store: ws.store, source: path, synthetic: true })).toMatchObject({ status: "imported", records: RECORDS + ADDED.length });
  index = openBoundaryIndex(ws.store, { refreshMs: 0 });
});

afterAll(async () => {
  await index?.close();
  await ws?.close();
});

/** The line of the added street `n` of STREETS (its record's line in the file). */
const line = (name: string, zip = "43081", extra: (s: Street) => boolean = () => true) =>
  RECORDS + 1 + STREETS.findIndex((s) => s.name === name && s.zip === zip && s.unit === undefined && extra(s));

async function ask(address: string, fields: Record<string, string> = {}): Promise<FileAnswer | null> {
  const item = readLookupItem({ address, ...fields }, DATE);
  if ("kind" in item) throw new Error(`refused: ${item.detail}`);
  return (await askBoundaryFile(index, [item]))[0]!;
}

async function answer(address: string): Promise<number | null> {
  return (await ask(address))?.record?.line ?? null;
}

describe("no comma between street and city, one before the state", () => {
  it.each(["150 Chestnut Street Westerville, OH 43081", "150 Chestnut St Westerville OH 43081", "150 Chestnut St. Westerville Ohio 43081"])("%s", async (address) => {
    expect(await answer(address)).toBe(line("CHESTNUT", "43081", (s) => s.suffix === "ST"));
  });
});

describe("no state: city and ZIP only, with or without commas", () => {
  it.each(["150 Birch Court, Westerville, 43081", "150 birch court westerville 43081", "150 Birch Ct Westerville 43081-1234", "150 BIRCH CT, 430811234"])("%s", async (address) => {
    expect(await answer(address)).toBe(line("BIRCH"));
  });
});

describe("a city whose first word is a suffix or directional word is read as the city", () => {
  it("Mount Gilead after Acorn St", async () => {
    expect(await answer("150 Acorn St Mount Gilead OH 43015")).toBe(line("ACORN", "43015"));
    expect(await answer("150 Acorn Street, Mount Gilead, Ohio 43015")).toBe(line("ACORN", "43015"));
  });

  it("West Union after Locust St is the city, not Locust St W", async () => {
    expect(await answer("150 Locust St West Union OH 43460")).toBe(line("LOCUST", "43460", (s) => s.post === undefined));
    expect(await answer("150 Locust St W, West Union, OH 43460")).toBe(line("LOCUST", "43460", (s) => s.post === "W"));
    expect(await answer("150 Locust Street West, West Union, OH 43460")).toBe(line("LOCUST", "43460", (s) => s.post === "W"));
  });

  it("where the file names the ZIP's cities both Union and West Union, Locust St West Union reads two ways: both named, neither answers", async () => {
    const found = await ask("150 Locust St West Union OH 43064");
    expect(found).toMatchObject({ record: null, miss: { reason: "ambiguous_street" } });
    expect(found!.miss!.candidates.map((c) => c.street).sort()).toEqual(["LOCUST ST", "LOCUST ST W"]);
    expect(await answer("150 Locust St, West Union OH 43064")).toBe(line("LOCUST", "43064", (s) => s.post === undefined));
  });

  it("North Canton after Ash St", async () => {
    expect(await answer("150 Ash St North Canton OH 43604")).toBe(line("ASH", "43604"));
  });
});

describe("units in any form, order or number", () => {
  const chestnut = () => line("CHESTNUT", "43081", (s) => s.suffix === "ST");
  it.each(["Third Floor", "3rd Fl", "Lower level", "Apt 7 B", "Suite210", "Unit C.", "# 12", "#12", "Rear", "Bldg 2", "Apt. 4", "Ste-300"])("150 Chestnut St %s", async (unit) => {
    expect(await answer(`150 Chestnut St ${unit}, Westerville, OH 43081`)).toBe(chestnut());
    expect(await answer(`150 Chestnut St ${unit} Westerville OH 43081`)).toBe(chestnut());
  });

  it("the last unit with an identifier is checked against a record's unit range: Bldg 2 Ste 300 is in STE 100–399", async () => {
    const building = RECORDS + 1 + STREETS.findIndex((s) => s.unit !== undefined);
    expect(await answer("151 Chestnut St Bldg 2 Ste 300, Westerville, OH 43081")).toBe(building);
    expect(await answer("151 Chestnut St Suite 500, Westerville, OH 43081")).toBe(chestnut());
  });
});

describe("a post-directional after a comma, or written with periods", () => {
  it.each(["150 K Street, NW, Westerville, OH 43081", "150 K St NW Westerville OH 43081", "150 K St. N.W., Westerville, OH 43081", "150 K Street Northwest, Westerville, OH 43081"])("%s", async (address) => {
    expect(await answer(address)).toBe(line("K"));
  });

  it.each(["150 Second Street S.E., Westerville, OH 43081", "150 2nd St SE, Westerville, OH 43081", "150 Second St., S.E. Westerville OH 43081"])("%s", async (address) => {
    expect(await answer(address)).toBe(line("2ND"));
  });
});

describe("two suffix words (Pub 28 §234.2), either one spelled out", () => {
  it.each(["150 N Harbor St Pkwy, Westerville, OH 43081", "150 North Harbor Street Parkway Westerville OH 43081", "150 N. Harbor St. Pkwy. 43081"])("%s", async (address) => {
    expect(await answer(address)).toBe(line("HARBOR ST"));
  });

  it.each(["150 8th St Ct, Westerville, OH 43081", "150 Eighth Street Court, Westerville, OH 43081"])("%s", async (address) => {
    expect(await answer(address)).toBe(line("8TH STREET"));
  });
});

describe("a suffix the street-types table lists under two types: MDW is Meadow's", () => {
  it.each(["150 Fox Meadow, Westerville, OH 43081", "150 Fox Mdw, Westerville, OH 43081", "150 FOX MEADOW WESTERVILLE OH 43081"])("%s", async (address) => {
    expect(await answer(address)).toBe(line("FOX"));
  });

  it("Fox Meadows is another street", async () => {
    expect(await ask("150 Fox Meadows, Westerville, OH 43081")).toMatchObject({ record: null, miss: { reason: "no_street_in_zip" } });
  });
});

describe("without a ZIP, a city the file names finds it", () => {
  it.each(["150 Acorn St, Mount Gilead, OH", "150 Acorn St Mount Gilead", "150 Acorn Street, Mount Gilead, Ohio"])("%s", async (address) => {
    expect(await answer(address)).toBe(line("ACORN", "43015"));
  });

  it("an address without a ZIP and with no city the file names is no match, and says so", async () => {
    expect(await ask("150 Acorn St, Springfield, OH")).toMatchObject({ record: null, miss: { reason: "no_zip_or_city" } });
  });
});

describe("traps: a street that is not the one typed never answers", () => {
  it("the same name with another suffix", async () => {
    expect(await ask("150 Chestnut Rd, Westerville, OH 43081")).toMatchObject({ record: null, miss: { reason: "no_street_in_zip" } });
    expect(await ask("150 Acorn Ave, Mount Gilead, OH 43015")).toMatchObject({ record: null, miss: { reason: "no_street_in_zip" } });
  });

  it("the same name with another directional", async () => {
    expect(await ask("150 K Street NE, Westerville, OH 43081")).toMatchObject({ record: null, miss: { reason: "no_street_in_zip" } });
    expect(await ask("150 S Harbor St Pkwy, Westerville, OH 43081")).toMatchObject({ record: null });
  });

  it("a shorter street than the one filed, and a longer one", async () => {
    expect(await ask("150 N Harbor St, Westerville, OH 43081")).toMatchObject({ record: null, miss: { reason: "no_street_in_zip" } });
    expect(await ask("150 Birch Ct Ext, Westerville, OH 43081")).toMatchObject({ record: null });
    expect(await ask("150 Birch Hill Rd, Westerville, OH 43081")).toMatchObject({ record: null });
  });

  it("the other side of the street: QUINCE LN has only odd numbers", async () => {
    expect(await answer("151 Quince Ln, Westerville, OH 43081")).toBe(line("QUINCE"));
    expect(await ask("150 Quince Ln, Westerville, OH 43081")).toMatchObject({ record: null, miss: { reason: "number_outside_ranges", candidates: [{ zip: "43081", street: "QUINCE LN" }] } });
  });

  it("a number outside every range", async () => {
    expect(await ask("950 Birch Ct, Westerville, OH 43081")).toMatchObject({ record: null, miss: { reason: "number_outside_ranges", candidates: [{ zip: "43081", street: "BIRCH CT" }] } });
  });

  it("a street in another county's ZIP: ACORN ST is filed in 43015 and 43064, not in 43081", async () => {
    expect(await ask("150 Acorn St, Westerville, OH 43081")).toMatchObject({ record: null, miss: { reason: "no_street_in_zip" } });
    expect(await ask("150 Acorn St, West Union, OH 43064")).toMatchObject({ record: null, miss: { reason: "number_outside_ranges" } });
  });

  it("a street without its suffix where the ZIP has two of that name: both named, neither answers", async () => {
    const found = await ask("150 Chestnut, Westerville, OH 43081");
    expect(found).toMatchObject({ record: null, miss: { reason: "ambiguous_street" } });
    expect(found!.miss!.candidates.map((c) => c.street).sort()).toEqual(["CHESTNUT AVE", "CHESTNUT ST"]);
  });

  it("a street without its suffix where the ZIP has one of that name: that street", async () => {
    expect(await answer("150 Birch, Westerville, OH 43081")).toBe(line("BIRCH"));
  });

  it.each(["PO Box 150, Westerville, OH 43081", "P.O. Box 150 Westerville OH 43081", "Box 150, Westerville, OH 43081", "RR 2 Box 150, Westerville, OH 43081"])("a box never matches a street range: %s", async (address) => {
    expect(await ask(address)).toMatchObject({ record: null, miss: { reason: "po_box" } });
  });

  it("the zip parameter wins over the ZIP in the line", async () => {
    expect(await ask("150 Birch Ct, Westerville, OH 43081", { zip: "43015" })).toMatchObject({ record: null, miss: { reason: "no_street_in_zip" } });
  });
});

describe("the street index is read once per version, not per lookup", () => {
  it("every lookup of a version shares one index; a new version brings its own, with its streets", async () => {
    const first = await index.streets();
    expect(await index.streets()).toBe(first);
    expect(first!.find("43081", { preDirectional: null, body: ["DOGWOOD", "ST"], postDirectional: null })).toEqual({ kind: "none" });
    const path = await ws.write("OHB2027Q1DEC17-synthetic.csv", RECORDS);
    const dogwood = record({ zip: "43081", city: "WESTERVILLE", name: "DOGWOOD", suffix: "ST" });
    writeFileSync(path, [...ADDED, dogwood].map((r) => `${formatBoundaryRow(r).join(",")}\r\n`).join(""), { flag: "a" });
    expect(await importBoundaryFile({ store: ws.store, source: path, synthetic: true })).toMatchObject({ status: "imported" });
    const second = await index.streets();
    expect(second).not.toBe(first);
    expect(await index.streets()).toBe(second);
    expect(await answer("150 Dogwood St, Westerville, OH 43081")).toBe(RECORDS + ADDED.length + 1);
  });

  it("the streets an import stores prepared per ZIP are indexed as the records' own keys are: every street finds the same", async () => {
    const version = "OHB2027Q1DEC17-SYNTHETIC";
    const cities = await filedCities(ws.store.db, version);
    const filed = await filedStreets(ws.store.db, version);
    const prepared = StreetIndex.fromPrepared(await preparedStreetRows(ws.store.db, version), cities);
    const fromRecords = new StreetIndex(filed, cities);
    expect(filed.length).toBeGreaterThan(ADDED.length);
    expect(prepared.zipCount).toBe(fromRecords.zipCount);
    // The records' SELECT DISTINCT lists two streets of one name in no set order on PostgreSQL; the prepared ones are in key order.
    const inKeyOrder = (found: StreetFind) => (found.kind === "many" ? { ...found, streets: [...found.streets].sort((a, b) => (a.key < b.key ? -1 : 1)) } : found);
    for (const { zip5, street } of filed) {
      const parts = streetKeyParts({ streetName: street });
      const name = { ...parts, body: parts.body.slice(0, -1) };
      expect(prepared.find(zip5, parts)).toEqual(inKeyOrder(fromRecords.find(zip5, parts)));
      expect(prepared.findWithoutSuffix(zip5, name)).toEqual(inKeyOrder(fromRecords.findWithoutSuffix(zip5, name)));
    }
  });

  it("a version whose streets were not stored prepared (imported before they were) is matched from its records", async () => {
    await ws.store.db.deleteFrom("boundary_streets").execute();
    const fresh = openBoundaryIndex(ws.store, { refreshMs: 0 });
    try {
      const item = readLookupItem({ address: "150 Dogwood St, Westerville, OH 43081" }, DATE);
      if ("kind" in item) throw new Error(item.detail);
      expect((await askBoundaryFile(fresh, [item]))[0]?.record?.line).toBe(RECORDS + ADDED.length + 1);
      expect((await fresh.streets())!.hasStreets("43081")).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it("the import keeps each version's city names, a synthetic file's without its mark", async () => {
    const cities = await filedCities(ws.store.db, "OHB2027Q1DEC17-SYNTHETIC");
    expect(cities).toContainEqual({ zip5: "43081", city: "WESTERVILLE" });
    expect(cities).toContainEqual({ zip5: "43015", city: "MOUNT GILEAD" });
    expect(cities.some((c) => c.city.includes("SYNTHETIC"))).toBe(false);
    expect(cities.length).toBe(new Set(cities.map((c) => `${c.zip5} ${c.city}`)).size);
  });
});
