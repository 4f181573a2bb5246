/**
 * Piscina task file of the lookup pool's batch lane (src/lookup/worker-pool.ts): resolving job chunks
 * and large inline batches (src/lookup/worker-tasks.ts, batch-tasks.ts) and the job queue's work
 * (src/batch/job-tasks.ts: uploads read and stored, claims, chunks given up) and an orders job's chunks
 * (src/batch/order-tasks.ts), over the thread's one
 * store connection. The interactive lane loads workers/geo.ts, which holds none of this. Thin on purpose.
 */
import { workerData } from "piscina";
import { yieldThisThread } from "../src/lookup/batch-priority.ts";
import type { GeoWorkerData } from "../src/lookup/worker-tasks.ts";

// Lowered before the lane's modules load: loading and compiling them is a new thread's first hundred
// milliseconds or so of CPU, which at the service's priority were taken from the answering thread
// during a service's first job.
yieldThisThread();
const { createJobTasks, storedChunks } = await import("../src/batch/job-tasks.ts");
const { createOrderTasks } = await import("../src/batch/order-tasks.ts");
const { createGeoLane, threadStore } = await import("../src/lookup/worker-tasks.ts");

const data = workerData as GeoWorkerData;
const openedStore = threadStore(data);
const { tasks, ladder } = createGeoLane(data, { openedStore, leasedChunks: storedChunks });
const jobs = createJobTasks(openedStore);
const orders = createOrderTasks(openedStore, ladder!, storedChunks);

export const resolveChunks = tasks.resolveChunks;
export const completeChunks = tasks.completeChunks;
export const readBatchFile = jobs.readBatchFile;
export const acceptJob = jobs.acceptJob;
export const claimGroup = jobs.claimGroup;
export const abandonChunk = jobs.abandonChunk;
export const resolveOrders = orders.resolveOrders;
export const completeOrders = orders.completeOrders;
