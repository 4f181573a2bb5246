/**
 * Batch jobs beside single lookups, over the HTTP API of the compiled server only, so it measures
 * any implementation behind the routes (`node --import tsx bench/jobs.ts`; `npm run bench` runs
 * it too). Writes bench/results-jobs.json.
 *
 * While the scenarios run, a client of a third organization, in a process of its own
 * (bench/lookup-client.ts), sends a county lookup and a lat/lon lookup every 10 ms each, open loop (a
 * late answer never delays the next request), and times each from the moment it is sent:
 *
 *   a. idle, the baseline;
 *   b. one organization's 100,000-address job, resolved by the boundary file (zero upstream calls);
 *   c. three 100,000-address jobs of two organizations, uploaded at once;
 *   d. fairness, without the measuring client: organization A queues two 100,000-row jobs (both
 *      uploads at once), then, once both are accepted, organization B a 500-row job, which should
 *      finish before the first of A's.
 *
 * Each upload's file is built before the scenarios, so the bench process's own work on it (a 5.5 MB CSV
 * string, encoded) is not in the window the lookups are timed in: on a 2-core machine it took the CPU
 * from the server while the uploads were read. Server memory (VmRSS) is sampled during each; BENCH_IDLE_SECONDS (10) sets how long (a) lasts. Then the server is started again with the rate limit
 * a deployment has by default and (a), (b) and (c) run once more, the measuring organization
 * spreading its lookups over enough keys that each key sends exactly its allowed rate: any 429 it
 * gets there is one it did not earn (a token bucket replayed on the send times says which).
 *
 * The boundary file is SYNTHETIC (BENCH_BOUNDARY_RECORDS, default 200,000 records); the geocoder is
 * the FAKE UPSTREAM in its own process; the polygons come from GEO_DATA_DIR as the server finds it.
 * The database is SQLite, or PostgreSQL when BENCH_DATABASE_URL names one (a fresh schema, dropped at the end).
 */
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { createKey } from "../src/auth/key-service.ts";
import { loadConfig } from "../src/config.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { importSyntheticFile, jobFile, submitJob, waitForJob, type PollTally } from "./boundary-jobs.ts";
import type { Answer } from "./lookup-client.ts";
import { benchDatabase, root, rssMb, startCompiledServer, startFakeGeocoder, waitUntilReady } from "./start-process.ts";

const RECORDS = Number(process.env.BENCH_BOUNDARY_RECORDS ?? 200_000);
const JOB_ROWS = 100_000;
const SMALL_JOB_ROWS = 500;
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const INTERVAL_MS = 10;
const POLL_MS = 250;
/** What a deployment gets when it sets nothing: the limit the 429 check runs under. */
const DEPLOYED_LIMIT = loadConfig({}).rateLimits.perKey;
const LOOKUPS = { county: "/api/v1/rates?county=franklin", lat_lon: "/api/v1/rates?lat=39.96&lon=-83.0" } as const;
type LookupKind = keyof typeof LOOKUPS;

const round = (n: number) => Math.round(n * 1000) / 1000;

function percentile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}


/**
 * A token bucket as the server keeps one per key (src/http/rate-limit.ts), replayed on the client's
 * send times: a 429 for a request this bucket would have let through was not earned by the client.
 */
function unearned(answers: readonly Answer[], limit: number): number {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let count = 0;
  for (const a of [...answers].sort((x, y) => x.sentMs - y.sentMs)) {
    const bucket = buckets.get(a.key) ?? { tokens: limit, at: a.sentMs };
    bucket.tokens = Math.min(limit, bucket.tokens + ((a.sentMs - bucket.at) / 1000) * limit);
    bucket.at = a.sentMs;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    buckets.set(a.key, bucket);
    if (allowed && a.status === 429) count++;
  }
  return count;
}

