/** Starts the server processes of a benchmark, and the database they serve. */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { createKey } from "../src/auth/key-service.ts";
import { openStore, type Store } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";

export const root = new URL("..", import.meta.url).pathname;

/** Builds what `npm start` runs (dist/ and its bundle, dist/bundle/), so a benchmark never measures a stale build. */
export function buildCompiled(): void {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, ["scripts/bundle-server.js"], { cwd: root, stdio: "inherit" });
}

/**
 * The node arguments `npm start` runs the compiled server with, read from package.json's `start`
 * script, so a benchmark measures the server as operators start it (its V8 flags included). The
 * script runs scripts/start.js, which compiles, bundles and then serves dist/bundle/cli.js; the benchmarks
 * have built already (buildCompiled), so they start the bundle itself.
 */
export function compiledServeArgs(): string[] {
  const start: string = JSON.parse(readFileSync(new URL("package.json", `file://${root}`), "utf8")).scripts.start;
  // scripts/start.js builds and then serves dist/bundle/cli.js; the benches build first (buildCompiled) and start the bundle directly.
  const command = /\bnode ((?:--\S+ )*)(?:dist\/src\/cli\.js|scripts\/start\.js) serve\b/.exec(start);
  if (!command) throw new Error(`package.json's start script does not run "node [flags] dist/src/cli.js serve" or "node [flags] scripts/start.js serve": ${start}`);
  return [...command[1]!.trim().split(" ").filter(Boolean), "dist/bundle/cli.js", "serve"];
}

/** Starts a server process and resolves with it once it prints its URL. */
export function startProcess(args: string[], env: NodeJS.ProcessEnv, urlPattern: RegExp): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = urlPattern.exec(out);
      if (match) resolve({ child, url: match[1]!, output: () => out });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`process exited with ${code}: ${out}`)));
  });
}

/**
 * The bare h3 route every ratio is taken against (bench/bare-server.ts); `postAnswer`: also a bare POST route answering
 * that JSON text; `getAnswer`: also `GET /bare-same-bytes`, answering that text with those headers.
 */
export function startBareRoute(postAnswer?: string, getAnswer?: { headers: Record<string, string>; body: string }): Promise<{ child: ChildProcess; url: string }> {
  return startProcess(
    ["--import", "tsx", "bench/bare-server.ts"],
    { ...(postAnswer !== undefined && { BARE_POST_ANSWER: postAnswer }), ...(getAnswer && { BARE_GET_ANSWER: JSON.stringify(getAnswer) }) },
    /"url":"([^"]+)"/,
  );
}

/** Upstream request counts the fake Census geocoder reports (bench/fake-geocoder-process.ts). */
export interface UpstreamCounts {
  url: string;
  requests: number;
  batch_requests: number;
  batch_rows: number;
}

/**
 * The FAKE UPSTREAM Census geocoder in its own process: `url` is what CENSUS_GEOCODER_URL points
 * at, `counts()` asks it how many requests it has had.
 */
export async function startFakeGeocoder(): Promise<{ child: ChildProcess; url: string; counts: () => Promise<UpstreamCounts> }> {
  const fake = await startProcess(["--import", "tsx", "bench/fake-geocoder-process.ts"], {}, /counts (http:\/\/\S+)/);
  const counts = async () => (await (await fetch(fake.url)).json()) as UpstreamCounts;
  return { child: fake.child, url: (await counts()).url, counts };
}

/**
 * Buckeye as `npm start` runs it (the compiled build, rebuilt first, with its V8 flags) on
 * `databaseUrl`, the rate limit raised out of the way of the load; `env` adds to its settings.
 */
export function startCompiledServer(databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  buildCompiled();
  return startProcess(
    compiledServeArgs(),
    { DATABASE_URL: databaseUrl, PORT: "0", RATE_LIMIT_PER_SECOND: "10000000", LOG_LEVEL: "warn", NODE_ENV: "production", ...env },
    /"url":"([^"]+)"/,
  );
}

/** The /metrics URL a server started with METRICS_PORT names in its "listening" line. */
export async function metricsUrlOf(server: { output: () => string }): Promise<string> {
  for (let waited = 0; waited <= 5000; waited += 50) {
    const url = /"metrics":"([^"]+)"/.exec(server.output())?.[1];
    if (url) return url;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the server started with METRICS_PORT did not say where its metrics are");
}

/** A scenario's `during` (bench/interleaved.ts): scrapes `metricsUrl` once a second while loaded, as Prometheus would. */
export function scrapingEverySecond(metricsUrl: string): () => () => void {
  return () => {
    const timer = setInterval(() => void fetch(metricsUrl).then((r) => r.text()), 1000);
    return () => clearInterval(timer);
  };
}

/** Resolves once the server at `url` answers /readyz with 200 (readiness warms the pool). */
export async function waitUntilReady(url: string): Promise<void> {
  while ((await fetch(`${url}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Resident memory in MB, whole and split as the kernel counts it: anonymous (heaps, malloc) and file-backed or shared (the node binary, libraries). */
/** The PostgreSQL the scale-out benches use: BENCH_POSTGRES_URL, else the one on loopback (a fresh schema each run). */
export const BENCH_POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export function rssMb(pid: number): { total: number; anonymous: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Number((Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024).toFixed(1));
  return { total: mb("VmRSS"), anonymous: mb("RssAnon"), file: mb("RssFile") + mb("RssShmem") };
}

/**
 * A fresh temporary folder and a migrated database holding one organization and a test key: SQLite in
 * that folder, or, given a postgres:// URL, a schema of its own in that database (`?schema=bench_<random>`),
 * which `drop` removes (for SQLite it does nothing: the file goes with the folder).
 */
export async function benchDatabase(prefix: string, postgresUrl?: string): Promise<{ dir: string; databaseUrl: string; store: Store; key: string; drop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let databaseUrl = `sqlite:${join(dir, "bench.sqlite")}`;
  let drop = async () => {};
  if (postgresUrl) {
    const url = new URL(postgresUrl);
    const schema = `bench_${randomBytes(6).toString("hex")}`;
    url.searchParams.set("schema", schema);
    databaseUrl = url.toString();
    drop = async () => {
      const admin = openStore(postgresUrl);
      try {
        await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(admin.db);
      } finally {
        await admin.close();
      }
    };
  }
  const store = openStore(databaseUrl);
  await migrateToLatest(store.db);
  const org = await createOrganization(store.db, "Benchmark");
  const { key } = await createKey(store.db, org.id, "benchmark", "test");
  return { dir, databaseUrl, store, key, drop };
}
