/**
 * Address and batch benchmark (`node --import tsx bench/geo.ts`; `npm run bench` runs it too).
 * Writes bench/results-geo.json.
 *
 * 1. 100,000 lat/lon points through the lookup service's batch lane (target < 2 s on 2 cores).
 * 2. A 10,000-address asynchronous job, POSTed to a running server whose geocoder is the FAKE
 *    UPSTREAM with zero latency (target < 5 s from upload to completed).
 * 3. Single address lookups under load with autocannon, cached and uncached (target p99 < 10 ms).
 *
 * The server and the fake upstream run as separate processes, so autocannon, the service and
 * the upstream do not share an event loop.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createKey } from "../src/auth/key-service.ts";
import { loadConfig } from "../src/config.ts";
import { loadShippedData } from "../src/load-data.ts";
import { LookupService } from "../src/lookup/lookup-service.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { root, startFakeGeocoder, startProcess, waitUntilReady } from "./start-process.ts";

const POINTS = 100_000;
const JOB_ROWS = 10_000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

/** Seeded points over Ohio's bounding box (a few fall just outside the state and answer 422). */
function points(count: number): Array<{ lat: number; lon: number }> {
  let state = 2026;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return Array.from({ length: count }, () => ({ lat: 38.45 + random() * 3.5, lon: -84.8 + random() * 4.2 }));
}

async function latLonPoints() {
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
  const shipped = loadShippedData(config.dataDir);
  const lookups = new LookupService({
    config,
    databaseUrl: null,
    rates: () => ({ ...shipped, overlay: { key: "shipped", periods: [] } }),
    shipped,
    boundaries: null,
    now: () => new Date(),
    log: (entry) => process.stderr.write(`${JSON.stringify(entry)}\n`),
  });
  try {
    const warmStarted = performance.now();
    await lookups.pool.warm();
    const warmMs = performance.now() - warmStarted;
    const chunkRows = 2000;
    const all = points(POINTS);
    const chunks: string[] = [];
    for (let i = 0; i < all.length; i += chunkRows) chunks.push(JSON.stringify(all.slice(i, i + chunkRows).map((p) => ({ ...p, date: "2026-06-01" }))));
    const context = { lastReconciled: "2026-08-18", confirmedThrough: "2026-09-30", requestId: "req_bench" };
    const started = performance.now();
    let next = 0;
    let answered = 0;
    let outside = 0;
    const loop = async () => {
      while (next < chunks.length) {
        const seq = next++;
        const [chunk] = await lookups.rowsOf([{ input: chunks[seq]!, firstRow: seq * chunkRows + 1, today: "2026-06-01", context }]);
        answered += chunk!.done;
        outside += chunk!.failed;
      }
    };
    await Promise.all(Array.from({ length: config.batchThreads + 1 }, loop));
    const seconds = (performance.now() - started) / 1000;
    return { points: answered, outside_ohio: outside, seconds: round(seconds), points_per_second: Math.round(answered / seconds), batch_threads: config.batchThreads, pool_warm_up_seconds: round(warmMs / 1000), target_seconds: 2 };
  } finally {
    await lookups.close();
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-bench-geo-"));
  const databaseUrl = `sqlite:${join(dir, "bench.sqlite")}`;
  const store = openStore(databaseUrl);
  await migrateToLatest(store.db);
  const org = await createOrganization(store.db, "Bench");
  const key = (await createKey(store.db, org.id, "bench", "live")).key;
  await store.close();

  const children: ChildProcess[] = [];
  const results: Record<string, unknown> = { machine: { cores: availableParallelism(), node: process.version } };
  try {
    results.lat_lon_points = await latLonPoints();
    console.log("lat/lon points", results.lat_lon_points);

    const fake = await startFakeGeocoder();
    children.push(fake.child);
    const server = await startProcess(["bin/buckeye.js", "serve"], {
      PORT: "0", DATABASE_URL: databaseUrl, CENSUS_GEOCODER_URL: fake.url, RATE_LIMIT_PER_SECOND: "1000000", LOG_LEVEL: "info", GEOCODER_CONCURRENCY: "32", BATCH_POLL_MS: "50",
    }, /"url":"(http:\/\/[^"]+)"/);
    children.push(server.child);
    const auth = { authorization: `Bearer ${key}` };
    // Readiness warms the pool: the figures below are for a warm service.
    await waitUntilReady(server.url);

    const ndjson = Array.from({ length: JOB_ROWS }, (_, i) => JSON.stringify({ id: `r${i}`, address: `${i + 1} Bench St, Columbus, OH 43215`, date: "2026-06-01" })).join("\n");
    const jobStarted = performance.now();
    const submitted = await fetch(`${server.url}/api/v1/batches`, { method: "POST", headers: { ...auth, "content-type": "application/x-ndjson" }, body: ndjson });
    const location = submitted.headers.get("location")!;
    let job: Record<string, unknown>;
    for (;;) {
      job = (await (await fetch(`${server.url}${location}`, { headers: auth })).json()) as Record<string, unknown>;
      if (job.status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const jobSeconds = (performance.now() - jobStarted) / 1000;
    results.address_job = { rows: job.total, done: job.done, failed: job.failed, seconds: round(jobSeconds), rows_per_second: Math.round(JOB_ROWS / jobSeconds), geocoder_concurrency: 32, target_seconds: 5 };
    console.log("address job", results.address_job);

    const single = async (distinct: boolean) => {
      let n = 0;
      const result = await autocannon({
        url: server.url,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: auth,
        requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: `/api/v1/rates?address=${encodeURIComponent(`${distinct ? 50_000 + n++ : 7} Bench St, Columbus, OH 43215`)}` }) }],
      });
      return { requests_per_second: Math.round(result.requests.average), p50_ms: result.latency.p50, p99_ms: result.latency.p99, non_2xx: result.non2xx, errors: result.errors, connections: CONNECTIONS, seconds: SECONDS, target_p99_ms: 10 };
    };
    await autocannon({ url: `${server.url}/api/v1/rates?address=1%20Bench%20St%2C%20Columbus%2C%20OH%2043215`, connections: CONNECTIONS, duration: 1, headers: auth });
    results.single_address_cached = await single(false);
    console.log("single address, cached", results.single_address_cached);
    results.single_address_uncached = await single(true);
    console.log("single address, every one geocoded", results.single_address_uncached);
  } finally {
    for (const child of children) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
  writeFileSync(join(root, "bench/results-geo.json"), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
