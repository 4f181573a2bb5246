/**
 * Gives the memory that starting the service took, and no longer needs, back to the system: one
 * memory-reducing collection (V8's "last resort" collection: full collections that also shrink the young
 * generation to its smallest and release the pages V8 keeps pooled), run once, when the started service has
 * finished its start-up work; and the same after each busy spell (`giveBackAfterBusySpells`, below).
 *
 * Why: starting allocates a great deal that lives briefly (the shipped tables parsed, the app and its
 * schemas built, the polygon index read, the reference page's assets compressed), and V8 answers that by
 * growing the young generation to its ceiling (npm start's `--max-semi-space-size=4`: 8 MB of
 * semi-spaces, every page touched) and keeping it, though a ready, idle service holds well under 1 MB
 * there. V8 does not shrink it of its own accord while the process idles (measured: unchanged after 40 s),
 * so a service that has started and waits for its first request held memory it did not use (about 17 MB with 8 MB semi-spaces)
 * (docs/operations/benchmarks.md, "Memory given back after start-up"). Under load the young generation
 * grows back to its ceiling as it should, so throughput does not pay for this; the collection itself
 * takes 40–60 ms, once, before the service has had any traffic to speak of.
 *
 * V8 offers the collection to scripts only through `gc`, which a process has when started with
 * `--expose-gc`; the service takes the function once (`--expose-gc` set for a moment and unset again,
 * so no other code sees a global `gc`). Where the runtime does not offer it (Deno), nothing is done.
 */
import { setFlagsFromString } from "node:v8";
import { performance } from "node:perf_hooks";
import { runInNewContext } from "node:vm";

type Collect = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

let collect: Collect | null | undefined;

function collector(): Collect | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as Collect;
  } catch {
    collect = null;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  return collect;
}

export interface GivenBack {
  rss_before_mb: number;
  rss_after_mb: number;
  took_ms: number;
}

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

/** One memory-reducing collection, with the resident memory before and after it; null where the runtime offers none. */
export function giveBackMemory(): GivenBack | null {
  const run = collector();
  if (!run) return null;
  const before = process.memoryUsage.rss();
  const started = performance.now();
  run({ type: "major", execution: "sync", flavor: "last-resort" });
  return { rss_before_mb: mb(before), rss_after_mb: mb(process.memoryUsage.rss()), took_ms: Math.round(performance.now() - started) };
}

/**
 * When a heavy spell of work has left memory behind, gives it back once the process has been quiet a while.
 *
 * Why: under load V8 grows the young generation to its ceiling and lets the old one grow by garbage that
 * outlived a scavenge. Once the load stops, its own memory reducer collects, but the pages it frees stay
 * in V8's page pool, and the process keeps them: measured after the bench's county and ZIP load, 141–151 MB
 * resident, unchanged 12 s later, and 122–131 MB once one memory-reducing collection ran
 * (docs/operations/benchmarks.md, "Memory given back after a load"). A service that answers a burst and then
 * waits held the burst's memory until the next one.
 *
 * The rule, decided here without timers or a process so it is tested as it is (test/give-back-memory.test.ts):
 * a spell is busy once the event loop was busier than `busyUtilization` over a check; the collection runs
 * when a busy spell has been followed by `quietSeconds` of checks all under `quietUtilization`, and the
 * resident memory is at least `minGrowthMb` over what it was after the last collection. Then once, until
 * the next busy spell. A collection takes 60–85 ms, during which a request that arrives waits: that happens at
 * most once per busy spell, and only after 10 s in which the loop was busy under 0.5 % of the time (about 140
 * county lookups a second at most; a busy spell is 20 %, several thousand a second).
 */
export interface AfterSpellsRule {
  checkSeconds: number;
  busyUtilization: number;
  quietUtilization: number;
  quietSeconds: number;
  minGrowthMb: number;
}

export const AFTER_SPELLS: AfterSpellsRule = { checkSeconds: 2, busyUtilization: 0.2, quietUtilization: 0.005, quietSeconds: 10, minGrowthMb: 8 };

export interface SpellState {
  busy: boolean;
  quietSeconds: number;
  /** Resident memory after the last collection (or at the first check), MB. */
  baselineMb: number;
}

/** One check: the event loop's utilization since the last check and the resident memory now. */
export function afterCheck(rule: AfterSpellsRule, state: SpellState, utilization: number, rssMb: number): { state: SpellState; collect: boolean } {
  if (utilization >= rule.busyUtilization) return { state: { ...state, busy: true, quietSeconds: 0 }, collect: false };
  const quietSeconds = utilization < rule.quietUtilization ? state.quietSeconds + rule.checkSeconds : 0;
  const collect = state.busy && quietSeconds >= rule.quietSeconds && rssMb - state.baselineMb >= rule.minGrowthMb;
  // A busy spell that left nothing worth a collection is over once it has been quiet as long.
  const over = collect || (state.busy && quietSeconds >= rule.quietSeconds);
  return { state: { busy: state.busy && !over, quietSeconds, baselineMb: state.baselineMb }, collect };
}

/**
 * Checks every `rule.checkSeconds` (an unreferenced timer: it never keeps the process alive) and gives
 * memory back after busy spells; `onGiven` hears of each collection. Returns the function that stops it.
 */
export function giveBackAfterBusySpells(onGiven: (given: GivenBack) => void, rule: AfterSpellsRule = AFTER_SPELLS): () => void {
  if (!collector()) return () => {};
  let state: SpellState = { busy: false, quietSeconds: 0, baselineMb: mb(process.memoryUsage.rss()) };
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const step = afterCheck(rule, state, performance.eventLoopUtilization(now, last).utilization, mb(process.memoryUsage.rss()));
    last = now;
    state = step.state;
    if (!step.collect) return;
    const given = giveBackMemory()!;
    state = { ...state, baselineMb: given.rss_after_mb };
    // The collection's own time is not the service's work.
    last = performance.eventLoopUtilization();
    onGiven(given);
  }, rule.checkSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
