import { describe, expect, it, vi } from "vitest";
import { AnswerKey, CachedAnswers } from "../src/http/cached-answers.ts";

const asOf = { lastReconciled: "2026-08-18", confirmedThrough: "2026-09-30" };
const itemKey = "2026-06-01|10 S High St, Columbus, OH 43215||||||";

describe("a query's key in the body cache (AnswerKey, src/http/cached-answers.ts)", () => {
  it("is the key CachedAnswers.keyOf writes, for every version and date it is asked with", () => {
    const key = new AnswerKey(itemKey);
    for (const [dates, version] of [
      [asOf, "OHB2026Q4SEP17"],
      [asOf, null],
      [{ lastReconciled: "2026-11-18", confirmedThrough: "2026-12-31" }, null],
      [{ lastReconciled: "2026-11-18", confirmedThrough: "2026-12-31" }, "OHB2027Q1DEC17"],
    ] as const) {
      expect(key.of(dates, version)).toBe(CachedAnswers.keyOf(itemKey, dates, version));
    }
  });

  it("is written once and then kept for every request while the file's version and the answer's dates hold", () => {
    const written = vi.spyOn(CachedAnswers, "keyOf");
    try {
      const key = new AnswerKey(itemKey);
      key.of(asOf, "OHB2026Q4SEP17");
      // A copy of the dates, as a freshness read anew gives: equal text keeps the key.
      for (let i = 0; i < 5; i++) key.of({ ...asOf }, "OHB2026Q4SEP17");
      expect(written).toHaveBeenCalledTimes(1);
      key.of(asOf, "OHB2027Q1DEC17");
      expect(written).toHaveBeenCalledTimes(2);
    } finally {
      written.mockRestore();
    }
  });

  it("changes when an import or a rollback changes the version, or a reconciliation the dates: an answer of the old file is never found", () => {
    const key = new AnswerKey(itemKey);
    const before = key.of(asOf, "OHB2026Q4SEP17");
    expect(key.of(asOf, "OHB2027Q1DEC17")).not.toBe(before);
    expect(key.of(asOf, null)).not.toBe(key.of(asOf, "OHB2027Q1DEC17"));
    expect(key.of({ ...asOf, confirmedThrough: "2026-12-31" }, null)).toContain("2026-12-31");
    expect(key.of({ ...asOf, lastReconciled: "2026-11-18" }, null)).toContain("2026-11-18");
  });
});
