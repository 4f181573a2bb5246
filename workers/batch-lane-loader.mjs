// Task file the pool's batch lane uses when Buckeye runs from its TypeScript sources (bin/buckeye.js,
// vitest, tsx): this thread registers tsx itself and then loads workers/batch-lane.ts (see geo-loader.mjs).
import { register } from "tsx/esm/api";

register();
const tasks = await import("./batch-lane.ts");

export const { resolveChunks, completeChunks, readBatchFile, acceptJob, claimGroup, abandonChunk, resolveOrders, completeOrders } = tasks;
