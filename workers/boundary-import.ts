/**
 * Thread entry for a boundary file import (src/boundaries/import-thread.ts): opens its own
 * connection, imports, posts the result, closes. Thin on purpose: the import is importBoundaryFile.
 */
import { parentPort, workerData } from "node:worker_threads";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import type { ImportThreadOptions } from "../src/boundaries/import-thread.ts";
import { openStore } from "../src/store/connect.ts";

const { databaseUrl, source, force, synthetic, caps, sha256, dataDir } = workerData as ImportThreadOptions;
const store = openStore(databaseUrl);
try {
  parentPort!.postMessage(await importBoundaryFile({ store, source, force, synthetic, caps, sha256, ...(dataDir !== undefined && { dataDir }) }));
} finally {
  await store.close();
}
