/**
 * Before any test file: makes sure boundary polygons are where the service looks for them
 * (test/_polygons.ts). A clone without ../shared has none until an operator runs
 * `buckeye data fetch-geo`; the suite runs that same command once, into the same folder, and says so.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { findPolygonFiles } from "../src/geo/polygon-files.ts";
import { geoDataDir } from "./_polygons.ts";

const CLI = fileURLToPath(new URL("../bin/buckeye.js", import.meta.url));

/** Fetches the polygons with the operator's command when the folder has none; returns whether it did. */
export async function fetchPolygonsIfMissing(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<boolean> {
  const dir = geoDataDir(env);
  const before = findPolygonFiles(dir);
  if (before.available) return false;
  log(`No boundary polygons: ${before.reason}.`);
  log(`Fetching them once with \`buckeye data fetch-geo --dir ${dir}\`, as an operator would (needs the Census Bureau's TIGER/Line site).`);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "data", "fetch-geo", "--dir", dir], { env, encoding: "utf8" });
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

/** A failure here is one line and exit 1: thrown, vitest would headline "No test files found" over a stack. */
export default async function setup(): Promise<void> {
  try {
    await fetchPolygonsIfMissing(process.env, (line) => console.log(`[polygons] ${line}`));
  } catch (error) {
    process.stderr.write(`[polygons] ${(error as Error).message}\n`);
    process.exit(1);
  }
}
