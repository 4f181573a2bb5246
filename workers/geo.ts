/**
 * Piscina task file for both lanes of the lookup pool (src/lookup/worker-pool.ts). Thin on purpose:
 * the tasks live in src/lookup/worker-tasks.ts; this thread's copy of the polygons is made once.
 */
import { workerData } from "piscina";
import { createGeoTasks, type GeoWorkerData } from "../src/lookup/worker-tasks.ts";

const tasks = createGeoTasks(workerData as GeoWorkerData);

export const warm = tasks.warm;
export const locate = tasks.locate;
export const readBatchFile = tasks.readBatchFile;
export const resolveChunks = tasks.resolveChunks;
export const completeChunks = tasks.completeChunks;
export const acceptJob = tasks.acceptJob;
export const claimGroup = tasks.claimGroup;
export const abandonChunk = tasks.abandonChunk;
