/**
 * The SYNTHETIC boundary file in the state's layout (src/boundaries/synthetic-file.ts `streets: "many"`),
 * which bench/state-scale.ts imports at 2,000,000 records: a cost that grows with the streets a ZIP
 * holds shows only when a ZIP holds as many as the state's file gives it, not the few dozen common
 * names of the default layout. Pure: the generator's records, read as the importer keys them.
 */
import { describe, expect, it } from "vitest";
import { standardDirectional, standardSuffix, streetKey } from "../src/boundaries/pub28.ts";
import { FUTURE_CHANGE, PAST_CHANGE, syntheticBoundaryRecords } from "../src/boundaries/synthetic-file.ts";
import { DATA_DIR, TEST_ZIPS } from "./_boundary-files.ts";

/** About the state's 1,400 records per ZIP. */
const RECORDS = 1_400 * TEST_ZIPS.length;

function streetsPerZip(streets: "few" | "many" | undefined) {
  const records = [...syntheticBoundaryRecords({ dataDir: DATA_DIR, zips: TEST_ZIPS, records: RECORDS, ...(streets && { streets }) })];
  const perZip = new Map<string, Set<string>>();
  for (const r of records) if (r.recordType === "A") perZip.set(r.zip5, (perZip.get(r.zip5) ?? new Set()).add(streetKey(r)));
  return { records, perZip };
}

describe("a synthetic file in the state's layout holds many streets per ZIP", () => {
  it("several hundred streets in a ZIP of 1,400 records, where the default layout holds a few dozen", () => {
    const many = streetsPerZip("many");
    expect(many.records).toHaveLength(RECORDS);
    for (const zip of TEST_ZIPS) expect(many.perZip.get(zip)!.size).toBeGreaterThanOrEqual(300);
    const few = streetsPerZip(undefined);
    for (const zip of TEST_ZIPS) expect(few.perZip.get(zip)!.size).toBeLessThanOrEqual(60);
  });

  it("its made-up names are single words that are no suffix or directional, so each is keyed as written", () => {
    for (const r of streetsPerZip("many").records) {
      if (r.recordType !== "A") continue;
      expect(r.streetName).toMatch(/^[A-Z]+$/);
      expect(standardSuffix(r.streetName)).toBeNull();
      expect(standardDirectional(r.streetName)).toBeNull();
      expect(streetKey(r)).toContain(r.streetName);
    }
  });

  it("keeps the default layout's past and future changes and apartment ranges", () => {
    const { records } = streetsPerZip("many");
    expect(records.some((r) => r.recordType === "A" && r.effectiveFrom === PAST_CHANGE)).toBe(true);
    expect(records.some((r) => r.recordType === "A" && r.effectiveFrom === FUTURE_CHANGE)).toBe(true);
    expect(records.some((r) => r.recordType === "A" && r.unit !== null)).toBe(true);
    expect(records.filter((r) => r.recordType === "Z").map((r) => r.zip5).sort()).toEqual([...TEST_ZIPS].sort());
  });
});
