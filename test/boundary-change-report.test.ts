/**
 * The boundary import's change report weighs a file by what it does (docs/guides/boundary-file.md, "A
 * change report against the active version"): the share of the active version's ranges it moves, what
 * each county and transit code loses, and, for the ZIP table check, the contradictions the active
 * version did not already have. Imported into a real database (SQLite, or PostgreSQL under
 * TEST_DATABASE_URL). Every file is SYNTHETIC, or a stand-in made from one (test/_boundary-files.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBoundaryFile, JURISDICTION_MAX_LOST_SHARE, MAX_CHANGED_SHARE, MAX_CONTRADICTING_SHARE } from "../src/boundaries/import-file.ts";
import { runBoundaryImport } from "../src/boundaries/boundary-job.ts";
import { boundaryStatus } from "../src/boundaries/versions.ts";
import { SYNTHETIC_CITY_MARK } from "../src/boundaries/synthetic-file.ts";
import { formatBoundaryRow, type BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { openBoundaryIndex } from "../src/boundaries/boundary-index.ts";
import { dateInOhio } from "../src/rates/calendar.ts";
import { boundaryWorkspace, DATA_DIR, linedRecords, TEST_ZIPS, type BoundaryWorkspace } from "./_boundary-files.ts";

const RECORDS = 20_000;
/** Columns 30 to 89: the special-district triplets; the first carries the transit code. */
const DISTRICT_COLUMNS = { from: 29, to: 89, code: 30 } as const;
const COUNTY = 24;

let ws: BoundaryWorkspace;
let standard: string[];
let files = 0;

beforeAll(async () => {
  ws = await boundaryWorkspace();
  const first = await ws.write("OHB2026Q1OCT1-synthetic.csv", RECORDS);
  standard = readFileSync(first, "utf8").split("\r\n").slice(0, -1);
  expect(await importBoundaryFile({ store: ws.store, source: first, synthetic: true })).toMatchObject({ status: "imported", records: RECORDS });
}, 120_000);

afterAll(async () => {
  await ws?.close();
});

/** A synthetic file of the standard rows, `edit` applied to the chosen ones. */
function variant(chosen: ReadonlySet<number>, edit: (fields: string[]) => void): string {
  const path = join(ws.dir, `OHB2026Q1NOV${++files}-synthetic.csv`);
  const rows = standard.map((row, i) => {
    if (!chosen.has(i)) return row;
    const fields = row.split(",");
    edit(fields);
    return fields.join(",");
  });
  writeFileSync(path, `${rows.join("\r\n")}\r\n`);
  return path;
}

/** `count` rows spread through the file among those `pick` accepts. */
function spread(count: number, pick: (fields: string[]) => boolean): Set<number> {
  const candidates = standard.map((row, i) => [i, row.split(",")] as const).filter(([, fields]) => pick(fields)).map(([i]) => i);
  expect(candidates.length).toBeGreaterThanOrEqual(count);
  const stride = candidates.length / count;
  return new Set(Array.from({ length: count }, (_, k) => candidates[Math.floor(k * stride)]!));
}

const stripTransit = (fields: string[]) => {
  for (let c = DISTRICT_COLUMNS.from; c < DISTRICT_COLUMNS.to; c++) fields[c] = "";
};

async function versionsStored() {
  return ws.store.db.selectFrom("boundary_versions").select(["version", "status"]).orderBy("version").execute();
}

describe(`the threshold is ${MAX_CHANGED_SHARE * 100} % of the active version's ranges, from what real quarters move`, () => {
  it("800 of 20,000 transit codes stripped (4 %) is refused without --force, and changes nothing", async () => {
    const before = await versionsStored();
    const stripped = variant(spread(800, (f) => f[DISTRICT_COLUMNS.code] !== ""), stripTransit);
    const refused = await importBoundaryFile({ store: ws.store, source: stripped, synthetic: true });
    expect(refused).toMatchObject({ status: "refused", error: expect.stringMatching(/\(\d\.\d %, more than 1 %\): refused as a probably rewritten file/) });
    expect(refused.changes!.changed_share).toBeGreaterThan(0.03);
    expect(refused.changes!.changed_share).toBeLessThan(0.05);
    expect(await versionsStored()).toEqual(before);
  });
});

