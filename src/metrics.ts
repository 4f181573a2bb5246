/**
 * The process's Prometheus metrics (docs/operations/metrics.md): what the parts count as they work,
 * in prom-client's default registry, and the listener that serves them. Counters and histograms are
 * kept here, below every room, so any part may count without knowing who reads; the gauges that
 * need the store or the pool are read at scrape time by the composition root (service-metrics.ts),
 * never per request. Everything counted here is counted on the main thread: a worker thread's
 * registry would never be scraped, so what a thread did is counted where its task returns.
 *
 * Labels are bounded by construction: a route's template (never its path or query, which hold
 * customers' addresses), a method, a status, a problem's slug, a lane, an outcome.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { collectDefaultMetrics, Counter, Histogram, register, Registry } from "prom-client";
import { TalliedCounter, TalliedHistogram } from "./metric-tallies.ts";

/**
 * A county lookup answers in well under a millisecond on the server; an address one takes a few
 * milliseconds, a geocoded one tens to hundreds. Buckets are dense where the service lives (0.25–10 ms)
 * and sparse above, so a p99 of 1–5 ms is told apart from 10 ms.
 */
export const REQUEST_SECONDS_BUCKETS = [0.00025, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
const UPSTREAM_SECONDS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Counted on every answer, so tallied without prom-client's per-call label hashing (src/metric-tallies.ts). */
export const httpRequests = new TalliedCounter("buckeye_http_requests_total", "HTTP requests answered, by route template, method and status");

export const httpRequestSeconds = new TalliedHistogram(
  "buckeye_http_request_duration_seconds",
  "Time from the request's arrival to its answer, by route template and method",
  REQUEST_SECONDS_BUCKETS,
);

export const rateLimited = new Counter({
  name: "buckeye_rate_limited_total",
  help: "Requests refused with 429, by the limit that refused them (key, organization, batch_jobs, batch_uploads, batch_downloads)",
  labelNames: ["kind"] as const,
});

export const problems = new Counter({
  name: "buckeye_problems_total",
  help: "Problem answers (RFC 7807), by problem type slug (docs/api/errors.md)",
  labelNames: ["type"] as const,
});

/** Counted on every lookup, an answer from the body cache included, so tallied too. */
export const lookupAnswers = new TalliedCounter(
  "buckeye_lookup_answers_total",
  "Single and inline lookups answered on the answering thread, by resolved_by (failure for a problem)",
);

export const boundaryFileMatches = new Counter({
  name: "buckeye_boundary_file_matches_total",
  help: "Street addresses tried against the state's boundary file: matched, or the miss reason (boundary_file_miss)",
  labelNames: ["outcome"] as const,
});

export const geocoderRequests = new Counter({
  name: "buckeye_geocoder_requests_total",
  help: "Requests to the Census geocoder, by endpoint (single, batch) and outcome (ok, error, refused while the circuit is open)",
  labelNames: ["endpoint", "outcome"] as const,
});

export const geocoderSeconds = new Histogram({
  name: "buckeye_geocoder_request_duration_seconds",
  help: "Time the Census geocoder took to answer (retries included), by endpoint",
  labelNames: ["endpoint"] as const,
  buckets: UPSTREAM_SECONDS_BUCKETS,
});

export const batchRows = new Counter({
  name: "buckeye_batch_rows_total",
  help: "Rows of stored batch jobs resolved, by outcome (answered, failed); rate() of it is rows per second",
  labelNames: ["outcome"] as const,
});

export const batchChunkAttempts = new Counter({
  name: "buckeye_batch_chunk_attempts_total",
  help: "Chunks of stored batch jobs taken to be worked, by attempt: first, or retry (claimed again after its lease lapsed: its runner's thread failed, or its process stopped)",
  labelNames: ["attempt"] as const,
});

export const batchRowsAbandoned = new Counter({
  name: "buckeye_batch_rows_abandoned_total",
  help: "Rows of stored batch jobs given up after their chunk's last attempt (BATCH_CHUNK_MAX_ATTEMPTS), failed as batch-row-abandoned",
});

export const webhookAttempts = new Counter({
  name: "buckeye_webhook_attempts_total",
  help: "Webhook delivery attempts, by outcome (delivered, retry, failed, gone)",
  labelNames: ["outcome"] as const,
});

export const poolTaskSeconds = new Histogram({
  name: "buckeye_pool_task_duration_seconds",
  help: "Time a worker-pool task took from submission to its answer (queue wait included), by lane",
  labelNames: ["lane"] as const,
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
});

export const poolThreadsOutOfMemory = new Counter({
  name: "buckeye_pool_threads_out_of_memory_total",
  help: "Pool threads that ran out of heap (ERR_WORKER_OUT_OF_MEMORY) and were replaced by a fresh one, by lane; the task they ran failed",
  labelNames: ["lane"] as const,
});

// Series that alerts and rates read exist from the start, at 0, rather than appearing with their first count.
for (const attempt of ["first", "retry"]) batchChunkAttempts.inc({ attempt }, 0);
for (const lane of ["interactive", "batch"]) poolThreadsOutOfMemory.inc({ lane }, 0);

let defaultsCollected = false;

/** Node's own metrics (heap, GC, event-loop delay, handles), once per process. */
function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ prefix: "buckeye_", eventLoopMonitoringPrecision: 10 });
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics on its own listener: the process's registry and the service's scrape-time
 * gauges (`scraped`), in the Prometheus text format. Nothing else answers there.
 */
export async function serveMetrics(host: string, port: number, scraped: Registry): Promise<MetricsListener> {
  collectProcessMetrics();
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("only GET /metrics is served here\n");
      return;
    }
    Promise.all([register.metrics(), scraped.metrics()]).then(
      ([own, service]) => res.writeHead(200, { "content-type": register.contentType }).end(`${own}\n${service}`),
      (error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(`metrics failed: ${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const { address, port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(":") ? `[${address}]` : address}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export { Registry };
