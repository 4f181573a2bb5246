/**
 * Everything address, coordinate and batch lookups need, assembled once per service: the lookup
 * pipeline (src/lookup/) and the batch job runner that feeds it stored chunks.
 */
import type { Config } from "../config.ts";
import type { GeoPool } from "../lookup/worker-pool.ts";
import type { BoundaryIndex } from "../boundaries/probe.ts";
import type { Geocoder } from "../geo/geocoder.ts";
import { createPipeline, type LookupsConfig } from "../lookup/lookups.ts";
import type { Pipeline } from "../lookup/pipeline.ts";
import type { ResolverData } from "../lookup/resolve-item.ts";
import type { RecordCurrency } from "../rates/records.ts";
import type { Dialect } from "../store/connect.ts";
import type { Db } from "../store/database.ts";
import { BatchJobRunner } from "./job-runner.ts";

export interface AddressLookups {
  pipeline: Pipeline;
  pool: GeoPool;
  geocoder: Geocoder;
  runner: BatchJobRunner;
  chunkRows: number;
  close(): Promise<void>;
}

export function createAddressLookups(
  config: LookupsConfig & Pick<Config, "batch">,
  store: { db: Db; dialect: Dialect },
  clock: { now: () => Date; currency: () => RecordCurrency | Promise<RecordCurrency>; rates: () => ResolverData },
  boundaries: BoundaryIndex | null,
  log: (entry: Record<string, unknown>) => void,
): AddressLookups {
  const pipeline = createPipeline(config, clock.rates, boundaries, log);
  const runner = new BatchJobRunner({
    db: store.db,
    dialect: store.dialect,
    pipeline,
    leaseMs: config.batch.leaseMs,
    pollMs: config.batch.pollMs,
    // Enough chunks in flight that both the pool and the geocoder stay busy.
    loops: Math.max(2, config.workerThreads * 2),
    groupRows: config.geocoder.batch.rowsPerRequest,
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
