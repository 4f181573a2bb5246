/**
 * The boundary index's rules (src/boundaries/boundary-index.ts) over a SYNTHETIC file imported into
 * a real database (SQLite, or PostgreSQL under TEST_DATABASE_URL). Every expectation is read from
 * the generator's own records, never hard-coded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBoundaryIndex } from "../src/boundaries/boundary-index.ts";
import type { BoundaryQuery, StreetAddress } from "../src/boundaries/boundary-index.interface.ts";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import type { BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { FUTURE_CHANGE, PAST_CHANGE } from "../src/boundaries/synthetic-file.ts";
import { openStore } from "../src/store/connect.ts";
import { boundaryWorkspace, linedRecords, type BoundaryWorkspace } from "./_boundary-files.ts";

type Lined = BoundaryRecord & { line: number };
const RECORDS = 4000;
const VERSION = "OHB2026Q4SEP17-SYNTHETIC";
const TODAY = "2026-11-23";
const records = linedRecords(RECORDS);

let ws: BoundaryWorkspace;
let index: ReturnType<typeof openBoundaryIndex>;

beforeAll(async () => {
  ws = await boundaryWorkspace();
  const path = await ws.write("OHB2026Q4SEP17-synthetic.csv", RECORDS);
  expect(await importBoundaryFile({ store: ws.store, source: path, synthetic: true })).toMatchObject({ status: "imported" });
  index = openBoundaryIndex(ws.store, { refreshMs: 0 });
});

afterAll(async () => {
  await index?.close();
  await ws?.close();
});

function find(label: string, test: (r: Lined) => boolean, from: readonly Lined[] = records): Lined {
  const found = from.find(test);
  if (!found) throw new Error(`the synthetic file has no ${label}`);
  return found;
}

const inEffect = (r: Lined, date: string) => r.effectiveFrom <= date && (r.effectiveTo === null || r.effectiveTo >= date);
const sameStreet = (a: Lined, b: Lined) => a.zip5 === b.zip5 && a.preDirectional === b.preDirectional && a.streetName === b.streetName && a.suffix === b.suffix;

function streetOf(r: Lined, house: number, unit?: string): StreetAddress {
  return { houseNumber: String(house), preDirectional: r.preDirectional || undefined, streetName: r.streetName, suffix: r.suffix || undefined, ...(unit && { unit }) };
}

function expected(r: Lined) {
  return { version: VERSION, recordType: r.recordType, countyFips: r.countyFips, transitCode: r.transitCode, line: r.line, effectiveFrom: r.effectiveFrom, effectiveTo: r.effectiveTo };
}

/** An ordinary block in COTA's Delaware district: odd side inside (96000), even side outside. */
const splitOdd = find("odd range in Delaware County", (r) => r.recordType === "A" && r.countyFips === "39041" && r.parity === "O" && r.unit === null && r.effectiveTo === null && r.effectiveFrom === "2018-01-01");
const splitEven = find("even range beside it", (r) => r.recordType === "A" && sameStreet(r, splitOdd) && r.houseLow === splitOdd.houseLow && r.parity === "E");

describe("an address range matches the house number's side of the street (odd/even)", () => {
  it("an odd number takes the O record, an even one the E record of the same block", async () => {
    expect(splitOdd.transitCode).toBe("96000");
    expect(splitEven.transitCode).toBeNull();
    expect(await index.probe({ zip5: splitOdd.zip5, street: streetOf(splitOdd, splitOdd.houseLow! + 1), date: TODAY })).toEqual(expected(splitOdd));
    expect(await index.probe({ zip5: splitOdd.zip5, street: streetOf(splitOdd, splitOdd.houseLow! + 2), date: TODAY })).toEqual(expected(splitEven));
  });

  it("a house number outside every range, or another ZIP, matches nothing", async () => {
    expect(await index.probe({ zip5: splitOdd.zip5, street: streetOf(splitOdd, 99_999), date: TODAY })).toBeNull();
    expect(await index.probe({ zip5: "43004", street: streetOf(splitOdd, splitOdd.houseLow! + 1), date: TODAY })).toBeNull();
  });

  it("1234A compares as 1234", async () => {
    const odd = splitOdd.houseLow! + 1;
    expect(await index.probe({ zip5: splitOdd.zip5, street: { ...streetOf(splitOdd, odd), houseNumber: `${odd}A` }, date: TODAY })).toEqual(expected(splitOdd));
  });
});

