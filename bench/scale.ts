/**
 * Scale-out cost, measured in one run: county rate lookups (GET /api/v1/rates?county=franklin)
 * against the compiled server as `npm start` runs it, on the embedded default (SQLite, in-memory rate limits) and against the
 * scale-out set-up (PostgreSQL, rate limits in Redis), one instance each, then two PostgreSQL +
 * Redis instances sharing the load. Each figure is requests per second from autocannon on
 * loopback; the one-instance ratios are to SQLite, both servers loaded in BENCH_SCALE_ROUNDS (9) rounds of
 * BENCH_SLICE_SECONDS (3 s) interleaved slices (bench/interleaved.ts) and reported as the median of each round's
 * ratio, of throughput and of the server's own CPU per request. Every request checks its key's cached verdict against
 * the key epoch and takes a token from its bucket, which is where the set-ups differ (SQLite: the WAL-index header and
 * an in-process bucket; Redis: a GET of the epoch and one script call for the turn's buckets, sent in the same turn).
 * Run on its own:
 *
 *   node --import tsx bench/scale.ts
 *
 * Needs PostgreSQL (BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test; a fresh
 * schema is made and dropped) and Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379; a key
 * prefix of this run's own). BENCH_CONNECTIONS (50) as in bench/run.ts; BENCH_SECONDS (10) for the two-instance run.
 * Figures go to bench/results-scale.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { createKey } from "../src/auth/key-service.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { BENCH_POSTGRES_URL, buildCompiled, compiledServeArgs, root } from "./start-process.ts";
import { cpuBetween, cpuSeconds, measureInterleaved, ratioByRound, type Slice } from "./interleaved.ts";
import { median } from "./median.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 9);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 3);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_SCALE_ROUNDS must be a whole number of at least 1, not ${process.env.BENCH_SCALE_ROUNDS}`);
const POSTGRES = BENCH_POSTGRES_URL;
const REDIS = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const PATH = "/api/v1/rates?county=franklin";

interface Figures {
  requests_per_second: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
  /** CPU time per answered request (user + system, from /proc/PID/stat over the measured span) of the instances, and of Redis and PostgreSQL where they served it. */
  cpu_us_per_request: { server: number; redis: number | null; postgres: number | null };
}

