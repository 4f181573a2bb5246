/**
 * The lookup service (src/lookup/lookup-service.ts), the batch job service (job-service.ts) and the
 * batch job runner that feeds the lookup service the jobs' stored chunks (and the batch lane an orders
 * job's, order-tasks.ts), assembled once per service.
 */
import type { Config } from "../config.ts";
import type { BoundaryIndex } from "../boundaries/boundary-index.interface.ts";
import type { BatchSlots } from "../geo/census-batch-geocoder.ts";
import { LookupService, type LookupsConfig } from "../lookup/lookup-service.ts";
import type { ResolverData } from "../lookup/resolver-inputs.ts";
import type { RatesOverlay } from "../rates/overlay-periods.ts";
import type { RecordFreshness } from "../rates/records.ts";
import type SQLite from "better-sqlite3";
import type { Db } from "../store/database.ts";
import { BatchJobRunner, type JobRunnerOptions } from "./job-runner.ts";
import { BatchJobService } from "./job-service.ts";
import type { JobQueue } from "./job-queue.ts";
import { StoredJobQueue } from "./stored-job-queue.ts";

export interface AddressLookups {
  service: LookupService;
  jobs: BatchJobService;
  pool: LookupService["pool"];
  runner: BatchJobRunner;
  close(): Promise<void>;
}

export type BatchConfig = LookupsConfig & Pick<Config, "batch" | "databaseUrl">;

/** What the lookup service and the runner read: the clock, how current the rates are, the live and the shipped tables. */
export interface LookupSources {
  now: () => Date;
  freshness: () => RecordFreshness | Promise<RecordFreshness>;
  rates: () => ResolverData & { overlay: RatesOverlay };
  shipped: ResolverData;
}

/** The lookup service as the service and `buckeye batch` both build it. */
export function createLookupService(
  config: BatchConfig,
  sources: LookupSources,
  boundaries: BoundaryIndex | null,
  log: (entry: Record<string, unknown>) => void,
  batchSlots?: BatchSlots,
): LookupService {
  return new LookupService({
    config,
    databaseUrl: config.databaseUrl,
    rates: sources.rates,
    shipped: sources.shipped,
    boundaries,
    now: sources.now,
    ...(batchSlots && { batchSlots }),
    log,
  });
}

/** The runner over `queue`, with the settings every queue's runner has; `orders`: how it works an orders job's chunks, where there can be any. */
export function createRunner(
  config: BatchConfig,
  queue: JobQueue,
  service: LookupService,
  sources: Pick<LookupSources, "freshness">,
  log: (entry: Record<string, unknown>) => void,
  orders?: JobRunnerOptions["orders"],
): BatchJobRunner {
  return new BatchJobRunner({
    queue,
    lookups: service,
    leaseMs: config.batch.leaseMs,
    pollMs: config.batch.pollMs,
    // A group in the lane per batch thread, and one more stored or geocoded meanwhile.
    loops: config.batchThreads + 1,
    groupRows: config.geocoder.batch.rowsPerRequest,
    runningPerOrganization: config.batch.runningPerOrganization,
    maxAttempts: config.batch.maxChunkAttempts,
    freshness: () => sources.freshness(),
    ...(orders && { orders }),
    log,
  });
}

export function createAddressLookups(
  config: BatchConfig,
  store: { db: Db; sqlite?: SQLite.Database },
  /** `rateDataVersion`: what an orders job's answers cite (src/ledger/tax-service.ts `rateDataVersion`). */
  sources: LookupSources & { rateDataVersion: () => string },
  boundaries: BoundaryIndex | null,
  log: (entry: Record<string, unknown>) => void,
  /** The Census batch slots the instances share (with REDIS_URL); absent: this process's cap alone. */
  batchSlots?: BatchSlots,
): AddressLookups {
  let runner: BatchJobRunner | null = null;
  const service = createLookupService(config, sources, boundaries, log, batchSlots);
  const jobs = new BatchJobService({
    db: store.db,
    pool: service.pool,
    now: sources.now,
    chunkRows: config.batch.chunkRows,
    batchThreadHeapMb: config.batchThreadHeapMb,
    jobSubmitted: () => runner?.notify(),
    jobDeleted: (id) => runner?.jobDeleted(id),
    jobCaps: { inFlightPerOrganization: config.batch.inFlightPerOrganization, storedPerOrganization: config.batch.storedPerOrganization },
    uploadBudget: { perOrganization: config.batch.uploadBytesPerOrganization, perProcess: config.batch.uploadBytesPerProcess },
    downloadsPerOrganization: config.batch.downloadsPerOrganization,
    log,
  });
  const queue = new StoredJobQueue({ db: store.db, ...(store.sqlite && { sqlite: store.sqlite }), jobs, now: () => sources.now(), log });
  // An orders job's chunks: read, placed, calculated and recorded in the batch lane (order-tasks.ts), its addresses geocoded here.
  const orders: JobRunnerOptions["orders"] = (chunks, freshness, signal, waits) =>
    service.resolveInSteps({ first: "resolveOrders", then: "completeOrders" }, { chunks, freshness, rateDataVersion: sources.rateDataVersion() }, signal, waits);
  runner = createRunner(config, queue, service, sources, log, orders);
  // Started with the other actors by startService, never while being built.
  const built = runner;
  return {
    service,
    jobs,
    pool: service.pool,
    runner: built,
    close: async () => {
      await built.stop();
      await jobs.close();
      await service.close();
    },
  };
}