function lookupFigures(answers: readonly Answer[], limit: number | null) {
  const waits = answers.filter((a) => a.status !== null).map((a) => a.ms).sort((x, y) => x - y);
  const errors: Record<string, number> = {};
  for (const a of answers) if (a.error) errors[a.error] = (errors[a.error] ?? 0) + 1;
  return {
    sent: answers.length,
    answered: waits.length,
    p50_ms: round(percentile(waits, 0.5)),
    p99_ms: round(percentile(waits, 0.99)),
    max_ms: round(waits.at(-1) ?? Number.NaN),
    non_2xx: answers.filter((a) => a.status !== null && (a.status < 200 || a.status > 299)).length,
    status_429: answers.filter((a) => a.status === 429).length,
    ...(limit !== null && { unearned_429: unearned(answers, limit) }),
    connection_errors: answers.length - waits.length,
    ...(Object.keys(errors).length > 0 && { error_codes: errors }),
  };
}

/** The measuring client, in a process of its own (bench/lookup-client.ts); stopping it gives each kind's figures. */
async function startLookups(url: string, keys: Record<LookupKind, readonly string[]>) {
  const client = fork(join(root, "bench/lookup-client.ts"), [JSON.stringify({ url, keys, intervalMs: INTERVAL_MS, paths: LOOKUPS })], { execArgv: ["--import", "tsx"] });
  await once(client, "message");
  return async (limit: number | null) => {
    const reply = once(client, "message") as Promise<[{ answers: Record<LookupKind, Answer[]>; lateMs: number }]>;
    client.send("stop");
    const [{ answers, lateMs }] = await reply;
    return { county: lookupFigures(answers.county, limit), lat_lon: lookupFigures(answers.lat_lon, limit), client_send_late_max_ms: round(lateMs) };
  };
}

/** VmRSS of the server every 100 ms until stopped: the largest and the median sample, in MB. */
function sampleRss(pid: number) {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(rssMb(pid).total), 100);
  return () => {
    clearInterval(timer);
    samples.sort((x, y) => x - y);
    return { max: samples.at(-1)!, median: percentile(samples, 0.5) };
  };
}

interface Org {
  name: string;
  auth: Record<string, string>;
}

/**
 * Submits the jobs in waves: the uploads of a wave are sent together, and the next wave once all of
 * them are accepted, so "queued behind" means what it says. Then waits for every job. Times are
 * seconds from the first upload, on one clock: the client's for uploads and for when it saw a job
 * completed (up to one poll late), the server's timestamps for when it started and completed it
 * (same machine, same wall clock).
 */
async function runJobs(url: string, waves: ReadonlyArray<ReadonlyArray<{ org: Org; file: Uint8Array<ArrayBuffer> }>>, tally: PollTally) {
  const t0 = Date.now();
  const since = (ms: number) => round((ms - t0) / 1000);
  const jobs = waves.flat();
  const uploads: Array<{ location: string; sent: number; accepted: number }> = [];
  for (const wave of waves) {
    const sent = since(Date.now());
    uploads.push(...(await Promise.all(wave.map(async (job) => ({ location: await submitJob(url, job.org.auth, job.file), sent, accepted: since(Date.now()) })))));
  }
  return Promise.all(
    uploads.map(async ({ location, sent, accepted }, i) => {
      const view = await waitForJob(url, jobs[i]!.org.auth, location, POLL_MS, tally);
      const completed = since(Date.parse(view.completed_at!));
      return {
        organization: jobs[i]!.org.name,
        rows: view.total,
        done: view.done,
        failed: view.failed,
        upload_sent_s: sent,
        upload_accepted_s: accepted,
        started_s: view.started_at === null ? null : since(Date.parse(view.started_at)),
        completed_s: completed,
        seen_completed_s: since(Date.now()),
        wall_seconds: round(completed - sent),
      };
    }),
  );
}

async function measured(
  server: { url: string; child: ChildProcess },
  keys: Record<LookupKind, readonly string[]>,
  limit: number | null,
  during: () => Promise<unknown>,
) {
  const rss = sampleRss(server.child.pid!);
  const stop = await startLookups(server.url, keys);
  const outcome = await during();
  const lookups = await stop(limit);
  return { lookups, server_rss_mb: rss(), load_average_1m: round(loadavg()[0]!), ...(outcome !== undefined && { jobs: outcome }) };
}

const idle = () => new Promise<void>((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));

type Measured = Awaited<ReturnType<typeof measured>>;

