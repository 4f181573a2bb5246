// Task file the pool's interactive lane uses when Buckeye runs from its TypeScript sources (bin/buckeye.js, vitest,
// tsx): this thread registers tsx itself and then loads workers/geo.ts. Compiled JS uses
// workers/geo.js directly; src/worker-entries.ts says which file loads when, and why.
import { register } from "tsx/esm/api";

register();
const tasks = await import("./geo.ts");

export const { warm, locate } = tasks;
