/**
 * Where a lookup's server CPU goes, two ways, in one run (`npm run bench` runs it;
 * alone: `node --import tsx bench/request-cpu.ts`). Writes bench/results-request-cpu.json.
 *
 * 1. End to end: the server's CPU time (user + system, from /proc/PID/stat) divided by the
 *    requests autocannon completed, for the bare h3 route, Buckeye's /healthz (h3 + request id +
 *    access log: the middleware every request pays), and county and ZIP rate lookups. The
 *    difference between /healthz and a lookup is the key check, the rate limit, the lookup and
 *    the serialisation together.
 * 2. In process, the parts of that difference one at a time, each in a loop of its own: the key
 *    check as `admitRequest` runs it (against a real SQLite store), the lookup (resolveLookup)
 *    and the serialisation (building the rate record and JSON.stringify).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createKeyCheck } from "../src/auth/key-check.ts";
import { loadShippedData } from "../src/load-data.ts";
import { resolveLookup } from "../src/lookup/resolve-lookup.ts";
import { recordContext, toRateRecord } from "../src/rates/records.ts";
import { measureMiddleware } from "./middleware-budget.ts";
import { benchDatabase, metricsUrlOf, root, startBareRoute, startCompiledServer } from "./start-process.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TICKS_PER_SECOND = 100;
const DATE = "2026-06-01";

/** CPU seconds the process has used so far (all its threads). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of stat; after the ") " split they are at 11 and 12.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function cpuPerRequest(pid: number, url: string, headers: Record<string, string>) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const before = cpuSeconds(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const cpu = cpuSeconds(pid) - before;
  const requests = result.requests.total;
  return { requests_per_second: Math.round(result.requests.average), cpu_us_per_request: Math.round((cpu / requests) * 1e7) / 10, non_2xx: result.non2xx };
}

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
const inProcess = {
  key_check_us: await perCall(async () => check.verdicts.check(key, await check.epoch())),
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
const endToEnd: Record<string, Awaited<ReturnType<typeof cpuPerRequest>>> = {};
try {
  for (const [name, pid, url, headers] of [
    ["bare h3 route", bare.child.pid!, `${bare.url}/bare`, {}],
    ["buckeye /healthz (middleware)", buckeye.child.pid!, `${buckeye.url}/healthz`, {}],
    ["rates by county", buckeye.child.pid!, `${buckeye.url}/api/v1/rates?county=franklin`, auth],
    ["rates by zip (unambiguous)", buckeye.child.pid!, `${buckeye.url}/api/v1/rates?zip=43215`, auth],
    ["rates by county, metrics on", measured.child.pid!, `${measured.url}/api/v1/rates?county=franklin`, auth],
  ] as const) {
    const scrapes = pid === measured.child.pid ? setInterval(() => void fetch(metricsUrl).then((r) => r.text()), 1000) : undefined;
    endToEnd[name] = await cpuPerRequest(pid, url, headers);
    clearInterval(scrapes);
    console.log(`${name.padEnd(32)} ${String(endToEnd[name].requests_per_second).padStart(7)} req/s  ${endToEnd[name].cpu_us_per_request} µs CPU per request`);
  }
} finally {
  bare.child.kill();
  buckeye.child.kill();
  measured.child.kill();
  rmSync(dir, { recursive: true, force: true });
}

const output = { measured_at: new Date().toISOString(), machine: { cores: availableParallelism(), node: process.version }, connections: CONNECTIONS, seconds: SECONDS, end_to_end: endToEnd, in_process_us: inProcess, middleware };
writeFileSync(join(root, "bench/results-request-cpu.json"), `${JSON.stringify(output, null, 2)}\n`);
console.log("written to bench/results-request-cpu.json");