describe("directionals and suffixes are standardised on both sides (USPS Pub 28)", () => {
  const spelled = find("street with a pre-directional and a spelled-out suffix", (r) => r.recordType === "A" && r.preDirectional === "N" && r.suffix === "AVENUE" && r.unit === null && inEffect(r, TODAY) && r.parity === "O");

  it("North … Ave finds the file's N … AVENUE", async () => {
    const house = String(spelled.houseLow! + 1);
    const name = spelled.streetName.toLowerCase();
    expect(await index.probe({ zip5: spelled.zip5, street: { houseNumber: house, preDirectional: "North", streetName: name, suffix: "Ave" }, date: TODAY })).toEqual(expected(spelled));
    expect(await index.probe({ zip5: spelled.zip5, street: { houseNumber: house, streetName: `north ${name} av` }, date: TODAY })).toEqual(expected(spelled));
  });

  it("a missing or different suffix or directional is another street", async () => {
    const house = String(spelled.houseLow! + 1);
    expect(await index.probe({ zip5: spelled.zip5, street: { houseNumber: house, preDirectional: "N", streetName: spelled.streetName }, date: TODAY })).toBeNull();
    expect(await index.probe({ zip5: spelled.zip5, street: { houseNumber: house, preDirectional: "S", streetName: spelled.streetName, suffix: "Ave" }, date: TODAY })).toBeNull();
  });
});

describe("a secondary unit range (APT 1-50) wins for a unit inside it; other units take the building's block", () => {
  const building = find("apartment range", (r) => r.unit !== null && inEffect(r, TODAY));
  const block = find("the block around it", (r) => r.unit === null && sameStreet(r, building) && r.parity === "O" && r.houseLow! <= building.houseLow! && building.houseLow! <= r.houseHigh! && inEffect(r, TODAY));
  const at = (unit?: string): BoundaryQuery => ({ zip5: building.zip5, street: streetOf(building, building.houseLow!, unit), date: TODAY });

  it.each(["Apartment 7", "apt 7", "#7", "7"])("unit %s → the apartment range", async (unit) => {
    expect(await index.probe(at(unit))).toEqual(expected(building));
  });

  it.each([undefined, "Apt 99", "Suite 7"])("unit %s → the block's record", async (unit) => {
    expect(await index.probe(at(unit))).toEqual(expected(block));
  });
});

describe("a record applies only between its begin and end dates (the lookup date)", () => {
  const ended = find("record that ended", (r) => r.recordType === "A" && r.effectiveTo === "2024-12-31");
  const successor = find("its successor", (r) => r.recordType === "A" && sameStreet(r, ended) && r.houseLow === ended.houseLow && r.parity === ended.parity && r.effectiveFrom === PAST_CHANGE);
  const current = find("record ending before a future change", (r) => r.recordType === "A" && r.effectiveTo === "2027-06-30");
  const future = find("the record that begins later", (r) => r.recordType === "A" && sameStreet(r, current) && r.houseLow === current.houseLow && r.parity === current.parity && r.effectiveFrom === FUTURE_CHANGE);

  it("before the end date the ended record answers; from the change, its successor", async () => {
    const q = (date: string) => index.probe({ zip5: ended.zip5, street: streetOf(ended, ended.houseLow! + 1), date });
    expect(await q("2024-12-31")).toEqual(expected(ended));
    expect(await q("2025-01-01")).toEqual(expected(successor));
    expect(await q(TODAY)).toEqual(expected(successor));
  });

  it("today the current record answers; on and after its begin date, the future-dated one", async () => {
    const q = (date: string) => index.probe({ zip5: current.zip5, street: streetOf(current, current.houseLow! + 1), date });
    expect(await q(TODAY)).toEqual(expected(current));
    expect(await q("2027-06-30")).toEqual(expected(current));
    expect(await q("2027-07-01")).toEqual(expected(future));
  });

  it("before any record begins, nothing answers", async () => {
    expect(await index.probe({ zip5: splitOdd.zip5, street: streetOf(splitOdd, splitOdd.houseLow! + 1), date: "2017-12-31" })).toBeNull();
  });
});

