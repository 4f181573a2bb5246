/**
 * The service's background work, assembled once over the rate source it is given: the delivery
 * actor and the scheduled jobs. createService builds it without starting anything;
 * startService starts the actor and the schedules; close() stops the schedules and drains the actor.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Dialect, Store } from "../store/connect.ts";
import { runBoundaryImport } from "../boundaries/boundary-job.ts";
import type { Db } from "../store/database.ts";
import { DeliveryActor, type DeliverySettings } from "../webhooks/delivery-actor.ts";
import type { Logger } from "../log.ts";
import type { SecretBox } from "../webhooks/secret-box.ts";
import { publishCertificateReminders } from "./certificate-expiry.ts";
import { publishFilingReminders } from "./filing-reminders.ts";
import { publishRateChanges } from "./rate-changes.ts";
import type { RateData } from "../freshness/rate-data.ts";
import { reconcile } from "./reconcile.ts";
import { sweepRetention } from "./retention.ts";
import { finishJobRun, takeJobRun } from "../store/job-runs.repository.ts";
import { Scheduler, type JobRun, type OccurrenceLedger } from "./scheduler.ts";
import type { Clock } from "../clock.ts";
import type { Config, JobsConfig } from "../config.ts";

export const JOB_NAMES = ["reconcile", "rate-changes", "filing-reminders", "certificate-expiry", "boundary-import", "retention"] as const;
export type JobName = (typeof JOB_NAMES)[number];

export interface BackgroundOptions {
  db: Db;
  dialect: Dialect;
  /** The raw SQLite handle, for the boundary import's bulk writes. */
  sqlite?: Store["sqlite"];
  /** Where the boundary import's own thread connects (import-thread.ts). */
  databaseUrl: string;
  dataDir: string;
  /** The rate source reconciliation records into and the rate-change job reads (built before the background). */
  rateData: RateData;
  deliveries: DeliverySettings;
  /** Opens the stored signing secrets for the delivery actor. */
  secrets: SecretBox;
  jobs: JobsConfig;
  /** Record rate changes the state did not announce: set only by `buckeye reconcile --force`, an operator's confirmation; the schedule never forces. */
  forceReconcile?: boolean;
  clock?: Clock;
  log?: Logger;
}

/** The options every caller takes the same way from configuration, the store, the rate source and the secret box. */
export function backgroundOptionsFrom(
  config: Pick<Config, "databaseUrl" | "dataDir" | "webhooks" | "jobs">,
  store: Pick<Store, "db" | "dialect" | "sqlite">,
  rateData: RateData,
  secrets: SecretBox,
): Omit<BackgroundOptions, "clock" | "log"> {
  return {
    db: store.db,
    dialect: store.dialect,
    ...(store.sqlite && { sqlite: store.sqlite }),
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    rateData,
    deliveries: config.webhooks,
    secrets,
    jobs: config.jobs,
  };
}

export interface Background {
  actor: DeliveryActor;
  scheduler: Scheduler<JobName>;
  start(): void;
  stop(): Promise<void>;
}

/** County FIPS → SST jurisdiction code of the transit district covering part of it. */
/** County FIPS → the SST code of its partial transit district, from data/transit-districts.json. */
export function readDistrictCodes(dataDir: string): Map<string, string> {
  const districts = JSON.parse(readFileSync(join(dataDir, "transit-districts.json"), "utf8")) as Array<{ fips: string; sst_code: string }>;
  return new Map(districts.map((d) => [d.fips, d.sst_code]));
}

export function createBackground(options: BackgroundOptions): Background {
  const { db, clock, log } = options;
  const { rateData } = options;
  const actor = new DeliveryActor({ db, dialect: options.dialect, settings: options.deliveries, secrets: options.secrets, ...(log && { log }), ...(clock && { now: () => clock.now() }) });
  const districtCodes = readDistrictCodes(options.dataDir);
  const published = <R>(run: JobRun<R>): JobRun<R> => async (at) => {
    const result = await run(at);
    actor.wake();
    return result;
  };
  const jobs: Record<JobName, JobRun> = {
    reconcile: published((at) =>
      reconcile(
        { db, rateData, districtCodes, source: options.jobs.reconcileSource, sha256: options.jobs.reconcileSha256, maxBytes: options.jobs.reconcileMaxBytes, force: options.forceReconcile ?? false },
        at,
      ),
    ),
    "rate-changes": published((at) => publishRateChanges({ db, rateData, shippedLastReconciled: rateData.shippedFreshness.last_reconciled }, at)),
    "filing-reminders": published((at) => publishFilingReminders(db, at)),
    "certificate-expiry": published((at) => publishCertificateReminders(db, at)),
    "boundary-import": () =>
      runBoundaryImport({ db, sqlite: options.sqlite }, options.jobs.boundarySource, options.databaseUrl, { caps: options.jobs.boundaryCaps, sha256: options.jobs.boundarySha256, dataDir: options.dataDir }),
    retention: (at) => sweepRetention(db, options.jobs.retention, at),
  };
  // The boundary import is scheduled only when there is a source to import from.
  const schedules = { ...options.jobs.schedules, "boundary-import": options.jobs.boundarySource === null ? null : options.jobs.boundarySchedule };
  const stamp = () => clock?.now() ?? new Date();
  // Every instance runs the same schedules; the job_runs row decides which one runs each occurrence.
  const ledger: OccurrenceLedger<JobName> = {
    take: (name, scheduledFor) => takeJobRun(db, { name, scheduledFor }, actor.instance, stamp()),
    finish: (name, scheduledFor, error) =>
      finishJobRun(db, { name, scheduledFor }, error === null ? "succeeded" : "failed", stamp(), error === null ? null : String(error)),
  };
  const scheduler = new Scheduler<JobName>({ jobs, schedules, ledger, ...(clock && { clock }), ...(log && { log }) });
  return {
    actor,
    scheduler,
    start() {
      actor.start();
      scheduler.start();
    },
    async stop() {
      await scheduler.stop();
      await actor.stop();
    },
  };
}
