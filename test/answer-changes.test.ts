/**
 * The change report's judgement of a group by what lookups answer (src/boundaries/answer-changes.ts),
 * on hand-written records of one street or one ZIP: a range kept but shadowed by one added over it is
 * found, whatever day the added one begins and whether it covers a unit or a ZIP+4 range; a split
 * that answers as before is not. Pure: no store.
 */
import { describe, expect, it } from "vitest";
import { GroupSample, judgeGroup, type GroupRecord } from "../src/boundaries/answer-changes.ts";

const DAY = "2026-12-02";
let line = 0;
function block(low: number, high: number, transit: string | null, more: Partial<GroupRecord> = {}): GroupRecord {
  return {
    query: 0, line: ++line, record_type: "A", county_fips: "39049", transit_code: transit, effective_from: "2018-01-01", effective_to: null,
    house_low: low, house_high: high, plus4_low: null, plus4_high: null, unit_designator: null, unit_low: null, unit_high: null, unit_parity: null,
    parity: "O", ...more,
  };
}
function zip4(low: string, high: string, transit: string | null): GroupRecord {
  return { ...block(0, 0, transit), record_type: "4", house_low: null, house_high: null, plus4_low: low, plus4_high: high, parity: null };
}

describe("a range kept unchanged is shadowed when lookups inside it answer another county or transit code", () => {
  const active = [block(101, 199, "25000"), block(201, 299, "25000")];

  it("a narrower copy without the transit code shadows the one range it lies in, and the code is lost by it", () => {
    expect(judgeGroup(active, [...active, block(101, 197, null)], DAY)).toMatchObject({ shadowed: 1, lost: [{ kind: "transit", code: "25000" }] });
  });

  it("a copy that begins next month is judged on the day it begins", () => {
    expect(judgeGroup(active, [...active, block(101, 197, null, { effective_from: "2027-01-01" })], DAY)).toMatchObject({ shadowed: 1 });
  });

  it("a unit range over a whole block moves the answers of its units", () => {
    const units = block(101, 199, null, { unit_designator: "APT", unit_low: "1", unit_high: "9999", unit_parity: "B" });
    expect(judgeGroup(active, [...active, units], DAY)).toMatchObject({ shadowed: 1, lost: [{ kind: "transit", code: "25000" }] });
  });

  it("a narrower ZIP+4 range of another county shadows the ZIP+4 range it lies in", () => {
    const before = [zip4("0001", "0050", "25000")];
    expect(judgeGroup(before, [...before, { ...zip4("0010", "0020", "25000"), county_fips: "39041" }], DAY)).toMatchObject({ shadowed: 1, lost: [{ kind: "county", code: "39049" }] });
  });

  it("a block split into narrower ranges with the same county and transit code, or a new block, shadows nothing", () => {
    const after = [...active, block(101, 149, "25000"), block(151, 199, "25000"), block(301, 399, null)];
    expect(judgeGroup(active, after, DAY)).toMatchObject({ shadowed: 0, lost: [] });
  });

  it("a range whose own row changed is the row comparison's to count, not shadowed", () => {
    expect(judgeGroup(active, [block(101, 199, null), active[1]!], DAY)).toMatchObject({ shadowed: 0 });
  });
});

describe("at most the sample's cap of groups is kept, evenly spaced, and each stands for the groups it was kept among", () => {
  it("10,000 groups offered to a cap of 1,000: 625 kept, every 16th, each standing for 16", () => {
    const sample = new GroupSample(1000);
    for (let i = 0; i < 10_000; i++) sample.add({ type: "4", zip5: String(i).padStart(5, "0"), street: null });
    expect(sample.kept.length).toBe(625);
    expect(sample.kept.map((g) => Number(g.zip5)).every((n, i) => n === i * 16)).toBe(true);
    expect(sample.scale).toBe(16);
  });
});
