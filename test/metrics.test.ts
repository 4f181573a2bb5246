/**
 * Metrics (docs/operations/metrics.md) as an operator sees them: a REAL Prometheus (Debian's
 * `prometheus` package, test/_prometheus.ts) scrapes the service's metrics listener every second while
 * real traffic runs over a socket: county and address lookups against a real store holding a
 * SYNTHETIC boundary file, a 429, batch jobs (one a runner of another instance died holding), a webhook delivered to a local receiver
 * (test/_receiver.ts) and a failing FAKE UPSTREAM Census geocoder (test/fake-census-geocoder.ts).
 * Every assertion is a PromQL query through Prometheus's HTTP API, compared with what the client saw.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { DEFAULT_REFRESH_MS } from "../src/boundaries/boundary-index.ts";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import { loadConfig } from "../src/config.ts";
import type { RunningService } from "../src/service.ts";
import { DATA_DIR, linedRecords, TEST_ZIPS } from "./_boundary-files.ts";
import { oneLine } from "./fake-census-geocoder.ts";
import { runPromtool, startPrometheus, type Prometheus } from "./_prometheus.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import { startTestService, startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

const FILE = { version: "OHB2026Q3JUN1-SYNTHETIC", records: 3000 };
const PER_SECOND = 30;
const COUNTY_LOOKUPS = 7;
const BURST = 2 * PER_SECOND;
const WORKER_THREADS = 2;
const BATCH_THREADS = 1;
const JOB_ROWS = 2;
const MAX_ATTEMPTS = 2;
/** A job a runner of another instance died holding: one chunk on its last attempt (given up), one tried once (retried). */
const CRASHED = { id: "bat_metrics_crashed", abandonedRows: 3, retriedRows: 2 };

let api: GeocodedTestService;
let prometheus: Prometheus;
let receiver: Receiver;
let dir: string;
let metricsUrl: string;

/** What the client saw, tallied as Prometheus should see it. */
const requests = new Map<string, number>();
const problemTypes = new Map<string, number>();
const resolvedBy = new Map<string, number>();
const fileOutcomes = new Map<string, number>();
let limited = 0;
let jobId = "";
let publicMetrics: { status: number; body: unknown };
const add = (map: Map<string, number>, key: string, n = 1) => map.set(key, (map.get(key) ?? 0) + n);

