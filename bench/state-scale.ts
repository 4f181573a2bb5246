/**
 * The jobs bench at the state's size (`node --import tsx bench/state-scale.ts`; `npm run bench` runs
 * it too): a SYNTHETIC boundary file of 2,000,000 records laid out as the state's is
 * (src/boundaries/synthetic-file.ts `streets: "many"`: about 1,400 records and a hundred or more
 * made-up street names per ZIP), imported with the compiled CLI in its own process, then one
 * 100,000-address job, and a second one, sent to the compiled server. The addresses are spread over the
 * whole file and typed as customers type them, the file's own city and ZIP after the street
 * ("110 S WINVILBAR AVE, Franklin Synthetic, OH 43215"); each is resolved by its own record, so no
 * upstream call is made (the FAKE UPSTREAM geocoder is there to be sure).
 *
 * Measured: the import's time (its phases) and CPU (the child's user + system time), each job's time
 * from upload to `completed_at` and the server's CPU over it (every thread's), and how the rows were
 * resolved. The first job also reads the version's streets (the street index); the second finds them
 * read. CPU time is the steadier figure on a shared machine: other work stretches the wall time, not
 * the CPU a process spends.
 *
 * BENCH_BOUNDARY_RECORDS (2,000,000); BENCH_DATABASE_URL picks PostgreSQL (a fresh schema); a
 * BENCH_BOUNDARY_FILE named OHB…-synthetic.csv is imported instead of one generated here (the same
 * file for a before and an after run). Writes bench/results-state-scale.json.
 */
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import type { ImportResult } from "../src/boundaries/import-file.ts";
import { writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import { DATA_DIR, jobFile, spreadAddresses, submitJob, waitForJob, type JobView } from "./boundary-jobs.ts";
import { benchDatabase, buildCompiled, root, startCompiledServer, startFakeGeocoder, waitUntilReady } from "./start-process.ts";

const RECORDS = Number(process.env.BENCH_BOUNDARY_RECORDS ?? 2_000_000);
const JOB_ROWS = 100_000;
const TARGET_JOB_SECONDS = 10;
const TARGET_IMPORT_SECONDS = 60;
const round = (n: number) => Math.round(n * 1000) / 1000;

/** User + system seconds a process has spent, all its threads (/proc/PID/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number | "self"): { own: number; children: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // After the command's name: utime, stime, cutime, cstime are fields 12 to 15 (from 0).
  const tick = (k: number) => Number(fields[k]) / 100;
  return { own: tick(11) + tick(12), children: tick(13) + tick(14) };
}

/** `buckeye boundaries import FILE --synthetic --json`, compiled, in its own process: its result, wall and CPU seconds. */
async function importFile(databaseUrl: string, path: string) {
  const cpuBefore = cpuSeconds("self").children;
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, "dist/src/cli.js"), "boundaries", "import", path, "--synthetic", "--json"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  const [code] = (await once(child, "exit")) as [number | null];
  const wall = (performance.now() - started) / 1000;
  const result = JSON.parse(stdout) as ImportResult;
  if (code !== 0 || result.status !== "imported") throw new Error(`the import of ${path} exited with ${code}: ${stdout}`);
  return { records: result.records, import_seconds: result.seconds, phases: result.phases, process_wall_seconds: round(wall), process_cpu_seconds: round(cpuSeconds("self").children - cpuBefore) };
}

/** How the job's rows were resolved, from its NDJSON results. */
async function resolvedBy(url: string, auth: Record<string, string>, location: string): Promise<Record<string, number>> {
  const answer = await fetch(`${url}${location}/results?format=ndjson`, { headers: auth });
  if (!answer.ok) throw new Error(`results: ${answer.status} ${await answer.text()}`);
  const counts: Record<string, number> = {};
  for (const line of (await answer.text()).split("\n")) {
    if (line === "") continue;
    const by = String((JSON.parse(line) as { body?: { resolved_by?: string } }).body?.resolved_by);
    counts[by] = (counts[by] ?? 0) + 1;
  }
  return counts;
}

