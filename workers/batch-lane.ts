/**
 * Piscina task file of the lookup pool's batch lane (src/lookup/worker-pool.ts): resolving job chunks
 * and large inline batches (src/lookup/worker-tasks.ts, batch-tasks.ts) and the job queue's work
 * (src/batch/job-tasks.ts: uploads read and stored, claims, chunks given up), over the thread's one
 * store connection. The interactive lane loads workers/geo.ts, which holds none of this. Thin on purpose.
 */
import { workerData } from "piscina";
import { createJobTasks, storedChunks } from "../src/batch/job-tasks.ts";
import { createGeoTasks, threadStore, type GeoWorkerData } from "../src/lookup/worker-tasks.ts";

const data = workerData as GeoWorkerData;
const openedStore = threadStore(data);
const tasks = createGeoTasks(data, { openedStore, leasedChunks: storedChunks });
const jobs = createJobTasks(openedStore);

export const resolveChunks = tasks.resolveChunks;
export const completeChunks = tasks.completeChunks;
export const readBatchFile = jobs.readBatchFile;
export const acceptJob = jobs.acceptJob;
export const claimGroup = jobs.claimGroup;
export const abandonChunk = jobs.abandonChunk;