describe(`a county or transit code losing more than ${JURISDICTION_MAX_LOST_SHARE * 100} % of its ranges at once is refused, whatever the file's share`, () => {
  it("COTA's Delaware district (96000) dropped from 150 ranges, under 1 % of the file, is refused naming it", async () => {
    const before = await versionsStored();
    const dropped = variant(spread(150, (f) => f[DISTRICT_COLUMNS.code] === "96000"), stripTransit);
    const refused = await importBoundaryFile({ store: ws.store, source: dropped, synthetic: true });
    expect(refused.changes!.changed_share).toBeLessThan(MAX_CHANGED_SHARE);
    expect(refused.changes!.jurisdictions_moved).toEqual([{ kind: "transit", code: "96000", ranges: expect.any(Number), lost: expect.any(Number) }]);
    expect(refused.changes!.jurisdictions_moved[0]!.lost).toBeGreaterThan(100);
    expect(refused).toMatchObject({ status: "refused", error: expect.stringMatching(/^transit 96000 lost \d+ of its \d+ ranges \(more than 1 % of a county's or transit code's ranges at once\): refused as a probably rewritten file/) });
    expect(await versionsStored()).toEqual(before);
  });

  it("a few ranges moved, as a real quarter does, import without --force with the report kept", async () => {
    const few = variant(spread(8, (f) => f[COUNTY] === "049"), (f) => void (f[COUNTY] = "041"));
    const imported = await importBoundaryFile({ store: ws.store, source: few, synthetic: true });
    expect(imported).toMatchObject({ status: "imported", changes: { jurisdictions_moved: [] } });
    expect(imported.changes!.ranges_changed).toBeGreaterThan(0);
    expect((await boundaryStatus(ws.store.db)).active?.report?.changes).toEqual(imported.changes);
  });

  it("150 of Wood County's ranges moved to Lucas County, under 1 % of the file, is refused naming Wood; --force imports it", async () => {
    const moved = variant(spread(150, (f) => f[COUNTY] === "173"), (f) => void (f[COUNTY] = "095"));
    const refused = await importBoundaryFile({ store: ws.store, source: moved, synthetic: true });
    expect(refused.changes!.changed_share).toBeLessThan(MAX_CHANGED_SHARE);
    expect(refused).toMatchObject({ status: "refused", error: expect.stringMatching(/^county 39173 lost \d+ of its \d+ ranges/) });
    expect(await importBoundaryFile({ store: ws.store, source: moved, synthetic: true, force: true })).toMatchObject({ status: "imported" });
  });
});

describe(`ZIPs contradicting the shipped ZIP table count against the active version; the table alone judges a first import (${MAX_CONTRADICTING_SHARE * 100} %)`, () => {
  it("a state's file that differs from the table in every ZIP imports on schedule once a version like it is active", async () => {
    const fresh = await boundaryWorkspace();
    try {
      // A stand-in for a state's file whose ZIPs lie where the Census ZCTA table does not put them.
      const rows = readFileSync(await fresh.write("OHB2026Q1DEC1-synthetic.csv", 1000), "utf8").replaceAll(SYNTHETIC_CITY_MARK, "").split("\r\n").slice(0, -1);
      const adams = rows.map((row) => row.split(",").map((f, c) => (c === COUNTY ? "001" : f)).join(","));
      const standIn = (name: string) => {
        const path = join(fresh.dir, name);
        writeFileSync(path, `${adams.join("\r\n")}\r\n`);
        return path;
      };
      const first = standIn("OHB2026Q1DEC2.csv");
      const refused = await importBoundaryFile({ store: fresh.store, source: first, dataDir: DATA_DIR });
      expect(refused).toMatchObject({ status: "refused", zips: { against: null, contradicting: TEST_ZIPS.length, contradicting_share: 1 } });
      expect(await importBoundaryFile({ store: fresh.store, source: first, dataDir: DATA_DIR, force: true })).toMatchObject({ status: "imported" });

      const next = await runBoundaryImport(fresh.store, standIn("OHB2026Q2FEB27.csv"), undefined, { dataDir: DATA_DIR });
      expect(next).toMatchObject({
        status: "imported",
        version: "OHB2026Q2FEB27",
        zips: { zips: TEST_ZIPS.length, against: "OHB2026Q1DEC2", contradicting: 0, contradicting_share: 0, first_zips: [], table_contradicting: TEST_ZIPS.length },
      });
    } finally {
      await fresh.close();
    }
  });
});

