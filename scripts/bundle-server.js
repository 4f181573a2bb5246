// @ts-check
/**
 * Bundles the compiled server (`dist/src/cli.js`, written by the TypeScript compiler) into `dist/bundle/`:
 * one minified module for what `buckeye serve` imports at start and a chunk for each module it imports
 * later (a CLI command, PostgreSQL, Redis), which `npm start` and the benchmarks run. The server is the
 * same code; what it saves is memory: V8 keeps each module's record and its source (for compiling
 * functions when first called), and the service's and its libraries' modules, one per file, held
 * about 8 MB more at start than this bundle (docs/operations/benchmarks.md, History).
 *
 * Left outside the bundle, loaded from node_modules as before: packages that find files of their own by
 * path (`piscina` starts its worker file from beside itself; `ioredis` names its own folder in error
 * stacks) or load a native addon (`better-sqlite3`, `pg` with its optional `pg-native`). The worker
 * threads and child processes keep loading `dist/workers/*.js` by path (src/worker-entries.ts), which
 * resolves from `dist/bundle/` as from `dist/src/`.
 *
 * esbuild is a devDependency (and tsx's own dependency). Run after the compiler: `npm run build` does both;
 * `node scripts/bundle-server.js [distFolder]` bundles a `dist/` compiled elsewhere.
 */
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./compiled-build.js";

export const EXTERNAL_PACKAGES = ["better-sqlite3", "pg", "pg-native", "piscina", "ioredis"];

/** Writes `<dist>/bundle/cli.js` and its chunks from `<dist>/src/cli.js`. */
export async function bundleServer(dist = join(ROOT, "dist")) {
  const { build, stop } = await import("esbuild");
  // Chunks are named by their content's hash: an earlier build's would otherwise stay beside the new ones.
  rmSync(join(dist, "bundle"), { recursive: true, force: true });
  await build({
    entryPoints: [join(dist, "src", "cli.js")],
    outdir: join(dist, "bundle"),
    bundle: true,
    splitting: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "node22",
    external: EXTERNAL_PACKAGES,
    // The CommonJS packages inside the bundle call require() for Node's own modules, which an ES module does not have.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: "warning",
  });
  // esbuild's service is a child process that outlives the build (about 170 MB resident) until stopped.
  await stop();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await bundleServer(process.argv[2] ? resolve(process.argv[2]) : undefined);
}
