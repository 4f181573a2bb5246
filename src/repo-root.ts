/**
 * The checkout's root folder (where package.json, data/ and the dashboard's assets live), found by
 * walking up from this module. The same answer whether the code runs from its TypeScript sources
 * (src/) or compiled by `npm run build` (dist/src/), so paths to shipped files never depend on
 * where a module was emitted.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "data", "meta.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no Buckeye checkout above ${from}`);
  }
}

export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
