/**
 * Scenarios measured in short interleaved slices, each scenario in turn, round after round.
 *
 * Why: this virtual machine's own speed drifts by as much as half between minutes with nothing else
 * running (docs/operations/benchmarks.md, "The request path in alternating rounds"), and the CPU it
 * reports per request drifts with it. A figure taken ten seconds long and minutes after the one it is
 * held against compares the machine with itself. Slices of a few seconds, every scenario once per
 * round and the order reversed every other round (so that no scenario always runs just after the same
 * one), put the two sides of each comparison within seconds of each other; a ratio is then taken inside
 * each round and the median of the rounds is the figure.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { median } from "./median.ts";

export interface Scenario {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** Paths on `url`'s server asked in turn, one per request (many distinct addresses); without them every request asks `url`. */
  paths?: string[];
  /** Processes whose CPU to count per answered request, by label (the server's own, Redis, PostgreSQL). */
  cpuOf?: Record<string, number[]>;
  /** Started as the scenario's slice starts; what it returns is called as the slice ends (a metrics scraper). */
  during?: () => () => void;
}

export interface Slice {
  requests_per_second: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
  /** CPU time per answered request, µs, by the labels of `cpuOf`. */
  cpu_us_per_request: Record<string, number>;
}

export interface InterleavedOptions {
  rounds: number;
  sliceSeconds: number;
  connections: number;
  /** Seconds of load on each scenario before the first round (JIT, caches, connection pools). */
  warmUpSeconds?: number;
  log?: (line: string) => void;
}

const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by the processes that are still there (all their threads). */
export function cpuSeconds(pids: number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      // utime and stime are fields 14 and 15 of stat; after the ") " split they are at 11 and 12.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      used.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // A process that ended (a PostgreSQL backend) took its CPU with it.
    }
  }
  return used;
}

/** CPU seconds used between two readings by the processes present at both. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, then] of before) {
    const now = after.get(pid);
    if (now !== undefined) seconds += now - then;
  }
  return seconds;
}

/** autocannon's options for a scenario: its URL, or its paths in turn. */
function loadOf(scenario: Scenario, connections: number, duration: number): autocannon.Options {
  const options: autocannon.Options = { url: scenario.url, connections, duration, headers: scenario.headers ?? {} };
  const paths = scenario.paths;
  if (paths === undefined || paths.length === 0) return options;
  let next = 0;
  return { ...options, requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }] };
}

async function slice(scenario: Scenario, connections: number, seconds: number): Promise<Slice> {
  const labels = Object.entries(scenario.cpuOf ?? {});
  const before = labels.map(([, pids]) => cpuSeconds(pids));
  const stop = scenario.during?.();
  const result = await autocannon(loadOf(scenario, connections, seconds));
  stop?.();
  const answered = Math.max(1, result.requests.total);
  const cpu: Record<string, number> = {};
  labels.forEach(([label, pids], i) => {
    cpu[label] = Math.round((cpuBetween(before[i]!, cpuSeconds(pids)) / answered) * 1e7) / 10;
  });
  return { requests_per_second: Math.round(result.requests.average), p99_ms: result.latency.p99, non_2xx: result.non2xx, errors: result.errors, cpu_us_per_request: cpu };
}

/** Every scenario's slices, one per round, in round order. */
export async function measureInterleaved(scenarios: Scenario[], options: InterleavedOptions): Promise<Record<string, Slice[]>> {
  const log = options.log ?? (() => {});
  for (const scenario of scenarios) {
    await autocannon(loadOf(scenario, options.connections, options.warmUpSeconds ?? 2));
  }
  const slices: Record<string, Slice[]> = Object.fromEntries(scenarios.map((s) => [s.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? scenarios : [...scenarios].reverse();
    for (const scenario of order) {
      const measured = await slice(scenario, options.connections, options.sliceSeconds);
      slices[scenario.name]!.push(measured);
      const cpu = Object.entries(measured.cpu_us_per_request).map(([label, us]) => `${label} ${us} µs`);
      log(
        `round ${round + 1}: ${scenario.name.padEnd(40)} ${String(measured.requests_per_second).padStart(7)} req/s  p99 ${measured.p99_ms} ms` +
          (cpu.length > 0 ? `  CPU per request: ${cpu.join(", ")}` : "") +
          (measured.non_2xx > 0 ? `  non-2xx ${measured.non_2xx}` : ""),
      );
    }
  }
  return slices;
}

/** A figure of `name` over the same figure of `reference` inside each round, and the median of those ratios. */
export function ratioByRound(slices: Record<string, Slice[]>, name: string, reference: string, figure: (slice: Slice) => number): { median: number; by_round: number[] } {
  const byRound = slices[name]!.map((slice, round) => Number((figure(slice) / figure(slices[reference]![round]!)).toFixed(3)));
  return { median: median(byRound), by_round: byRound };
}

/** A scenario's slices summed up: medians of the per-slice figures, totals of its failures. */
export function summary(slices: Slice[]): Slice {
  const labels = Object.keys(slices[0]?.cpu_us_per_request ?? {});
  return {
    requests_per_second: median(slices.map((s) => s.requests_per_second)),
    p99_ms: median(slices.map((s) => s.p99_ms)),
    non_2xx: slices.reduce((sum, s) => sum + s.non_2xx, 0),
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    cpu_us_per_request: Object.fromEntries(labels.map((label) => [label, median(slices.map((s) => s.cpu_us_per_request[label]!))])),
  };
}
