// @ts-check
/**
 * Whether the compiled build in `dist/` may be run instead of the TypeScript sources, for the two entry
 * points that choose: `npm start` (scripts/start.js) and the operator CLI (bin/buckeye.js). A build is
 * current when its entry point was written after every file it is compiled from was last changed: the
 * compiler rewrites every output file on each run, so one output's time is the build's. A `dist/` older
 * than its sources would silently serve code the operator has since edited, so it is never run without
 * saying so. Plain JavaScript that imports no package: it runs before anything is compiled, on a
 * production install too.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const COMPILED_CLI = join(ROOT, "dist", "src", "cli.js");
/** The server bundled from the compiled build (scripts/bundle-server.js), what `npm start` serves. */
export const SERVER_BUNDLE = join(ROOT, "dist", "bundle", "cli.js");

// What tsconfig.build.json compiles, and the two files that say how.
const SOURCES = ["src", "workers", "migrations", "tsconfig.json", "tsconfig.build.json"];

/** The newest source file and its time, walking the folders (a few hundred files, a few milliseconds). */
function newestSource() {
  let newest = { path: "", mtimeMs: 0 };
  const visit = (/** @type {string} */ path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (stat.mtimeMs > newest.mtimeMs) {
      newest = { path, mtimeMs: stat.mtimeMs };
    }
  };
  for (const entry of SOURCES) visit(join(ROOT, entry));
  return newest;
}

/**
 * The state of `dist/`: "current", "missing", or "stale" with the first source found newer than the
 * build (relative to the checkout), for the line that says why the sources are served instead.
 * @returns {{ state: "current" | "missing" } | { state: "stale", newer: string }}
 */
export function compiledBuild() {
  const built = statSync(COMPILED_CLI, { throwIfNoEntry: false });
  if (!built) return { state: "missing" };
  const newest = newestSource();
  return newest.mtimeMs > built.mtimeMs ? { state: "stale", newer: newest.path.slice(ROOT.length) } : { state: "current" };
}

/** Whether `dist/bundle/` was bundled from the compiled build as it is now (written after dist/src/cli.js). */
export function bundleIsCurrent() {
  const bundled = statSync(SERVER_BUNDLE, { throwIfNoEntry: false });
  const built = statSync(COMPILED_CLI, { throwIfNoEntry: false });
  return Boolean(bundled && built && bundled.mtimeMs >= built.mtimeMs);
}

/**
 * TypeScript's compiler, when it is installed (not after `npm ci --omit=dev`). Found through the package's
 * manifest, which every TypeScript exports, rather than `typescript/bin/tsc`, which TypeScript 7's
 * `exports` map does not list, so resolving it fails even where the compiler is installed.
 * @returns {string | undefined}
 */
export function typescriptCompiler() {
  let manifest;
  try {
    manifest = createRequire(join(ROOT, "package.json")).resolve("typescript/package.json");
  } catch {
    return undefined;
  }
  const { bin } = /** @type {{ bin?: string | Record<string, string> }} */ (JSON.parse(readFileSync(manifest, "utf8")));
  const relative = typeof bin === "string" ? bin : bin?.tsc;
  const tsc = relative && join(manifest, "..", relative);
  return tsc && existsSync(tsc) ? tsc : undefined;
}