describe("versions are compared a few ZIPs at a time, and every ZIP's ranges count", () => {
  it("over 40 ZIPs, rows repeated in the first and the last ZIPs read are all counted, and a ZIP left out of the last ones is counted removed", async () => {
    const fresh = await boundaryWorkspace();
    try {
      const zips = [...new Set(readFileSync(join(DATA_DIR, "zip-counties.csv"), "utf8").trim().split(/\r?\n/).slice(1).map((line) => line.split(",")[0]!))].slice(0, 40);
      const first = await fresh.write("OHB2026Q1OCT1-synthetic.csv", 8_000, { zips });
      expect(await importBoundaryFile({ store: fresh.store, source: first, synthetic: true })).toMatchObject({ status: "imported" });
      const rows = readFileSync(first, "utf8").split("\r\n").slice(0, -1);
      // The first row is the first ZIP's whole-ZIP record: its ZIP column is where the ZIP stands.
      const zipColumn = rows[0]!.split(",").indexOf(zips[0]!);
      const zipOf = (row: string) => row.split(",")[zipColumn]!;
      const sorted = [...zips].sort();
      const [low, high] = [sorted[0]!, sorted.at(-1)!];
      const repeated = [...rows.filter((row) => zipOf(row) === low).slice(1, 11), ...rows.filter((row) => zipOf(row) === high).slice(1, 11)];
      expect(repeated).toHaveLength(20);

      const withRepeats = join(fresh.dir, "OHB2026Q2JAN1-synthetic.csv");
      writeFileSync(withRepeats, `${[...rows, ...repeated].join("\r\n")}\r\n`);
      const imported = await importBoundaryFile({ store: fresh.store, source: withRepeats, synthetic: true });
      expect(imported).toMatchObject({ status: "imported", changes: { duplicate_rows: 20, ranges_changed: 0, ranges_added: 0, ranges_removed: 0 } });
      expect(imported.changes!.ranges_compared).toBe(imported.changes!.ranges_in_active);

      const left = sorted.at(-2)!;
      const without = join(fresh.dir, "OHB2026Q3APR1-synthetic.csv");
      writeFileSync(without, `${rows.filter((row) => zipOf(row) !== left).join("\r\n")}\r\n`);
      const shorter = await importBoundaryFile({ store: fresh.store, source: without, synthetic: true, force: true });
      const leftRanges = rows.filter((row) => zipOf(row) === left).length;
      expect(shorter).toMatchObject({ status: "imported", changes: { ranges_changed: 0, ranges_added: 0 } });
      expect(shorter.changes!.ranges_removed).toBeGreaterThan(0);
      expect(shorter.changes!.ranges_removed).toBeLessThanOrEqual(leftRanges);
      expect(shorter.changes!.ranges_compared + shorter.changes!.ranges_removed).toBe(shorter.changes!.ranges_in_active);
    } finally {
      await fresh.close();
    }
  }, 120_000);
});

