/**
 * One 100,000-address job on SQLite against the same job on PostgreSQL, in the same run
 * (`node --import tsx bench/job-stores.ts`; `npm run bench` runs it). PostgreSQL is
 * BENCH_DATABASE_URL when it names one, else BENCH_POSTGRES_URL, else
 * postgres://postgres@127.0.0.1:5432/test, as bench/scale.ts (a fresh schema, dropped at the end).
 * Writes bench/results-job-stores.json and prints the PostgreSQL/SQLite ratio of the job's time,
 * the target being at most 1.5.
 *
 * Both databases get the same SYNTHETIC boundary file (BENCH_BOUNDARY_RECORDS, default 200,000
 * records) and the compiled server of `npm start`; the jobs' addresses are all resolved by the file,
 * so no upstream call is made (the FAKE UPSTREAM geocoder is there to be sure). The rounds
 * (BENCH_JOB_ROUNDS, 3) alternate SQLite and PostgreSQL so load from elsewhere on the machine falls
 * on both; each figure is the median of the rounds, from the upload sent to the job's `completed_at`.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { importSyntheticFile, submitJob, waitForJob } from "./boundary-jobs.ts";
import { BENCH_POSTGRES_URL, benchDatabase, root, startCompiledServer, startFakeGeocoder, waitUntilReady } from "./start-process.ts";
import { median } from "./median.ts";

const RECORDS = Number(process.env.BENCH_BOUNDARY_RECORDS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_JOB_ROUNDS ?? 3);
const JOB_ROWS = 100_000;
const TARGET_RATIO = 1.5;

const named = process.env.BENCH_DATABASE_URL;
const postgresUrl = named?.startsWith("postgres") ? named : BENCH_POSTGRES_URL;

const round = (n: number) => Math.round(n * 1000) / 1000;

const children: ChildProcess[] = [];
const databases = [await benchDatabase("buckeye-bench-job-stores-"), await benchDatabase("buckeye-bench-job-stores-", postgresUrl)];
try {
  let addresses: string[] = [];
  for (const database of databases) addresses = await importSyntheticFile(database.store, database.dir, RECORDS, JOB_ROWS);
  const fake = await startFakeGeocoder();
  children.push(fake.child);
  const servers = [];
  for (const database of databases) {
    const server = await startCompiledServer(database.databaseUrl, { CENSUS_GEOCODER_URL: fake.url });
    children.push(server.child);
    await waitUntilReady(server.url);
    servers.push({ ...server, auth: { authorization: `Bearer ${database.key}` } });
  }
  const seconds: [number[], number[]] = [[], []];
  const upstreamBefore = await fake.counts();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, server] of servers.entries()) {
      const sent = Date.now();
      const job = await waitForJob(server.url, server.auth, await submitJob(server.url, server.auth, addresses), 50);
      if (job.done !== JOB_ROWS) throw new Error(`the job completed with ${job.done} of ${JOB_ROWS} rows`);
      seconds[i]!.push(round((Date.parse(job.completed_at!) - sent) / 1000));
      console.log(`round ${r + 1}: ${i === 0 ? "SQLite" : "PostgreSQL"} ${seconds[i]!.at(-1)} s`);
    }
  }
  const upstreamAfter = await fake.counts();
  const sqlite = median(seconds[0]);
  const postgres = median(seconds[1]);
  const ratio = round(postgres / sqlite);
  const results = {
    measured_at: new Date().toISOString(),
    machine: { cores: availableParallelism(), node: process.version, load_average_1m: round(loadavg()[0]!) },
    boundary_records: RECORDS,
    job_rows: JOB_ROWS,
    rounds: ROUNDS,
    sqlite_seconds: seconds[0],
    postgresql_seconds: seconds[1],
    sqlite_median_seconds: sqlite,
    postgresql_median_seconds: postgres,
    postgresql_to_sqlite: ratio,
    upstream_calls: upstreamAfter.requests + upstreamAfter.batch_requests - upstreamBefore.requests - upstreamBefore.batch_requests,
    targets: [{ scenario: "job_stores", target: `100,000-row job on PostgreSQL within ${TARGET_RATIO}× SQLite`, measured: `${postgres} s against ${sqlite} s: ${ratio}×`, pass: ratio <= TARGET_RATIO }],
  };
  console.log(`100,000-row job: SQLite ${sqlite} s, PostgreSQL ${postgres} s (medians of ${ROUNDS}); PostgreSQL/SQLite ${ratio}`);
  writeFileSync(join(root, "bench/results-job-stores.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  for (const child of children) child.kill("SIGTERM");
  // The schema is dropped once no server holds a connection to it.
  await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, "exit") : null)));
  for (const database of databases) {
    await database.drop();
    rmSync(database.dir, { recursive: true, force: true });
  }
}
