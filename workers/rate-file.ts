/**
 * Thread entry that reads the state's SST rate file (src/scheduled/rate-file-thread.ts) under its caps and
 * posts the text back, or why it was refused. Thin on purpose: the reading is readCappedText.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readCappedText, type CappedTextOptions } from "../src/boundaries/read-source.ts";

const { source, ...options } = workerData as CappedTextOptions & { source: string };
try {
  parentPort!.postMessage({ ok: true, ...(await readCappedText(source, options)) });
} catch (error) {
  parentPort!.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
}