describe("a file is judged by what lookups over it answer: an added range that shadows an existing one moves its answers", () => {
  const records = 6_000;
  /** A stand-in file (test/_boundary-files.ts): the generator's records, edited, its synthetic mark taken out of every city. */
  function standIn(dir: string, name: string, rows: readonly BoundaryRecord[]): string {
    const path = join(dir, name);
    writeFileSync(path, `${rows.map((r) => formatBoundaryRow({ ...r, city: r.city.replace(SYNTHETIC_CITY_MARK, "") }).join(",")).join("\r\n")}\r\n`);
    return path;
  }
  /** Ranges as the report counts them: by what they cover, whatever their dates (a dated change is two rows of one range). */
  const ranges = (rows: readonly BoundaryRecord[]) => new Set(rows.map((r) => [r.zip5, r.preDirectional, r.streetName, r.suffix, r.houseLow, r.houseHigh, r.parity].join("|"))).size;
  const streetOf = (r: BoundaryRecord, house: number) => ({ houseNumber: String(house), preDirectional: r.preDirectional, streetName: r.streetName, suffix: r.suffix });

  it("every range kept and a narrower copy of each transit-coded address range added with its transit code cleared is refused without --force, on schedule too; forced, the lookups inside answer no transit", async () => {
    const fresh = await boundaryWorkspace();
    try {
      const standard = linedRecords(records);
      expect(await importBoundaryFile({ store: fresh.store, source: standIn(fresh.dir, "OHB2026Q1OCT1.csv", standard) })).toMatchObject({ status: "imported" });
      const transitCoded = standard.filter((r) => r.recordType === "A" && r.transitCode !== null && r.unit === null && r.houseHigh! - r.houseLow! >= 4);
      expect(transitCoded.length).toBeGreaterThan(records / 10);
      const narrower = transitCoded.map((r) => ({ ...r, houseHigh: r.houseHigh! - 2, transitCode: null, districts: [] }));
      const hostile = [...standard, ...narrower];

      const refused = await importBoundaryFile({ store: fresh.store, source: standIn(fresh.dir, "OHB2026Q1NOV1.csv", hostile) });
      expect(refused).toMatchObject({ status: "refused", error: expect.stringMatching(/ kept but shadowed .*more than 1 %\): refused as a probably rewritten file/) });
      expect(refused.changes).toMatchObject({ ranges_changed: 0, ranges_removed: 0, ranges_added: ranges(narrower) });
      // Every narrowed range is an active range whose lookups now answer without its transit code.
      expect(refused.changes!.ranges_shadowed).toBeGreaterThanOrEqual(ranges(narrower));
      expect(refused.changes!.changed_share).toBeGreaterThan(MAX_CHANGED_SHARE);
      expect(refused.changes!.jurisdictions_moved.map((j) => j.kind)).toContain("transit");

      const scheduled = await runBoundaryImport(fresh.store, standIn(fresh.dir, "OHB2026Q2FEB27.csv", hostile), undefined, { dataDir: DATA_DIR });
      expect(scheduled).toMatchObject({ status: "refused", error: expect.stringMatching(/kept but shadowed/) });
      expect((await boundaryStatus(fresh.store.db)).active?.version).toBe("OHB2026Q1OCT1");

      // What the refusal spared: forced, a lookup inside a narrowed range answers no transit code.
      const index = openBoundaryIndex(fresh.store, { refreshMs: 0 });
      const today = dateInOhio(new Date());
      const sample = transitCoded.find((r) => r.effectiveFrom <= today && r.effectiveTo === null)!;
      const house = sample.parity === "E" ? sample.houseLow! + 2 : sample.houseLow! + 1;
      const asked = { zip5: sample.zip5, street: streetOf(sample, house), date: today };
      expect(await index.probe(asked)).toMatchObject({ transitCode: sample.transitCode });
      expect(await importBoundaryFile({ store: fresh.store, source: standIn(fresh.dir, "OHB2026Q1NOV2.csv", hostile), force: true })).toMatchObject({ status: "imported" });
      expect(await index.probe(asked)).toMatchObject({ transitCode: null });
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it("ranges split into narrower ones with the same county and transit code, and new streets, move no answer and import without --force", async () => {
    const fresh = await boundaryWorkspace();
    try {
      const standard = linedRecords(records);
      expect(await importBoundaryFile({ store: fresh.store, source: standIn(fresh.dir, "OHB2026Q1OCT1.csv", standard) })).toMatchObject({ status: "imported" });
      const blocks = standard.filter((r) => r.recordType === "A" && r.unit === null && r.houseHigh! - r.houseLow! >= 4);
      const split = blocks.map((r) => ({ ...r, houseHigh: r.houseHigh! - 2 }));
      const built = blocks.slice(0, 200).map((r) => ({ ...r, streetName: `${r.streetName} NEW` }));
      const imported = await importBoundaryFile({ store: fresh.store, source: standIn(fresh.dir, "OHB2026Q1NOV1.csv", [...standard, ...split, ...built]) });
      expect(imported).toMatchObject({ status: "imported", changes: { ranges_changed: 0, ranges_removed: 0, ranges_shadowed: 0, changed_share: 0, jurisdictions_moved: [] } });
      expect(imported.changes!.ranges_added).toBe(ranges([...split, ...built]));
      expect(imported.changes!.lookups_judged.judged).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  }, 120_000);
});
