/**
 * Gives the memory that starting the service took, and no longer needs, back to the system: one
 * memory-reducing collection (V8's "last resort" collection: full collections that also shrink the young
 * generation to its smallest), run once, when the started service has finished its start-up work.
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
