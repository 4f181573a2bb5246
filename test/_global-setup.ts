/**
 * Before any test file, three things a test run needs once, not once per file or per process:
 * - boundary polygons where the service looks for them (test/_polygons.ts). A clone without ../shared has none
 *   until an operator runs `buckeye data fetch-geo`; the suite runs that same command once, into the same
 *   folder, and says so.
 * - their polygon index beside them. Without it every service that places a point, and every `buckeye batch`,
 *   builds the index in a child process as it starts (src/geo/open-polygon-index.ts), a second or more each,
 *   many times a run. When the folder has none (../shared holds polygons alone, and is read-only), var/test-geo
 *   gets links to the same polygon files and the index `buckeye data index-geo` writes for them, and every test
 *   file, and every process it starts, reads that folder as GEO_DATA_DIR. The tests of the index itself, and of
 *   a folder without one, use folders of their own (test/address-boundary-data.test.ts, boundary-build-process).
 * - a current `npm run build` in dist/, so that every `buckeye` process a test starts runs the compiled build,
 *   as bin/buckeye.js chooses it whenever it is newer than every source: a command then starts in a fraction
 *   of the time the sources take through tsx. An edited source makes it stale, and the CLI then runs the sources.
 */
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { findPolygonFiles, type PolygonFiles } from "../src/geo/polygon-files.ts";
import { readFreshPolygonIndex } from "../src/geo/polygon-index-file.ts";
import { compiledBuild, typescriptCompiler } from "../scripts/compiled-build.js";
import { geoDataDir } from "./_polygons.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "bin", "buckeye.js");
const run = promisify(execFile);

/** Fetches the polygons with the operator's command when the folder has none; returns whether it did. */
export async function fetchPolygonsIfMissing(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<boolean> {
  const dir = geoDataDir(env);
  const before = findPolygonFiles(dir);
  if (before.available) return false;
  log(`No boundary polygons: ${before.reason}.`);
  log(`Fetching them once with \`buckeye data fetch-geo --dir ${dir}\`, as an operator would (needs the Census Bureau's TIGER/Line site).`);
  try {
    const { stdout } = await run(process.execPath, [CLI, "data", "fetch-geo", "--dir", dir], { env, encoding: "utf8" });
    log(stdout.trim().split("\n")[0]!);
  } catch (error) {
    const { code, stderr } = error as { code?: number; stderr?: string };
    const why = (stderr ?? "").trim().split("\n").find((line) => line.startsWith("buckeye:")) ?? (stderr ?? "").trim().split("\n")[0];
    throw new Error(
      `the tests need boundary polygons in ${dir} and buckeye data fetch-geo failed (exit ${code}): ${why?.replace(/^buckeye: /, "").replace(/\.$/, "")}; put the county and place files there (or set GEO_DATA_DIR to a folder that has them) and run the tests again`,
    );
  }
  return true;
}

type AvailablePolygons = Extract<PolygonFiles, { available: true }>;

/** The files a layer is read from: a shapefile's attributes are in the .dbf beside it. */
function layerFiles(files: AvailablePolygons): string[] {
  return [files.counties, files.places].flatMap((layer) => (layer.format === "shapefile" ? [layer.path, layer.path.replace(/\.shp$/, ".dbf")] : [layer.path]));
}

/**
 * The folder the tests read polygons from, with a fresh polygon index beside them: the configured one when
 * it has the index, else var/test-geo, linked to the same files. The configured folder is never written: it
 * may be read-only, or shared with other checkouts. Returns the folder.
 */
export async function indexedPolygonsDir(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<string> {
  const files = findPolygonFiles(geoDataDir(env));
  if (!files.available || readFreshPolygonIndex(files)) return files.dir;
  const twin = join(ROOT, "var", "test-geo");
  const linked = findPolygonFiles(twin);
  if (linked.available && readFreshPolygonIndex(linked) && linked.counties.path === join(twin, basename(files.counties.path)) && linked.places.path === join(twin, basename(files.places.path))) return twin;
  // Linked afresh, so the twin holds the files the configured folder holds now.
  rmSync(twin, { recursive: true, force: true });
  mkdirSync(twin, { recursive: true });
  for (const path of layerFiles(files)) symlinkSync(path, join(twin, basename(path)));
  log(`${files.dir} has no polygon index; writing one with \`buckeye data index-geo --dir ${twin}\`, once for the whole run.`);
  await run(process.execPath, [CLI, "data", "index-geo", "--dir", twin], { env, encoding: "utf8" });
  return twin;
}

/** Builds dist/ (`npm run build`'s compiler and settings) when it is missing or older than a source. */
async function buildIfStale(log: (line: string) => void): Promise<void> {
  const state = compiledBuild();
  const tsc = typescriptCompiler();
  if (state.state === "current" || !tsc) return;
  log(`dist/ is ${state.state === "stale" ? `older than ${state.newer}` : "missing"}; building it once (npm run build), so the buckeye processes the tests start run compiled.`);
  try {
    await run(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], { cwd: ROOT });
  } catch (error) {
    // A type error still emits every file, and `tsc --noEmit` before the tests names it; the CLI runs whatever it emitted.
    log(`npm run build reported errors: ${String((error as { stdout?: string }).stdout ?? error).trim().split("\n")[0]}`);
  }
}

/** A failure here is one line and exit 1: thrown, vitest would headline "No test files found" over a stack. */
export default async function setup(): Promise<void> {
  const log = (line: string) => console.log(`[polygons] ${line}`);
  try {
    await fetchPolygonsIfMissing(process.env, log);
    // Before the index: `buckeye data index-geo` then runs compiled as well.
    await buildIfStale((line) => console.log(`[build] ${line}`));
    // The test files' workers and every process they start inherit this environment.
    const dir = await indexedPolygonsDir(process.env, log);
    if (dir !== geoDataDir(process.env)) process.env.GEO_DATA_DIR = dir;
  } catch (error) {
    process.stderr.write(`[polygons] ${(error as Error).message}\n`);
    process.exit(1);
  }
}
