/**
 * Runs `importBoundaryFile` in a worker thread of its own, with a bounded V8 heap.
 *
 * Why a thread: a 2,000,000-record import keeps a small live set (tens of MB) but makes garbage
 * fast, and V8 lets a heap with room to grow hold hundreds of MB of it between collections: the
 * CLI peaked at 390–470 MB resident. A thread's heap can be bounded at run time (resourceLimits),
 * where the process's own can only be bounded by flags on the node command line; bounded, the same
 * import peaks at about 160 MB and takes a few seconds longer (docs/guides/boundary-file.md).
 * The thread opens its own connection to the same database; the caller keeps its own for status.
 */
import { Worker } from "node:worker_threads";
import { threadEntry } from "../worker-entries.ts";
import type { ImportCaps, ImportResult } from "./import-file.ts";

/**
 * The old generation bounds what the garbage can grow to; the young generation is kept small so
 * that short-lived rows die in cheap scavenges instead of being promoted.
 */
export const IMPORT_THREAD_LIMITS = { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 6 };

export interface ImportThreadOptions {
  databaseUrl: string;
  source: string;
  force?: boolean;
  caps?: Partial<ImportCaps>;
  sha256?: string | null;
  dataDir?: string;
  synthetic?: boolean;
}

const TASK_FILE = threadEntry("boundary-import");

export function importInThread(options: ImportThreadOptions): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(TASK_FILE, { workerData: options, resourceLimits: IMPORT_THREAD_LIMITS });
    let answer: ImportResult | undefined;
    worker.once("message", (result: ImportResult) => (answer = result));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (answer) resolve(answer);
      else reject(new Error(`the import thread stopped (exit code ${code}) before it answered`));
    });
  });
}