/** One request over the socket, tallied under the route template the test names for it. */
async function call(route: string, method: string, path: string, options: { key?: string; json?: unknown; body?: string; type?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? api.liveKey}` };
  const body = options.json !== undefined ? JSON.stringify(options.json) : options.body;
  if (body !== undefined) headers["content-type"] = options.type ?? "application/json";
  const res = await fetch(`${api.url}${path}`, { method, headers, ...(body !== undefined && { body }) });
  const text = await res.text();
  add(requests, `${route} ${method} ${res.status}`);
  const parsed = /json/.test(res.headers.get("content-type") ?? "") && text ? JSON.parse(text) : text;
  if (res.headers.get("content-type")?.startsWith("application/problem+json")) add(problemTypes, parsed.type.split("/").pop());
  return { status: res.status, body: parsed };
}

/** An address lookup, its answer tallied by resolved_by and by what the boundary file made of it. */
async function lookup(address: string) {
  const answer = await call("/api/v1/rates", "GET", `/api/v1/rates?${new URLSearchParams({ address })}`);
  if (answer.status === 200) {
    add(resolvedBy, answer.body.ambiguous ? "ambiguous" : answer.body.resolved_by);
    if (answer.body.resolved_by === "address_range" || answer.body.resolved_by === "zip4_range") add(fileOutcomes, "matched");
    if (answer.body.boundary_file_miss) add(fileOutcomes, answer.body.boundary_file_miss.reason);
  } else {
    add(resolvedBy, "failure");
    const miss = /did not place it: ([a-z ]+)/.exec(answer.body.detail ?? "");
    if (miss) add(fileOutcomes, miss[1]!.trim().replaceAll(" ", "_"));
  }
  return answer;
}

const entries = (map: Map<string, number>) => Object.fromEntries([...map].sort());

/** The samples of `promql` as label value → value, once they equal `expected` (scrapes come once a second). */
async function settlesTo(promql: string, label: string, expected: Record<string, number>) {
  const end = Date.now() + 20_000;
  let seen: Record<string, number> = {};
  while (Date.now() < end) {
    seen = Object.fromEntries((await prometheus.query(promql)).map((s) => [s.metric[label] ?? "", s.value]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    if (JSON.stringify(seen) === JSON.stringify(Object.fromEntries(Object.entries(expected).sort(([a], [b]) => a.localeCompare(b))))) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(seen, promql).toEqual(expected);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "buckeye-metrics-"));
  receiver = await startReceiver();
  api = await startTestServiceWithFakeGeocoder(
    {
      METRICS_PORT: "0",
      RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      GEOCODER_FAILURE_THRESHOLD: "2",
      GEOCODER_COOLDOWN_MS: "600000",
      WEBHOOK_PRIVATE_TARGETS: "loopback",
      WORKER_THREADS: String(WORKER_THREADS),
      BATCH_THREADS: String(BATCH_THREADS),
      BATCH_CHUNK_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      BATCH_POLL_MS: "100",
    },
    true,
  );
  metricsUrl = (api.service as RunningService).metricsUrl!;
  prometheus = await startPrometheus(metricsUrl);

  const path = join(dir, `${FILE.version.toLowerCase()}.csv`);
  await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, zips: TEST_ZIPS, records: FILE.records });
  expect(await importBoundaryFile({ store: api.service.store, source: path, synthetic: true })).toMatchObject({ status: "imported", version: FILE.version });
  // The service trusts the active version it read for DEFAULT_REFRESH_MS on its clock: past that, it reads the file's.
  api.clock.advance(DEFAULT_REFRESH_MS);

  // County lookups: the first built by the lookup service, the rest reused from the body cache; each counted.
  for (let i = 0; i < COUNTY_LOOKUPS; i++) expect((await call("/api/v1/rates", "GET", "/api/v1/rates?county=franklin")).status).toBe(200);
  add(resolvedBy, "county_param", COUNTY_LOOKUPS);
  // An address the file settles, one on a street it does not know, and one the geocoder places.
  const record = linedRecords(FILE.records).find((r) => r.recordType === "A" && r.zip5 === "43081" && r.unit === null && r.effectiveTo === null && r.houseLow !== null)!;
  const house = record.parity === "O" ? (record.houseLow! % 2 === 1 ? record.houseLow! : record.houseLow! + 1) : record.houseLow! % 2 === 0 ? record.houseLow! : record.houseLow! + 1;
  expect((await lookup(`${[house, record.preDirectional, record.streetName, record.suffix].filter(Boolean).join(" ")}, Westerville, OH 43081`)).body.resolved_by).toBe("address_range");
  await lookup("12 Nowhere-Such Ln, Westerville, OH 43081");
  expect((await lookup(oneLine("statehouse"))).body.resolved_by).toBe("address_geocoding");

  // A job whose runner died holding both its chunks, their leases lapsed: the service gives the first up and retries the second.
  await storeCrashedJob();
  while ((await api.service.store.db.selectFrom("batch_jobs").select("status").where("id", "=", CRASHED.id).executeTakeFirstOrThrow()).status !== "completed") {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // A batch job, polled until it completes.
  const job = await call("/api/v1/batches", "POST", "/api/v1/batches", { body: `id,county\n${Array.from({ length: JOB_ROWS }, (_, i) => `${i + 1},franklin`).join("\n")}\n`, type: "text/csv" });
  expect(job.status).toBe(202);
  jobId = job.body.id;
  for (let state = job.body.status; state !== "completed"; ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    state = (await call("/api/v1/batches/:id", "GET", `/api/v1/batches/${jobId}`)).body.status;
  }

  // A webhook (a test key's: a live key's must be https), its test event delivered to the local receiver.
  const hook = await call("/api/v1/webhooks", "POST", "/api/v1/webhooks", { key: api.testKey, json: { url: `${receiver.url}/hooks`, events: ["rate.changed"] } });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  expect((await call("/api/v1/webhooks/:id/test", "POST", `/api/v1/webhooks/${hook.body.webhook.id}/test`, { key: api.testKey })).status).toBe(202);
  await receiver.waitFor((received) => received.length === 1);

  // The geocoder fails twice (the circuit's threshold); the third address is refused without a call. Without
  // a ZIP to fall back on, each answers 503.
  api.fake.setMode("error");
  for (const name of ["carroll", "pataskala", "marysville"] as const) expect((await lookup(oneLine(name).replace(/ \d{5}$/, ""))).status).toBe(503);

  // A second key sends more than its requests per second at once.
  const burstKey = (await createKey(api.service.store.db, api.orgId, "metrics burst", "live")).key;
  const statuses = await Promise.all(Array.from({ length: BURST }, () => call("/api/v1/rates", "GET", "/api/v1/rates?county=wayne", { key: burstKey })));
  limited = statuses.filter((s) => s.status === 429).length;
  add(resolvedBy, "county_param", statuses.filter((s) => s.status === 200).length);
  expect(limited).toBeGreaterThan(0);

  // The public port is asked for /metrics, which no route there answers.
  publicMetrics = await call("unmatched", "GET", "/metrics");
}, 180_000);

/** Stored in one transaction as a dead runner left it, so the service's runner never sees it otherwise. */
async function storeCrashedJob() {
  const rows = (prefix: string, n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, county: "franklin" })));
  const apiKey = await api.service.store.db.selectFrom("api_keys").select("id").where("organization_id", "=", api.orgId).executeTakeFirstOrThrow();
  const lapsed = new Date(Date.now() - 60_000).toISOString();
  const total = CRASHED.abandonedRows + CRASHED.retriedRows;
  await api.service.store.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("batch_jobs")
      .values({
        id: CRASHED.id,
        organization_id: api.orgId,
        api_key_id: apiKey.id,
        request_id: "req_metrics_crashed",
        format: "ndjson",
        status: "running",
        today: "2026-11-27",
        total,
        done: 0,
        failed: 0,
        chunk_count: 2,
        chunks_done: 0,
        created_at: lapsed,
        started_at: lapsed,
        completed_at: null,
        deleted_at: null,
        ignored_columns: null,
        waiting_for: null,
      })
      .execute();
    const leased = { job_id: CRASHED.id, status: "leased" as const, lease_owner: "runner_dead", lease_expires_at: lapsed, output: null };
    await trx
      .insertInto("batch_chunks")
      .values([
        { ...leased, seq: 0, first_row: 1, row_count: CRASHED.abandonedRows, input: rows("a", CRASHED.abandonedRows), attempts: MAX_ATTEMPTS },
        { ...leased, seq: 1, first_row: CRASHED.abandonedRows + 1, row_count: CRASHED.retriedRows, input: rows("r", CRASHED.retriedRows), attempts: 1 },
      ])
      .execute();
  });
}

afterAll(async () => {
  await prometheus?.close();
  await api?.close();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the metrics listener: off unless METRICS_PORT is set, on loopback, never on the public port", () => {
  it("Prometheus scrapes the listener on 127.0.0.1, apart from the API's port", async () => {
    expect(new URL(metricsUrl).hostname).toBe("127.0.0.1");
    expect(new URL(metricsUrl).port).not.toBe(new URL(api.url!).port);
    await settlesTo('up{job="buckeye"}', "job", { buckeye: 1 });
  });

  it("the public port does not serve /metrics", () => {
    expect(publicMetrics.status).toBe(404);
    expect(JSON.stringify(publicMetrics.body)).not.toContain("buckeye_http_requests_total");
  });

  it("without METRICS_PORT no listener is started", async () => {
    const plain = await startTestService({}, true);
    try {
      expect((plain.service as RunningService).metricsUrl).toBeNull();
      expect(plain.config.metrics).toBeNull();
    } finally {
      await plain.close();
    }
  });

  it("METRICS_PORT equal to PORT is refused", () => {
    expect(() => loadConfig({ PORT: "8080", METRICS_PORT: "8080" })).toThrow(/METRICS_PORT.*must differ from PORT/);
  });
});

describe("HTTP: requests by route template, method and status; latency per route; 429s by kind; problems by type", () => {
  it("every request the client made is counted under its route template, never its path or query", async () => {
    await settlesTo('sum by (key) (label_join(buckeye_http_requests_total, "key", " ", "route", "method", "status"))', "key", entries(requests));
    const routes = new Set((await prometheus.query("buckeye_http_requests_total")).map((s) => s.metric.route!));
    expect([...routes].sort()).toEqual([...new Set([...requests.keys()].map((k) => k.split(" ")[0]!))].sort());
    for (const route of routes) expect(route).not.toMatch(/[?=]|franklin|Westerville|bat_/i);
    expect(routes).not.toContain(`/api/v1/batches/${jobId}`);
  });

  it("the latency histogram counts each answer of a route once, with buckets down to a quarter millisecond", async () => {
    const rates = [...requests].filter(([k]) => k.startsWith("/api/v1/rates GET")).reduce((n, [, v]) => n + v, 0);
    await settlesTo('sum by (route) (buckeye_http_request_duration_seconds_count{route="/api/v1/rates"})', "route", { "/api/v1/rates": rates });
    await settlesTo('sum by (route) (buckeye_http_request_duration_seconds_bucket{route="/api/v1/rates",le="+Inf"})', "route", { "/api/v1/rates": rates });
    const fast = await prometheus.query('sum(buckeye_http_request_duration_seconds_bucket{route="/api/v1/rates",le="0.01"})');
    expect(fast[0]!.value, "some county answers take under 10 ms").toBeGreaterThan(0);
    const les = new Set((await prometheus.query('buckeye_http_request_duration_seconds_bucket{route="/api/v1/rates"}')).map((s) => s.metric.le));
    for (const le of ["0.00025", "0.001", "0.002", "0.005"]) expect(les).toContain(le);
  });

  it("429s are counted by the limit that refused them, and every problem by its type", async () => {
    await settlesTo("sum by (kind) (buckeye_rate_limited_total)", "kind", { key: limited });
    await settlesTo("sum by (type) (buckeye_problems_total)", "type", entries(problemTypes));
  });
});

describe("lookups: answers by resolved_by, boundary-file outcomes, the geocoder and its circuit", () => {
  it("each lookup, county and address alike, is counted by how it was resolved, and the file's matches and misses by outcome", async () => {
    await settlesTo("sum by (resolved_by) (buckeye_lookup_answers_total)", "resolved_by", entries(resolvedBy));
    await settlesTo("sum by (outcome) (buckeye_boundary_file_matches_total)", "outcome", entries(fileOutcomes));
  });

  it("geocoder calls are counted by outcome, timed, and the open circuit shows", async () => {
    await settlesTo('sum by (outcome) (buckeye_geocoder_requests_total{endpoint="single"})', "outcome", { ok: 2, error: 2, refused: 1 });
    await settlesTo('sum by (endpoint) (buckeye_geocoder_request_duration_seconds_count{endpoint="single"})', "endpoint", { single: 4 });
    await settlesTo("buckeye_geocoder_circuit_state", "state", { closed: 0, open: 1, "half-open": 0 });
  });
});

describe("pool, jobs, webhooks and data: gauges read at scrape time", () => {
  it("each started lane reports its threads and queue, and its tasks' time", async () => {
    await settlesTo("buckeye_pool_threads", "lane", { interactive: WORKER_THREADS, batch: BATCH_THREADS });
    await settlesTo("buckeye_pool_queue_size", "lane", { interactive: 0, batch: 0 });
    const tasks = await prometheus.query("sum by (lane) (buckeye_pool_task_duration_seconds_count)");
    expect(tasks.find((t) => t.metric.lane === "batch")?.value).toBeGreaterThan(0);
  });

  it("the completed jobs are counted by state, their rows by outcome, and no job waits", async () => {
    await settlesTo("buckeye_batch_jobs", "state", { queued: 0, running: 0, completed: 2 });
    await settlesTo("sum by (outcome) (buckeye_batch_rows_total)", "outcome", { answered: JOB_ROWS + CRASHED.retriedRows, failed: 0 });
    await settlesTo("buckeye_batch_oldest_queued_job_age_seconds", "job", { buckeye: 0 });
  });

  it("chunk attempts are counted as first or retry, and the rows of a chunk given up after its last attempt as abandoned", async () => {
    // The uploaded job's one chunk and the crashed job's second on their first and second attempts; its first chunk is given up, not worked.
    await settlesTo("sum by (attempt) (buckeye_batch_chunk_attempts_total)", "attempt", { first: 1, retry: 1 });
    await settlesTo("buckeye_batch_rows_abandoned_total", "job", { buckeye: CRASHED.abandonedRows });
  });

  it("no pool thread ran out of heap: each lane's count is there at 0", async () => {
    await settlesTo("buckeye_pool_threads_out_of_memory_total", "lane", { interactive: 0, batch: 0 });
  });

  it("the delivered webhook is counted by outcome, and the outbox is empty", async () => {
    await settlesTo("sum by (outcome) (buckeye_webhook_attempts_total)", "outcome", { delivered: 1 });
    await settlesTo("buckeye_webhook_outbox_pending", "job", { buckeye: 0 });
    await settlesTo("buckeye_webhook_oldest_pending_age_seconds", "job", { buckeye: 0 });
  });

  it("data age follows the last reconciliation, and the active boundary file is an info metric", async () => {
    const freshness = await api.service.context.freshness();
    const expected = (Date.now() - Date.parse(`${freshness.lastReconciled}T00:00:00Z`)) / 1000;
    const [age] = await prometheus.until("buckeye_data_age_seconds", (v) => v.length === 1);
    expect(Math.abs(age! - expected)).toBeLessThan(30);
    await settlesTo("buckeye_boundary_file_info", "version", { [FILE.version]: 1 });
  });

  it("Node's default metrics are there, event-loop delay included", async () => {
    await prometheus.until("buckeye_nodejs_eventloop_lag_p99_seconds", (v) => v.length === 1 && v[0]! >= 0);
    await prometheus.until("buckeye_process_resident_memory_bytes", (v) => v.length === 1 && v[0]! > 0);
  });
});

describe("batch work per organization: by id, for the organizations with the most rows in queued and running jobs, the rest as other", () => {
  const byOrganization = (metric: string, label: string) => `label_join(${metric}, "key", " ", "organization", "${label}")`;

  it("a running job shows under its organization's id with its rows left, other is there at 0, and the organization's series go once its job completes", async () => {
    // The upstream holds the job's geocoding, so the job stays running with its rows left while Prometheus scrapes.
    api.fake.setMode("hold");
    const asked = api.fake.batchRequests.length;
    const ndjson = [JSON.stringify({ id: "h1", address: oneLine("statehouse") }), JSON.stringify({ id: "h2", address: oneLine("carroll") })].join("\n");
    const held = await call("/api/v1/batches", "POST", "/api/v1/batches", { body: ndjson, type: "application/x-ndjson" });
    expect(held.status).toBe(202);
    while (api.fake.batchRequests.length === asked) await new Promise((resolve) => setTimeout(resolve, 50));

    await settlesTo(byOrganization("buckeye_batch_organization_jobs", "state"), "key", { [`${api.orgId} queued`]: 0, [`${api.orgId} running`]: 1, "other queued": 0, "other running": 0 });
    await settlesTo(byOrganization("buckeye_batch_organization_rows", "progress"), "key", { [`${api.orgId} done`]: 0, [`${api.orgId} left`]: 2, "other done": 0, "other left": 0 });
    for (const series of await prometheus.query("buckeye_batch_organization_jobs")) expect(series.metric.organization).toMatch(/^(org_|other$)/);

    api.fake.release();
    for (let state = held.body.status; state !== "completed"; ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      state = (await call("/api/v1/batches/:id", "GET", `/api/v1/batches/${held.body.id}`)).body.status;
    }
    await settlesTo(byOrganization("buckeye_batch_organization_jobs", "state"), "key", { "other queued": 0, "other running": 0 });
  });
});

describe("the alert rules and the dashboard in docs/operations/ hold and name only metrics the service exposes", () => {
  const RULES = "docs/operations/prometheus-alerts.yml";
  const DASHBOARD = "docs/operations/grafana-dashboard.json";
  const named = (text: string) => new Set([...text.matchAll(/\b(buckeye_[a-z0-9_]+)/g)].map((m) => m[1]!));

  it("promtool check rules passes on the rules, and fails on a broken rule", () => {
    const good = runPromtool(["check", "rules", RULES]);
    expect(good.status, good.stdout + good.stderr).toBe(0);
    const broken = join(dir, "broken.yml");
    writeFileSync(broken, readFileSync(RULES, "utf8").replace("> 0.01", "> > 0.01"));
    expect(runPromtool(["check", "rules", broken]).status).not.toBe(0);
  });

  it("every metric the rules and the dashboard query is one Prometheus scraped", async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as { panels: Array<{ targets: Array<{ expr: string }> }> };
    const used = new Set([...named(readFileSync(RULES, "utf8")), ...named(dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join("\n"))]);
    expect(used.size).toBeGreaterThan(10);
    const scraped = new Set(await prometheus.names());
    expect([...used].filter((name) => !scraped.has(name))).toEqual([]);
  });
});