describe("a ZIP+4 range answers when no address range does", () => {
  const range = find("ZIP+4 range with a transit code", (r) => r.recordType === "4" && r.transitCode !== null);
  const middle = String(Number(range.plus4Low) + 1).padStart(4, "0");

  it("a +4 inside the range → that record", async () => {
    expect(await index.probe({ zip5: range.zip5, zip4: range.plus4Low!, date: TODAY })).toEqual(expected(range));
    expect(await index.probe({ zip5: range.zip5, zip4: middle, date: TODAY })).toEqual(expected(range));
    expect(await index.probe({ zip5: range.zip5, zip4: range.plus4High!, date: TODAY })).toEqual(expected(range));
  });

  it("a +4 no range covers, or a malformed one, → null", async () => {
    const covered = (plus4: string) => records.some((r) => r.recordType === "4" && r.zip5 === "43460" && r.plus4Low! <= plus4 && plus4 <= r.plus4High!);
    expect(covered("9999")).toBe(false);
    expect(await index.probe({ zip5: "43460", zip4: "9999", date: TODAY })).toBeNull();
    expect(await index.probe({ zip5: range.zip5, zip4: "12", date: TODAY })).toBeNull();
  });

  it("the address range wins over the ZIP+4 range; an unknown street falls back to the +4", async () => {
    const zip4 = find("ZIP+4 range in the odd block's ZIP", (r) => r.recordType === "4" && r.zip5 === splitOdd.zip5);
    const street = streetOf(splitOdd, splitOdd.houseLow! + 1);
    expect(await index.probe({ zip5: splitOdd.zip5, zip4: zip4.plus4Low!, street, date: TODAY })).toEqual(expected(splitOdd));
    expect(await index.probe({ zip5: splitOdd.zip5, zip4: zip4.plus4Low!, street: { ...street, streetName: "Nowhere" }, date: TODAY })).toEqual(expected(zip4));
  });
});

describe("probeMany answers many queries in their order, as probe does one by one", () => {
  it("the same answers, nulls included", async () => {
    const queries: BoundaryQuery[] = records
      .filter((_, i) => i % 37 === 0)
      .flatMap((r): BoundaryQuery[] =>
        r.recordType === "A"
          ? [{ zip5: r.zip5, street: streetOf(r, r.houseLow! + (r.parity === "E" ? 0 : 1), r.unit ? `${r.unit.designator} ${r.unit.low}` : undefined), date: TODAY }]
          : r.recordType === "4"
            ? [{ zip5: r.zip5, zip4: r.plus4High!, date: TODAY }]
            : [{ zip5: r.zip5, date: TODAY }],
      );
    const one = await Promise.all(queries.map((q) => index.probe(q)));
    expect(one.filter((m) => m !== null).length).toBeGreaterThan(queries.length / 2);
    expect(await index.probeMany(queries)).toEqual(one);
  });
});

describe("lookups see the old version until the new one is complete, then the new one", () => {
  it("every probe during an import answers from the old version; after it, from the new", async () => {
    const next = "OHB2027Q1NOV28-SYNTHETIC";
    const nextRecords = linedRecords(30_000);
    const path = await ws.write("OHB2027Q1NOV28-synthetic.csv", 30_000);
    const query = { zip5: splitOdd.zip5, street: streetOf(splitOdd, splitOdd.houseLow! + 1), date: TODAY };
    const nextRecord = find("the same block in the next file", (r) => r.recordType === "A" && sameStreet(r, splitOdd) && r.houseLow === splitOdd.houseLow && r.parity === "O" && inEffect(r, TODAY), nextRecords);
    // A second instance on the same database, caching the pointer for 5 s on a clock the test moves.
    const other = openStore(ws.databaseUrl);
    let clock = 0;
    const cached = openBoundaryIndex(other, { clock: { now: () => new Date(clock) } });
    try {
      expect(await cached.probe(query)).toMatchObject({ version: VERSION });
      let importing = true;
      const importing$ = importBoundaryFile({ store: ws.store, source: path, synthetic: true }).finally(() => {
        importing = false;
      });
      const during = [];
      // Requests arrive as separate events, as a server's do; on SQLite a probe is synchronous underneath.
      while (importing) {
        during.push(await index.probe(query));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await importing$).toMatchObject({ status: "imported", version: next });
      // Each answer is the old file's whole answer or, once the pointer has moved (the import still
      // deletes the superseded version after that), the new file's; never a mix, never back again.
      const [before, after] = [expected(splitOdd), { ...expected(nextRecord), version: next }];
      const switchedAt = during.findIndex((answer) => answer?.version === next);
      const old = switchedAt === -1 ? during : during.slice(0, switchedAt);
      expect(old.length).toBeGreaterThan(0);
      for (const answer of old) expect(answer).toEqual(before);
      for (const answer of switchedAt === -1 ? [] : during.slice(switchedAt)) expect(answer).toEqual(after);

      expect(await index.probe(query)).toEqual(after);
      clock += 4000;
      expect(await cached.probe(query)).toMatchObject({ version: VERSION });
      clock += 1000;
      expect(await cached.probe(query)).toMatchObject({ version: next, line: nextRecord.line });
      expect(cached.activeVersion()).toBe(next);
    } finally {
      await cached.close();
      await other.close();
    }
  });
});