/** The pids of the processes whose command line starts with `name` (redis-server, postgres): this machine's own services. */
function pidsOf(name: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!.split("/").pop()!.startsWith(name);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A database with one organization and a key, ready for `serve`. */
async function prepare(databaseUrl: string): Promise<string> {
  const store = openStore(databaseUrl);
  try {
    await migrateToLatest(store.db);
    const org = await createOrganization(store.db, "Scale benchmark");
    return (await createKey(store.db, org.id, "scale benchmark", "test")).key;
  } finally {
    await store.close();
  }
}

function serve(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, compiledServeArgs(), {
    cwd: root,
    env: { ...process.env, PORT: "0", RATE_LIMIT_PER_SECOND: "10000000", LOG_LEVEL: "warn", NODE_ENV: "production", WORKER_THREADS: "1", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      out += chunk;
      const match = /"url":"([^"]+)"/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

async function load(urls: string[], key: string, pids: { server: number[]; redis: number[]; postgres: number[] }): Promise<Figures> {
  const headers = { authorization: `Bearer ${key}` };
  const connections = Math.max(1, Math.round(CONNECTIONS / urls.length));
  await Promise.all(urls.map((url) => autocannon({ url: `${url}${PATH}`, connections, duration: 2, headers })));
  const before = { server: cpuSeconds(pids.server), redis: cpuSeconds(pids.redis), postgres: cpuSeconds(pids.postgres) };
  const results = await Promise.all(urls.map((url) => autocannon({ url: `${url}${PATH}`, connections, duration: DURATION, headers })));
  const answered = results.reduce((sum, r) => sum + r.requests.total, 0);
  const perRequest = (seconds: number) => Math.round((seconds / answered) * 1e7) / 10;
  return {
    cpu_us_per_request: {
      server: perRequest(cpuBetween(before.server, cpuSeconds(pids.server))),
      redis: pids.redis.length > 0 ? perRequest(cpuBetween(before.redis, cpuSeconds(pids.redis))) : null,
      postgres: pids.postgres.length > 0 ? perRequest(cpuBetween(before.postgres, cpuSeconds(pids.postgres))) : null,
    },
    requests_per_second: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    p99_ms: Math.max(...results.map((r) => r.latency.p99)),
    non_2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

async function measure(name: string, instances: Array<Record<string, string>>, key: string): Promise<Figures> {
  const servers = await Promise.all(instances.map((env) => serve(env)));
  try {
    const usesRedis = instances.some((env) => env.REDIS_URL !== undefined);
    const usesPostgres = instances.some((env) => env.DATABASE_URL?.startsWith("postgres"));
    const figures = await load(
      servers.map((s) => s.url),
      key,
      { server: servers.map((s) => s.child.pid!), redis: usesRedis ? pidsOf("redis-server") : [], postgres: usesPostgres ? pidsOf("postgres") : [] },
    );
    const cpu = figures.cpu_us_per_request;
    console.log(
      `${name.padEnd(44)} ${String(figures.requests_per_second).padStart(7)} req/s  p99 ${figures.p99_ms} ms  non-2xx ${figures.non_2xx}  ` +
        `CPU per request: server ${cpu.server} µs${cpu.redis === null ? "" : `, redis ${cpu.redis} µs`}${cpu.postgres === null ? "" : `, postgres ${cpu.postgres} µs`}`,
    );
    return figures;
  } finally {
    // Wait for each to exit: a stopping instance still flushes its usage counts, and would both
    // take CPU from the next scenario and hold locks the final DROP SCHEMA needs.
    await Promise.all(servers.map((s) => new Promise((resolve) => s.child.once("exit", resolve).kill())));
  }
}

const dir = mkdtempSync(join(tmpdir(), "buckeye-bench-scale-"));
const sqliteUrl = `sqlite:${join(dir, "bench.sqlite")}`;
const schema = `bench_${randomBytes(6).toString("hex")}`;
const postgresUrl = `${POSTGRES}${POSTGRES.includes("?") ? "&" : "?"}schema=${schema}`;
const redis = { REDIS_URL: REDIS, REDIS_KEY_PREFIX: `buckeye-bench:${randomBytes(6).toString("hex")}:` };

buildCompiled();
try {
  const sqliteKey = await prepare(sqliteUrl);
  const postgresKey = await prepare(postgresUrl);
  // SQLite and PostgreSQL + Redis, one instance each, both started and then loaded in short interleaved slices
  // (bench/interleaved.ts), each round's ratio taken from its own pair: this machine's speed drifts by half between
  // minutes, and 10 s runs a minute apart made the ratio anything from 0.74 to 1.02.
  const sqliteServer = await serve({ DATABASE_URL: sqliteUrl });
  const postgresServer = await serve({ DATABASE_URL: postgresUrl, ...redis });
  let rounds: Array<{ sqlite: Slice; postgres_redis: Slice; ratio: number; server_cpu_ratio: number }>;
  try {
    // A first load opens the server's PostgreSQL connections, so the backends serving it are there to be counted.
    await autocannon({ url: `${postgresServer.url}${PATH}`, connections: CONNECTIONS, duration: 1, headers: { authorization: `Bearer ${postgresKey}` } });
    const slices = await measureInterleaved(
      [
        { name: "sqlite", url: `${sqliteServer.url}${PATH}`, headers: { authorization: `Bearer ${sqliteKey}` }, cpuOf: { server: [sqliteServer.child.pid!] } },
        {
          name: "postgres + redis",
          url: `${postgresServer.url}${PATH}`,
          headers: { authorization: `Bearer ${postgresKey}` },
          cpuOf: { server: [postgresServer.child.pid!], redis: pidsOf("redis-server"), postgres: pidsOf("postgres") },
        },
      ],
      { rounds: ROUNDS, sliceSeconds: SLICE_SECONDS, connections: CONNECTIONS, log: console.log },
    );
    const throughput = ratioByRound(slices, "postgres + redis", "sqlite", (slice) => slice.requests_per_second);
    const serverCpu = ratioByRound(slices, "postgres + redis", "sqlite", (slice) => slice.cpu_us_per_request.server!);
    rounds = slices.sqlite!.map((sqlite, i) => ({ sqlite, postgres_redis: slices["postgres + redis"]![i]!, ratio: throughput.by_round[i]!, server_cpu_ratio: serverCpu.by_round[i]! }));
  } finally {
    await Promise.all([sqliteServer, postgresServer].map((s) => new Promise((resolve) => s.child.once("exit", resolve).kill())));
  }
  const twoInstances = await measure(
    "postgres + redis, 2 instances",
    [
      { DATABASE_URL: postgresUrl, ...redis },
      { DATABASE_URL: postgresUrl, ...redis },
    ],
    postgresKey,
  );
  const sqliteMedian = median(rounds.map((r) => r.sqlite.requests_per_second));
  const output = {
    measured_at: new Date().toISOString(),
    machine: { cores: cpus().length, node: process.version },
    path: PATH,
    connections: CONNECTIONS,
    seconds: DURATION,
    slice_seconds: SLICE_SECONDS,
    rounds,
    two_instances: twoInstances,
    ratio_postgres_redis_to_sqlite: Number(median(rounds.map((r) => r.ratio)).toFixed(3)),
    ratio_two_instances_to_sqlite: Number((twoInstances.requests_per_second / sqliteMedian).toFixed(3)),
    // The server's own CPU per county request on PostgreSQL + Redis over SQLite's (median of each round's ratio), and
    // Redis's and PostgreSQL's CPU per request: what two shared cores can judge where throughput cannot.
    server_cpu_ratio_postgres_redis_to_sqlite: Number(median(rounds.map((r) => r.server_cpu_ratio)).toFixed(3)),
    redis_cpu_us_per_request: median(rounds.map((r) => r.postgres_redis.cpu_us_per_request.redis ?? 0)),
    postgres_cpu_us_per_request: median(rounds.map((r) => r.postgres_redis.cpu_us_per_request.postgres ?? 0)),
  };
  console.log(
    `ratio postgres + redis / sqlite: ${output.ratio_postgres_redis_to_sqlite} (median of rounds ${rounds.map((r) => r.ratio).join(", ")}); ` +
      `two instances / sqlite: ${output.ratio_two_instances_to_sqlite}; server CPU per request, postgres + redis / sqlite: ${output.server_cpu_ratio_postgres_redis_to_sqlite}; redis ${output.redis_cpu_us_per_request} µs, postgres ${output.postgres_cpu_us_per_request} µs per request`,
  );
  writeFileSync(join(root, "bench/results-scale.json"), `${JSON.stringify(output, null, 2)}\n`);
  console.log("written to bench/results-scale.json");
} finally {
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
