import { describe, expect, it } from "vitest";
import { AFTER_SPELLS, afterCheck, type SpellState } from "../src/give-back-memory.ts";

/** Runs checks of (utilization, RSS MB) through the rule from a service that started at `baselineMb`; the checks that collected. */
function run(checks: Array<[number, number]>, baselineMb = 120): number[] {
  let state: SpellState = { busy: false, quietSeconds: 0, baselineMb };
  const collected: number[] = [];
  checks.forEach(([utilization, rss], i) => {
    const step = afterCheck(AFTER_SPELLS, state, utilization, rss);
    state = step.collect ? { ...step.state, baselineMb: rss - 25 } : step.state;
    if (step.collect) collected.push(i);
  });
  return collected;
}

const checksFor = (seconds: number) => Math.ceil(seconds / AFTER_SPELLS.checkSeconds);
const busy = (checks: number, rss = 150): Array<[number, number]> => Array.from({ length: checks }, () => [0.9, rss]);
const quiet = (checks: number, rss = 150): Array<[number, number]> => Array.from({ length: checks }, () => [0.001, rss]);

describe("memory is given back after a busy spell, once the service has been quiet a while (src/give-back-memory.ts)", () => {
  it("collects once a busy spell has been followed by quietSeconds of a nearly idle event loop", () => {
    const checks = [...busy(5), ...quiet(checksFor(AFTER_SPELLS.quietSeconds) + 5)];
    expect(run(checks)).toEqual([5 + checksFor(AFTER_SPELLS.quietSeconds) - 1]);
  });

  it("never collects while the event loop is busy, however much the memory has grown", () => {
    expect(run(busy(100, 300))).toEqual([]);
  });

  it("does not collect before the quiet has lasted quietSeconds: a request arriving in a lull restarts the wait", () => {
    const lull = quiet(checksFor(AFTER_SPELLS.quietSeconds) - 1);
    const checks = [...busy(3), ...lull, [0.05, 150] as [number, number], ...lull];
    expect(run(checks)).toEqual([]);
  });

  it("collects once per busy spell, not again while the service stays quiet", () => {
    const checks = [...busy(3), ...quiet(checksFor(AFTER_SPELLS.quietSeconds) * 5)];
    expect(run(checks)).toHaveLength(1);
  });

  it("collects again after the next busy spell", () => {
    const spell = [...busy(3), ...quiet(checksFor(AFTER_SPELLS.quietSeconds))];
    expect(run([...spell, ...spell])).toHaveLength(2);
  });

  it("does not collect when the spell left less than minGrowthMb over the memory after the last collection", () => {
    const rss = 120 + AFTER_SPELLS.minGrowthMb - 1;
    expect(run([...busy(3, rss), ...quiet(checksFor(AFTER_SPELLS.quietSeconds) * 2, rss)])).toEqual([]);
  });

  it("a service that was never busy is never collected (steady light traffic included)", () => {
    expect(run(Array.from({ length: 200 }, (_, i): [number, number] => [i % 2 === 0 ? 0.01 : 0.1, 200]))).toEqual([]);
  });
});