/** The targets: each lookup kind's p99 within 3× of idle and never over 100 ms, no connection error. */
function latencyTargets(scenario: string, figures: Measured, baseline: Measured) {
  return (Object.keys(LOOKUPS) as LookupKind[]).flatMap((kind) => {
    const f = figures.lookups[kind];
    const ratio = round(f.p99_ms / baseline.lookups[kind].p99_ms);
    return [
      { scenario, target: `${kind} p99 within 3× idle p99`, measured: `${f.p99_ms} ms, ${ratio}× idle ${baseline.lookups[kind].p99_ms} ms`, pass: ratio <= 3 },
      { scenario, target: `${kind} never waits over 100 ms`, measured: `max ${f.max_ms} ms`, pass: f.max_ms <= 100 },
      { scenario, target: `${kind} no connection error`, measured: `${f.connection_errors}`, pass: f.connection_errors === 0 },
    ];
  });
}

async function main() {
  const { dir, databaseUrl, store, key, drop } = await benchDatabase("buckeye-bench-jobs-", process.env.BENCH_DATABASE_URL);
  const children: ChildProcess[] = [];
  const results: Record<string, unknown> = {
    measured_at: new Date().toISOString(),
    machine: { cores: availableParallelism(), node: process.version, load_average_1m_at_start: round(loadavg()[0]!) },
    database: databaseUrl.startsWith("postgres") ? "postgresql" : "sqlite",
    boundary_records: RECORDS,
    lookup_interval_ms: INTERVAL_MS,
    lookups: LOOKUPS,
  };
  const targets: Array<{ scenario: string; target: string; measured: string; pass: boolean }> = [];
  try {
    // Organization A is the bench database's own; B submits jobs too; C only measures.
    const a: Org = { name: "A", auth: { authorization: `Bearer ${key}` } };
    const orgB = await createOrganization(store.db, "Second");
    const b: Org = { name: "B", auth: { authorization: `Bearer ${(await createKey(store.db, orgB.id, "bench", "live")).key}` } };
    const orgC = await createOrganization(store.db, "Measuring");
    // Under the deployed limit each key sends exactly its allowed rate: 1000 / INTERVAL_MS per kind, over this many keys.
    const keysPerKind = Math.ceil(1000 / INTERVAL_MS / DEPLOYED_LIMIT);
    const measuringKeys = async (count: number) => Promise.all(Array.from({ length: count }, async () => (await createKey(store.db, orgC.id, "bench", "live")).key));
    const deployedKeys = { county: await measuringKeys(keysPerKind), lat_lon: await measuringKeys(keysPerKind) };
    const oneKey = { county: deployedKeys.county.slice(0, 1), lat_lon: deployedKeys.lat_lon.slice(0, 1) };
    const addresses = await importSyntheticFile(store, dir, RECORDS, JOB_ROWS);
    const file = jobFile(addresses);
    const smallFile = jobFile(addresses.slice(0, SMALL_JOB_ROWS));

    const fake = await startFakeGeocoder();
    children.push(fake.child);
    const upstreamCalls = async () => {
      const counts = await fake.counts();
      return counts.requests + counts.batch_requests;
    };
    const serverEnv = { CENSUS_GEOCODER_URL: fake.url };
    const tally: PollTally = { throttled: 0, errors: 0 };
    const oneJob = async () => {
      const before = await upstreamCalls();
      const jobs = await runJobs(server.url, [[{ org: a, file }]], tally);
      return { ...jobs[0]!, upstream_calls: (await upstreamCalls()) - before };
    };
    const threeJobs = () => runJobs(server.url, [[{ org: a, file }, { org: a, file }, { org: b, file }]], tally);

    // Rate limit raised out of the way (startCompiledServer's default): the waits are the server's own.
    let server = await startCompiledServer(databaseUrl, serverEnv);
    children.push(server.child);
    await waitUntilReady(server.url);
    await measured(server, oneKey, null, () => new Promise((resolve) => setTimeout(resolve, 2000)));

    const scenarios: Record<string, Measured> = {};
    scenarios.idle = await measured(server, oneKey, null, idle);
    console.log("a. idle", JSON.stringify(scenarios.idle));
    scenarios.one_job = await measured(server, oneKey, null, oneJob);
    console.log("b. one 100,000-address job", JSON.stringify(scenarios.one_job));
    scenarios.three_jobs = await measured(server, oneKey, null, threeJobs);
    console.log("c. three jobs of two organizations", JSON.stringify(scenarios.three_jobs));
    const fairness = await runJobs(server.url, [[{ org: a, file }, { org: a, file }], [{ org: b, file: smallFile }]], tally);
    console.log("d. fairness", JSON.stringify(fairness));
    results.raised_rate_limit = { ...scenarios, fairness };

    const job = scenarios.one_job.jobs as Awaited<ReturnType<typeof oneJob>>;
    for (const name of ["one_job", "three_jobs"] as const) {
      targets.push(...latencyTargets(name, scenarios[name]!, scenarios.idle));
      const grown = round(scenarios[name]!.server_rss_mb.max - scenarios.idle.server_rss_mb.median);
      targets.push({ scenario: name, target: "server RSS within 150 MB of idle", measured: `max ${scenarios[name]!.server_rss_mb.max} MB, +${grown} MB`, pass: grown <= 150 });
    }
    targets.push({ scenario: "one_job", target: "100,000-address job under 10 s", measured: `${job.wall_seconds} s from upload to completed`, pass: job.wall_seconds < 10 });
    targets.push({ scenario: "one_job", target: "zero upstream calls", measured: `${job.upstream_calls}`, pass: job.upstream_calls === 0 });
    const [ofB] = fairness.slice(-1);
    const firstOfA = Math.min(...fairness.slice(0, -1).map((job) => job.completed_s));
    targets.push({
      scenario: "fairness",
      target: "B's 500-row job finishes before A's first 100,000-row job",
      measured: `B sent at ${ofB!.upload_sent_s} s, completed at ${ofB!.completed_s} s; A's first completed at ${firstOfA} s`,
      pass: ofB!.completed_s < firstOfA,
    });

    // The next server may be given the same port once this one has let it go.
    server.child.kill("SIGTERM");
    await once(server.child, "exit");
    // The organization's limit raised to what its keys send together: this pass checks the per-key bucket's promise.
    const organizationRate = String((2 * 1000) / INTERVAL_MS);
    server = await startCompiledServer(databaseUrl, { ...serverEnv, RATE_LIMIT_PER_SECOND: String(DEPLOYED_LIMIT), RATE_LIMIT_PER_SECOND_PER_ORG: organizationRate });
    children.push(server.child);
    await waitUntilReady(server.url);
    const limited: Record<string, Measured> = {};
    limited.idle = await measured(server, deployedKeys, DEPLOYED_LIMIT, idle);
    limited.one_job = await measured(server, deployedKeys, DEPLOYED_LIMIT, oneJob);
    limited.three_jobs = await measured(server, deployedKeys, DEPLOYED_LIMIT, threeJobs);
    for (const [name, figures] of Object.entries(limited)) {
      const count = figures.lookups.county.unearned_429! + figures.lookups.lat_lon.unearned_429!;
      const all = figures.lookups.county.status_429 + figures.lookups.lat_lon.status_429;
      const sent = figures.lookups.county.sent + figures.lookups.lat_lon.sent;
      targets.push({ scenario: `deployed_limit.${name}`, target: "no unearned 429", measured: `${count} unearned of ${all} 429s in ${sent} requests`, pass: count === 0 });
      console.log(`deployed limit, ${name}`, JSON.stringify(figures));
    }
    results.deployed_rate_limit = { limit_per_second: DEPLOYED_LIMIT, keys_per_lookup_kind: keysPerKind, ...limited };
    results.job_clients = { polls_throttled: tally.throttled, poll_errors: tally.errors, poll_ms: POLL_MS };
  } finally {
    for (const child of children) child.kill("SIGTERM");
    // The schema is dropped once no server holds a connection to it.
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, "exit") : null)));
    await store.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
  results.targets = targets;
  console.log("\ntargets");
  for (const t of targets) console.log(`${t.pass ? "pass" : "FAIL"}  ${t.scenario.padEnd(24)} ${t.target}: ${t.measured}`);
  writeFileSync(join(root, "bench/results-jobs.json"), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
