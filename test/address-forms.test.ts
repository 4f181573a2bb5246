/**
 * Addresses as people type them, against a real store (SQLite, or PostgreSQL under
 * TEST_DATABASE_URL) holding a SYNTHETIC boundary file: the generator's records (written in Pub 28
 * standard form) and a few streets added here to set up directionals that one street or two could
 * answer. Each address goes the way a lookup's does (lookup-item.ts → ladder.ts askBoundaryFile: the
 * matcher against the file's streets, then the boundary index); the expected record is read from the generator.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { openBoundaryIndex } from "../src/boundaries/boundary-index.ts";
import { formatBoundaryRow, type BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { askBoundaryFile, type FileAnswer } from "../src/lookup/ladder.ts";
import { readLookupItem } from "../src/lookup/lookup-item.ts";
import { boundaryWorkspace, linedRecords, type BoundaryWorkspace } from "./_boundary-files.ts";

type Lined = BoundaryRecord & { line: number };
const RECORDS = 8000;
const DATE = "2026-06-01";
const generated = linedRecords(RECORDS);

/** A block of 43081 on a street the generator does not use, under the county of the ZIP's first record. */
function street(preDirectional: string, streetName: string, suffix: string, postDirectional = ""): BoundaryRecord {
  const template = generated.find((r) => r.recordType === "A" && r.zip5 === "43081")!;
  return { ...template, effectiveFrom: "2018-01-01", effectiveTo: null, houseLow: 100, houseHigh: 199, parity: "B", preDirectional, streetName, suffix, postDirectional, unit: null };
}

/**
 * E and W Elmwood (two streets: "Elmwood Ave" is ambiguous), S Quarry alone, Linden without one, Kenny
 * with a post-directional, Maplewood with and without N.
 */
const ADDED = [
  street("E", "ELMWOOD", "AVE"), street("W", "ELMWOOD", "AVE"), street("S", "QUARRY", "RD"), street("", "LINDEN", "ST"), street("", "KENNY", "RD", "N"),
  street("", "MAPLEWOOD", "DR"), street("N", "MAPLEWOOD", "DR"),
];
const added = ADDED.map((r, i) => ({ ...r, line: RECORDS + i + 1 }));
const line = (name: string, pre = "") => added.find((r) => r.streetName === name && r.preDirectional === pre)!.line;

let ws: BoundaryWorkspace;
let index: ReturnType<typeof openBoundaryIndex>;

beforeAll(async () => {
  ws = await boundaryWorkspace();
  const path = await ws.write("OHB2026Q4SEP17-synthetic.csv", RECORDS);
  const rows = ADDED.map((r) => `${formatBoundaryRow(r).join(",")}\r\n`).join("");
  writeFileSync(path, rows, { flag: "a" });
  expect(await importBoundaryFile({ store: ws.store, source: path, synthetic: true })).toMatchObject({ status: "imported", records: RECORDS + ADDED.length });
  index = openBoundaryIndex(ws.store, { refreshMs: 0 });
});

afterAll(async () => {
  await index?.close();
  await ws?.close();
});

/** The line of the record that answers the address from the file, or null when the file does not. */
async function answer(address: string): Promise<number | null> {
  return (await fileAnswer(address))?.record?.line ?? null;
}

/** What the file says of the address, the way a lookup asks it (ladder.ts askBoundaryFile). */
async function fileAnswer(address: string): Promise<FileAnswer | null> {
  const item = readLookupItem({ address }, DATE);
  if ("kind" in item) throw new Error(`refused: ${item.detail}`);
  return (await askBoundaryFile(index, [item]))[0]!;
}

function record(what: string, test: (r: Lined) => boolean): Lined {
  const found = generated.find((r) => r.recordType === "A" && r.unit === null && r.parity === "O" && r.effectiveTo === null && r.effectiveFrom <= DATE && test(r));
  if (!found) throw new Error(`the synthetic file has no current odd-side record on ${what}`);
  return found;
}
const house = (r: Lined) => r.houseLow! + 1 + 2 * 3;

describe("highways match in their common short and long forms (Pub 28 §237)", () => {
  const forms: Array<[string, string[]]> = [
    ["STATE ROUTE 37", ["State Route 37", "SR 37", "S.R. 37", "St Rt 37", "St. Rte. 37", "OH-37", "Ohio 37", "SR-37", "State Hwy 37"]],
    ["COUNTY ROAD 12", ["County Road 12", "CR 12", "Co Rd 12", "Co. Rd. 12", "Cnty Rd 12", "County Rd 12"]],
    ["TOWNSHIP ROAD 45", ["Township Road 45", "TR 45", "Twp Rd 45", "T.R. 45", "Township Rd 45"]],
    ["US HIGHWAY 23", ["US Route 23", "US 23", "U.S. Hwy 23", "US Highway 23", "US-23", "U.S. Route 23"]],
  ];
  for (const [name, written] of forms) {
    it.each(written)(`%s finds ${name}`, async (form) => {
      const r = record(name, (x) => x.streetName === name);
      expect(await answer(`${house(r)} ${form}, Westerville, OH ${r.zip5}`)).toBe(r.line);
      expect(await answer(`${house(r)} ${form} Westerville OH ${r.zip5}`)).toBe(r.line);
    });
  }
});