async function oneJob(server: { url: string; child: ChildProcess }, auth: Record<string, string>, file: Uint8Array<ArrayBuffer>) {
  const cpuBefore = cpuSeconds(server.child.pid!).own;
  const sent = Date.now();
  const location = await submitJob(server.url, auth, file);
  const job: JobView = await waitForJob(server.url, auth, location, 100);
  const cpu = cpuSeconds(server.child.pid!).own - cpuBefore;
  return { rows: job.total, done: job.done, failed: job.failed, seconds: round((Date.parse(job.completed_at!) - sent) / 1000), server_cpu_seconds: round(cpu), resolved_by: await resolvedBy(server.url, auth, location) };
}

const { dir, databaseUrl, store, key, drop } = await benchDatabase("buckeye-bench-state-", process.env.BENCH_DATABASE_URL);
const children: ChildProcess[] = [];
try {
  await store.close();
  buildCompiled();
  let path = process.env.BENCH_BOUNDARY_FILE;
  if (path === undefined) {
    path = join(dir, "OHB2026Q4SEP17-synthetic.csv");
    const written = await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, records: RECORDS, streets: "many" });
    console.log(`generated ${written.records} synthetic records in the state's layout (${(written.bytes / 1e6).toFixed(0)} MB)`);
  }
  const imported = await importFile(databaseUrl, path);
  console.log(`import: ${JSON.stringify(imported)}`);
  const file = jobFile(spreadAddresses(RECORDS, JOB_ROWS));

  const fake = await startFakeGeocoder();
  children.push(fake.child);
  const server = await startCompiledServer(databaseUrl, { CENSUS_GEOCODER_URL: fake.url });
  children.push(server.child);
  await waitUntilReady(server.url);
  const auth = { authorization: `Bearer ${key}` };
  const upstream = async () => {
    const counts = await fake.counts();
    return counts.requests + counts.batch_requests;
  };
  const upstreamBefore = await upstream();
  const first = await oneJob(server, auth, file);
  console.log(`first job (reads the streets): ${JSON.stringify(first)}`);
  const second = await oneJob(server, auth, file);
  console.log(`second job: ${JSON.stringify(second)}`);
  const upstreamCalls = (await upstream()) - upstreamBefore;

  const targets = [
    { target: `first import of ${imported.records.toLocaleString("en-US")} records in the state's layout under ${TARGET_IMPORT_SECONDS} s`, measured: `${imported.import_seconds} s (CPU ${imported.process_cpu_seconds} s)`, pass: imported.import_seconds < TARGET_IMPORT_SECONDS },
    { target: `100,000-address job from that file under ${TARGET_JOB_SECONDS} s`, measured: `${first.seconds} s, then ${second.seconds} s (server CPU ${first.server_cpu_seconds} s, ${second.server_cpu_seconds} s)`, pass: first.seconds < TARGET_JOB_SECONDS && second.seconds < TARGET_JOB_SECONDS },
    { target: "every row resolved by its address range, zero upstream calls", measured: `${JSON.stringify(first.resolved_by)}; ${upstreamCalls} upstream calls`, pass: first.resolved_by.address_range === JOB_ROWS && second.resolved_by.address_range === JOB_ROWS && upstreamCalls === 0 },
  ];
  const results = {
    measured_at: new Date().toISOString(),
    machine: { cores: availableParallelism(), node: process.version, load_average_1m: round(loadavg()[0]!) },
    database: databaseUrl.startsWith("postgres") ? "postgresql" : "sqlite",
    boundary_records: imported.records,
    layout: "synthetic, the state's: many made-up street names per ZIP",
    import: imported,
    jobs: [first, second],
    upstream_calls: upstreamCalls,
    targets,
  };
  for (const t of targets) console.log(`${t.pass ? "pass" : "FAIL"}  ${t.target}: ${t.measured}`);
  writeFileSync(join(root, "bench/results-state-scale.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, "exit") : null)));
  await drop();
  rmSync(dir, { recursive: true, force: true });
}
