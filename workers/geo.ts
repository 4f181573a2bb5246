/**
 * Piscina task file for both lanes of the lookup pool (src/lookup/worker-pool.ts). Thin on purpose:
 * the tasks live in src/lookup/worker-tasks.ts and, for the job queue, src/batch/job-tasks.ts, which
 * share the thread's store connection; this thread's copy of the polygons is made once.
 */
import { workerData } from "piscina";
import { createJobTasks, storedChunks } from "../src/batch/job-tasks.ts";
import { createGeoTasks, threadStore, type GeoWorkerData } from "../src/lookup/worker-tasks.ts";

const data = workerData as GeoWorkerData;
const openedStore = threadStore(data);
const tasks = createGeoTasks(data, openedStore, storedChunks);
const jobs = createJobTasks(openedStore);

export const warm = tasks.warm;
export const locate = tasks.locate;
export const readBatchFile = jobs.readBatchFile;
export const resolveChunks = tasks.resolveChunks;
export const completeChunks = tasks.completeChunks;
export const acceptJob = jobs.acceptJob;
export const claimGroup = jobs.claimGroup;
export const abandonChunk = jobs.abandonChunk;
