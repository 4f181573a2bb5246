/**
 * The lookup pipeline assembled from configuration: the worker pool, the geocoders (single, with
 * its shared concurrency limit, and batch), the boundary file index, and where the live rates come from. The service, the CLI and the
 * benchmarks all build it here.
 */
import PQueue from "p-queue";
import type { BoundaryIndex } from "../boundaries/probe.ts";
import type { Config } from "../config.ts";
import { errorFields } from "../error-fields.ts";
import { findBoundaryFiles } from "../geo/boundary-files.ts";
import { censusBatchOptions, geocodeBatch } from "../geo/census-batch-geocoder.ts";
import { CensusGeocoder } from "../geo/census-geocoder.ts";
import type { Pipeline } from "./pipeline.ts";
import type { ResolverData } from "./resolve-item.ts";
import { GeoPool } from "./worker-pool.ts";

export type LookupsConfig = Pick<Config, "geoDataDir" | "workerThreads" | "geocoder">;

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

/** Where the pipeline reports a worker pool error that belongs to no lookup (a JSON log line). */
export type PoolErrorLog = (entry: Record<string, unknown>) => void;

export function createPipeline(config: LookupsConfig, rates: () => ResolverData, boundaries: BoundaryIndex | null, log: PoolErrorLog): Pipeline {
  const batchOptions = censusBatchOptions(config.geocoder);
  const onError = (error: unknown): void => log({ level: "warn", msg: "worker pool error outside any lookup", ...errorFields(error) });
  return {
    pool: new GeoPool({ threads: config.workerThreads, boundaryFiles: findBoundaryFiles(config.geoDataDir), onError }),
    geocoder: createGeocoder(config),
    geocodeQueue: new PQueue({ concurrency: config.geocoder.concurrency }),
    geocodeBatch: (addresses, signal) => geocodeBatch(addresses, { ...batchOptions, ...(signal && { signal }) }),
    boundaries,
    rates,
  };
}
