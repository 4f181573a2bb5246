/**
 * Where a lookup's server CPU goes, two ways, in one run (`npm run bench` runs it;
 * alone: `node --import tsx bench/request-cpu.ts`). Writes bench/results-request-cpu.json.
 *
 * 1. End to end: the server's CPU time (user + system, from /proc/PID/stat) divided by the
 *    requests autocannon completed, in short interleaved slices (bench/interleaved.ts; medians of the
 *    rounds, and the county lookup's CPU over the bare route's taken inside each round), for the bare h3 route, Buckeye's /healthz (h3 + request id +
 *    access log: the middleware every request pays), and county and ZIP rate lookups. The
 *    difference between /healthz and a lookup is the key check, the rate limit, the lookup and
 *    the serialisation together.
 * 2. In process, the parts of that difference one at a time, each in a loop of its own: the key
 *    check as `admitRequest` runs it (against a real SQLite store; alone in its turn, and one of a turn of 40
 *    requests, as under load), the lookup (resolveLookup)
 *    and the serialisation (building the rate record and JSON.stringify).
 */
import { rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createKeyCheck } from "../src/auth/key-check.ts";
import { loadShippedData } from "../src/load-data.ts";
import { resolveLookup } from "../src/lookup/resolve-lookup.ts";
import { recordContext, toRateRecord } from "../src/rates/records.ts";
import { measureInterleaved, ratioByRound, summary, type Scenario } from "./interleaved.ts";
import { measureMiddleware } from "./middleware-budget.ts";
import { benchDatabase, metricsUrlOf, root, scrapingEverySecond, startBareRoute, startCompiledServer } from "./start-process.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_CORE_ROUNDS ?? 9);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 3);
const DATE = "2026-06-01";

/** Microseconds per call of `work`, after a warm-up, over at least a second. */
async function perCall(work: () => unknown): Promise<number> {
  for (let i = 0; i < 20_000; i++) await work();
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < 1000) {
    for (let i = 0; i < 1000; i++) await work();
    calls += 1000;
  }
  return Math.round(((performance.now() - started) * 1000 * 100) / calls) / 100;
}

const { dir, databaseUrl, store, key } = await benchDatabase("buckeye-bench-cpu-");

const data = loadShippedData(join(root, "data"));
const check = createKeyCheck(store);
const freshness = { lastReconciled: DATE, confirmedThrough: DATE };
const resolution = resolveLookup(data.table, data.zips, { county: "franklin", date: DATE });
if (resolution.kind !== "rate") throw new Error("franklin does not resolve");
/**
 * A key check as `admitRequest` makes it: one epoch read answers every request of an event-loop turn (src/per-turn.ts),
 * so what a check costs depends on how many share the turn. Alone in its turn it pays a whole loop turn and the read;
 * under the bench's load a turn carries about 40 requests (one `epoll_wait` at 50 connections).
 */
function keyChecksPerTurn(requests: number): () => Promise<unknown> {
  return () => Promise.all(Array.from({ length: requests }, async () => check.verdicts.check(key, await check.epoch())));
}
const TURN_UNDER_LOAD = 40;
const inProcess = {
  key_check_alone_in_its_turn_us: await perCall(keyChecksPerTurn(1)),
  [`key_check_in_a_turn_of_${TURN_UNDER_LOAD}_us`]: Math.round((await perCall(keyChecksPerTurn(TURN_UNDER_LOAD))) * 100 / TURN_UNDER_LOAD) / 100,
  lookup_us: await perCall(() => resolveLookup(data.table, data.zips, { county: "franklin", date: DATE })),
  serialisation_us: await perCall(() => JSON.stringify(toRateRecord(resolution.rate, resolution.resolvedBy, recordContext(freshness, "req_0123456789")))),
};
console.log("in process, per call:", inProcess);
const middleware = measureMiddleware();
for (const m of middleware) console.log(`  ${m.piece.padEnd(72)} ${String(m.us).padStart(6)} µs (budget ${m.budget_us})`);
check.close();
await store.close();

const bare = await startBareRoute();
const buckeye = await startCompiledServer(databaseUrl);
// The same build with the metrics listener on, scraped once a second during its load as Prometheus would.
const measured = await startCompiledServer(databaseUrl, { METRICS_PORT: "0" });
const metricsUrl = await metricsUrlOf(measured);
const auth = { authorization: `Bearer ${key}` };
const endToEnd: Record<string, { requests_per_second: number; cpu_us_per_request: number; cpu_us_by_round: number[]; non_2xx: number }> = {};
let countyOverBare: { median: number; by_round: number[] };
try {
  const scenarios: Scenario[] = (
    [
      ["bare h3 route", bare.child.pid!, `${bare.url}/bare`, {}],
      ["buckeye /healthz (middleware)", buckeye.child.pid!, `${buckeye.url}/healthz`, {}],
      ["rates by county", buckeye.child.pid!, `${buckeye.url}/api/v1/rates?county=franklin`, auth],
      ["rates by zip (unambiguous)", buckeye.child.pid!, `${buckeye.url}/api/v1/rates?zip=43215`, auth],
      ["rates by county, metrics on", measured.child.pid!, `${measured.url}/api/v1/rates?county=franklin`, auth],
    ] as const
  ).map(([name, pid, url, headers]) => ({
    name,
    url,
    headers,
    cpuOf: { server: [pid] },
    during: pid === measured.child.pid ? scrapingEverySecond(metricsUrl) : undefined,
  }));
  const slices = await measureInterleaved(scenarios, { rounds: ROUNDS, sliceSeconds: SLICE_SECONDS, connections: CONNECTIONS, log: console.log });
  for (const { name } of scenarios) {
    const figures = summary(slices[name]!);
    endToEnd[name] = {
      requests_per_second: figures.requests_per_second,
      cpu_us_per_request: figures.cpu_us_per_request.server!,
      cpu_us_by_round: slices[name]!.map((slice) => slice.cpu_us_per_request.server!),
      non_2xx: figures.non_2xx,
    };
    console.log(`${name.padEnd(32)} ${String(figures.requests_per_second).padStart(7)} req/s  ${figures.cpu_us_per_request.server} µs CPU per request (median of ${ROUNDS} rounds)`);
  }
  countyOverBare = ratioByRound(slices, "rates by county", "bare h3 route", (slice) => slice.cpu_us_per_request.server!);
  console.log(`CPU per county request over the bare route's: ${countyOverBare.median}× (rounds ${countyOverBare.by_round.join(", ")})`);
} finally {
  bare.child.kill();
  buckeye.child.kill();
  measured.child.kill();
  rmSync(dir, { recursive: true, force: true });
}

const output = { measured_at: new Date().toISOString(), machine: { cores: availableParallelism(), node: process.version }, connections: CONNECTIONS, rounds: ROUNDS, slice_seconds: SLICE_SECONDS, end_to_end: endToEnd, cpu_ratio_county_to_bare: countyOverBare, in_process_us: inProcess, middleware };
writeFileSync(join(root, "bench/results-request-cpu.json"), `${JSON.stringify(output, null, 2)}\n`);
console.log("written to bench/results-request-cpu.json");