describe("an ordinal spelled out finds the numbered street, and the reverse (Pub 28 §235)", () => {
  it.each([
    ["5TH", "Fifth"],
    ["21ST", "Twenty-First"],
    ["21ST", "Twenty First"],
  ])("%s written %s", async (name, spelled) => {
    const r = record(name, (x) => x.streetName === name);
    expect(await answer(`${house(r)} ${spelled} ${r.suffix}, Westerville, OH ${r.zip5}`)).toBe(r.line);
    expect(await answer(`${house(r)} ${name.toLowerCase()} ${r.suffix}, Westerville, OH ${r.zip5}`)).toBe(r.line);
  });
});

describe("a directional left out, or one the file lacks, matches only when exactly one street in the ZIP could", () => {
  it("left out where the file has one, and only that street in the ZIP: the record", async () => {
    expect(await answer("150 Quarry Rd, Westerville, OH 43081")).toBe(line("QUARRY", "S"));
    expect(await answer("150 Kenny Rd, Westerville, OH 43081")).toBe(line("KENNY"));
  });

  it("given where the file has none: the record", async () => {
    expect(await answer("150 N Linden St, Westerville, OH 43081")).toBe(line("LINDEN"));
    expect(await answer("150 Linden St North, Westerville, OH 43081")).toBe(line("LINDEN"));
  });

  it("left out where the ZIP has the street both east and west: no answer, the lookup goes down the ladder", async () => {
    expect(await answer("150 Elmwood Ave, Westerville, OH 43081")).toBeNull();
    expect(await answer("150 E Elmwood Ave, Westerville, OH 43081")).toBe(line("ELMWOOD", "E"));
  });

  it("a directional is never swapped for another: N Quarry is not S Quarry", async () => {
    expect(await answer("150 N Quarry Rd, Westerville, OH 43081")).toBeNull();
  });

  it("given where the ZIP has the street both without one and with another: no answer", async () => {
    expect(await answer("150 S Maplewood Dr, Westerville, OH 43081")).toBeNull();
    expect(await answer("150 Maplewood Dr, Westerville, OH 43081")).toBe(line("MAPLEWOOD"));
    expect(await answer("150 N Maplewood Dr, Westerville, OH 43081")).toBe(line("MAPLEWOOD", "N"));
  });
});

describe("no city is needed when the ZIP is there", () => {
  it.each([", OH ", ", Ohio ", ", ", " OH ", " "])("street%sZIP", async (between) => {
    const r = record("MAIN", (x) => x.streetName === "MAIN");
    expect(await answer(`${house(r)} ${r.streetName} ${r.suffix}${between}${r.zip5}`)).toBe(r.line);
  });
});

describe("a fractional house number matches the range of its whole number", () => {
  it.each(["1/2", "½"])("123 %s Main St", async (fraction) => {
    const r = record("MAIN", (x) => x.streetName === "MAIN");
    const at = house(r);
    expect(await answer(`${at} ${fraction} ${r.streetName} ${r.suffix}, Westerville, OH ${r.zip5}`)).toBe(r.line);
    expect(await answer(`${at} ${fraction} ${r.streetName} ${r.suffix} Westerville OH ${r.zip5}`)).toBe(r.line);
  });
});

describe("a tab between parts is a space; other control characters are still refused", () => {
  it("an address pasted from a spreadsheet's cells is read and matched", async () => {
    const r = record("MAIN", (x) => x.streetName === "MAIN");
    expect(await answer(`${house(r)} ${r.streetName} ${r.suffix}\tWesterville\tOH\t${r.zip5}`)).toBe(r.line);
    expect(readLookupItem({ address: `1 Main St\tColumbus\tOH\t43215` }, DATE)).toMatchObject({ address: "1 Main St Columbus OH 43215" });
  });

  it.each([["a line feed", "\n"], ["a NUL", "\u0000"], ["a carriage return", "\r"], ["a DEL", "\u007f"]])("%s is refused", (_, control) => {
    expect(readLookupItem({ address: `1 Main St${control}Columbus OH 43215` }, DATE)).toMatchObject({ kind: "failure", slug: "bad-request", detail: expect.stringContaining("control characters") });
  });
});

describe("a PO box never matches a street range", () => {
  it.each(["PO Box 150", "P.O. Box 150", "Post Office Box 150", "Box 150"])("%s", async (box) => {
    expect(await fileAnswer(`${box}, Westerville, OH 43081`)).toMatchObject({ record: null, miss: { reason: "po_box" } });
  });
});
