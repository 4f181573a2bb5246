/**
 * Everything address, coordinate and batch lookups need, assembled once per service: the geo
 * worker pool, the geocoder provider with its shared concurrency limit, and the batch job
 * runner. The HTTP routes, the CLI and the benchmark all use this one assembly.
 */
import PQueue from "p-queue";
import type { Config } from "../config.ts";
import { findBoundaryFiles } from "../geo/boundary-files.ts";
import { CensusGeocoder } from "../geo/census-geocoder.ts";
import type { Geocoder } from "../geo/geocoder.ts";
import { GeoPool } from "../geo/pool.ts";
import type { RecordCurrency } from "../rates/records.ts";
import { NO_OVERLAY, type RatesOverlay } from "../rates/overlay-periods.ts";
import type { Dialect } from "../store/connect.ts";
import type { Db } from "../store/database.ts";
import { BatchJobRunner } from "./job-runner.ts";
import type { Pipeline } from "./pipeline.ts";

export interface AddressLookups {
  pipeline: Pipeline;
  pool: GeoPool;
  geocoder: Geocoder;
  runner: BatchJobRunner;
  chunkRows: number;
  close(): Promise<void>;
}

export type LookupsConfig = Pick<Config, "dataDir" | "geoDataDir" | "workerThreads" | "geocoder" | "batch">;

export function createGeocoder(config: LookupsConfig): CensusGeocoder {
  return new CensusGeocoder({
    baseUrl: config.geocoder.censusUrl,
    timeoutMs: config.geocoder.timeoutMs,
    cacheSize: config.geocoder.cacheSize,
    failureThreshold: config.geocoder.failureThreshold,
    cooldownMs: config.geocoder.cooldownMs,
    maxSockets: config.geocoder.concurrency,
  });
}

export function createPipeline(config: LookupsConfig, overlay: () => RatesOverlay = () => NO_OVERLAY): Pipeline {
  return {
    pool: new GeoPool({ threads: config.workerThreads, dataDir: config.dataDir, boundaryFiles: findBoundaryFiles(config.geoDataDir) }),
    geocoder: createGeocoder(config),
    geocodeQueue: new PQueue({ concurrency: config.geocoder.concurrency }),
    overlay,
  };
}

export function createAddressLookups(
  config: LookupsConfig,
  store: { db: Db; dialect: Dialect },
  clock: { now: () => Date; currency: () => RecordCurrency | Promise<RecordCurrency>; overlay: () => RatesOverlay },
  log: (entry: Record<string, unknown>) => void,
): AddressLookups {
  const pipeline = createPipeline(config, clock.overlay);
  const runner = new BatchJobRunner({
    db: store.db,
    dialect: store.dialect,
    pipeline,
    leaseMs: config.batch.leaseMs,
    pollMs: config.batch.pollMs,
    // Enough chunks in flight that both the pool and the geocoder stay busy.
    loops: Math.max(2, config.workerThreads * 2),
    now: () => clock.now(),
    currency: () => clock.currency(),
    log,
  });
  runner.start();
  return {
    pipeline,
    pool: pipeline.pool,
    geocoder: pipeline.geocoder,
    runner,
    chunkRows: config.batch.chunkRows,
    close: async () => {
      await runner.stop();
      await pipeline.pool.close();
    },
  };
}
