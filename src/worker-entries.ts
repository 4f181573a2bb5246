/**
 * Which file a thread or a child process loads for an entry in workers/, for the three ways Buckeye runs:
 *
 * - compiled (`npm start` runs dist/): the entry's .js, in dist/workers/ beside this file's compiled copy;
 * - from the TypeScript sources under Node (bin/buckeye.js, vitest, tsx): a thread loads the entry's
 *   `-loader.mjs`, which registers tsx inside the thread and then loads the .ts, because a new thread
 *   does not carry a loader its parent registered at run time (bin/buckeye.js's `register()`) and vitest
 *   registers none; a child process runs the .ts with `--import tsx`;
 * - under Deno: the .ts itself, which Deno runs (tsx's loader hooks, registered in a Deno worker, break
 *   its module loading; docs/operations/deno.md).
 */
import { fileURLToPath } from "node:url";

const FROM_SOURCES = import.meta.url.endsWith(".ts");
export const IN_DENO = "Deno" in globalThis;

/** The module a worker thread (piscina's or node:worker_threads') loads for workers/<name>.ts. */
export function threadEntry(name: string): URL {
  const file = IN_DENO ? `${name}.ts` : FROM_SOURCES ? `${name}-loader.mjs` : `${name}.js`;
  return new URL(`../workers/${file}`, import.meta.url);
}

/** The node arguments that run workers/<name>.ts in a child process, ahead of the entry's own. */
export function processEntry(name: string): string[] {
  const entry = fileURLToPath(new URL(`../workers/${name}.${FROM_SOURCES ? "ts" : "js"}`, import.meta.url));
  // tsx is resolved from here rather than from whatever directory the server runs in.
  return FROM_SOURCES ? ["--import", import.meta.resolve("tsx"), entry] : [entry];
}
