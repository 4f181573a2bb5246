// Task file the geo pool uses when Buckeye runs from its TypeScript sources (npm start, vitest,
// tsx). On Node 20 a worker thread does not apply `--import tsx` from execArgv, so this thread
// registers tsx itself and then loads workers/geo.ts. Compiled JS uses workers/geo.js directly.
import { register } from "tsx/esm/api";

register();
const tasks = await import("./geo.ts");

export const { warm, locate, readBatchFile, resolveChunks, completeChunks, acceptJob, claimGroup } = tasks;
