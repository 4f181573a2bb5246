/**
 * The service's gauges, read when Prometheus scrapes and never per request (docs/operations/metrics.md):
 * the geocoder's circuit, each pool lane's queue and threads, batch jobs by state and the oldest queued
 * job's age, unfinished jobs and their rows per organization (bounded: the top ones and `other`), the webhook outbox's depth and oldest pending delivery's age, how old the rate data is and
 * which boundary file is active. They live in a registry of this service's own, so a process that builds
 * a service twice (the tests) never registers a gauge twice; src/metrics.ts serves it beside the
 * process's counters.
 */
import { Gauge, Registry } from "prom-client";
import type { AddressLookups } from "./batch/address-lookups.ts";
import type { RatesFreshness } from "./freshness/rates-freshness.ts";
import type { Db } from "./store/database.ts";
import { organizationShares, OTHER_ORGANIZATIONS, TOP_ORGANIZATIONS, UNFINISHED_STATES, type OrganizationShare } from "./batch/organization-shares.ts";
import { readJobStates, readOrganizationJobs, readOutboxDepth } from "./store/metrics.repository.ts";

export interface ServiceMetricsParts {
  db: Db;
  now: () => Date;
  lookups: AddressLookups;
  freshness: () => RatesFreshness | Promise<RatesFreshness>;
}

const CIRCUIT_STATES = ["closed", "open", "half-open"] as const;
const JOB_STATES = ["queued", "running", "completed"] as const;

const secondsSince = (now: Date, iso: string | null) => (iso === null ? 0 : Math.max(0, (now.getTime() - Date.parse(iso)) / 1000));

export function serviceMetrics(parts: ServiceMetricsParts): Registry {
  const registry = new Registry();
  const { db, now, lookups } = parts;
  new Gauge({
    name: "buckeye_geocoder_circuit_state",
    help: "The single-address geocoder's circuit: 1 for the state it is in (closed, open, half-open), 0 for the others",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const state = lookups.service.geocoder.breaker.state;
      for (const s of CIRCUIT_STATES) this.set({ state: s }, s === state ? 1 : 0);
    },
  });
  const lanes = () => lookups.pool.lanes();
  new Gauge({
    name: "buckeye_pool_queue_size",
    help: "Tasks waiting for a thread, by lane (interactive, batch); a lane appears once its threads started",
    labelNames: ["lane"],
    registers: [registry],
    async collect() {
      for (const l of await lanes()) this.set({ lane: l.lane }, l.queued);
    },
  });
  new Gauge({
    name: "buckeye_pool_threads",
    help: "Threads running, by lane",
    labelNames: ["lane"],
    registers: [registry],
    async collect() {
      for (const l of await lanes()) this.set({ lane: l.lane }, l.threads);
    },
  });
  new Gauge({
    name: "buckeye_pool_utilization_ratio",
    help: "Share of the lane's thread time spent running tasks since it started (piscina's utilization), by lane",
    labelNames: ["lane"],
    registers: [registry],
    async collect() {
      for (const l of await lanes()) this.set({ lane: l.lane }, l.utilization);
    },
  });
  // One read of the jobs serves both job gauges of a scrape.
  let jobs: ReturnType<typeof readJobStates> | null = null;
  const jobStates = () => (jobs ??= readJobStates(db).finally(() => queueMicrotask(() => (jobs = null))));
  new Gauge({
    name: "buckeye_batch_jobs",
    help: "Stored batch jobs, by state (queued, running, completed)",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const { byState } = await jobStates();
      for (const state of JOB_STATES) this.set({ state }, byState.find((s) => s.state === state)?.jobs ?? 0);
    },
  });
  new Gauge({
    name: "buckeye_batch_oldest_queued_job_age_seconds",
    help: "How long the oldest queued batch job has waited; 0 when none waits",
    registers: [registry],
    async collect() {
      this.set(secondsSince(now(), (await jobStates()).oldestQueuedAt));
    },
  });
  // Per organization: the top ones by rows in unfinished jobs, and `other` (organization-shares.ts); a series
  // whose organization fell out of the top or finished its jobs is dropped, not left at its last value.
  let shares: Promise<OrganizationShare[]> | null = null;
  const organizationJobs = () => (shares ??= readOrganizationJobs(db).then((rows) => organizationShares(rows)).finally(() => queueMicrotask(() => (shares = null))));
  new Gauge({
    name: "buckeye_batch_organization_jobs",
    help: `Queued and running batch jobs per organization (its id), for the ${TOP_ORGANIZATIONS} with the most rows in them; every other organization is summed under organization="${OTHER_ORGANIZATIONS}"`,
    labelNames: ["organization", "state"],
    registers: [registry],
    async collect() {
      const current = await organizationJobs();
      this.reset();
      for (const share of current) for (const state of UNFINISHED_STATES) this.set({ organization: share.organization, state }, share.jobs[state]);
    },
  });
  new Gauge({
    name: "buckeye_batch_organization_rows",
    help: `Rows of queued and running batch jobs per organization (as buckeye_batch_organization_jobs), by progress: done (resolved so far) or left`,
    labelNames: ["organization", "progress"],
    registers: [registry],
    async collect() {
      const current = await organizationJobs();
      this.reset();
      for (const share of current) {
        this.set({ organization: share.organization, progress: "done" }, share.rowsDone);
        this.set({ organization: share.organization, progress: "left" }, share.rowsLeft);
      }
    },
  });
  let outbox: ReturnType<typeof readOutboxDepth> | null = null;
  const outboxDepth = () => (outbox ??= readOutboxDepth(db).finally(() => queueMicrotask(() => (outbox = null))));
  new Gauge({
    name: "buckeye_webhook_outbox_pending",
    help: "Webhook deliveries pending (not yet delivered, failed or cancelled)",
    registers: [registry],
    async collect() {
      this.set((await outboxDepth()).pending);
    },
  });
  new Gauge({
    name: "buckeye_webhook_oldest_pending_age_seconds",
    help: "Age of the oldest pending webhook delivery; 0 when none is pending",
    registers: [registry],
    async collect() {
      this.set(secondsSince(now(), (await outboxDepth()).oldestPendingAt));
    },
  });
  new Gauge({
    name: "buckeye_data_age_seconds",
    help: "Seconds since the day of the last successful reconciliation with the state's rate file (the shipped data's, before any)",
    registers: [registry],
    async collect() {
      this.set(secondsSince(now(), `${(await parts.freshness()).lastReconciled}T00:00:00Z`));
    },
  });
  new Gauge({
    name: "buckeye_data_confirmed_through_timestamp_seconds",
    help: "The last day the rates are confirmed through (Unix time of its start, UTC)",
    registers: [registry],
    async collect() {
      this.set(Date.parse(`${(await parts.freshness()).confirmedThrough}T00:00:00Z`) / 1000);
    },
  });
  new Gauge({
    name: "buckeye_boundary_file_info",
    help: "The active state boundary file: 1, with its version as a label (none when no file is imported)",
    labelNames: ["version"],
    registers: [registry],
    async collect() {
      this.reset();
      this.set({ version: (await lookups.service.boundaryVersion()) ?? "none" }, 1);
    },
  });
  return registry;
}
