/**
 * Reads the state's SST rate file on a thread of its own, with a bounded heap, never on the thread
 * that answers requests: the download and a ZIP archive's inflation are counted as they stream and
 * stopped at RECONCILE_MAX_BYTES (docs/guides/webhooks-and-jobs.md, "Reconciliation"), so a ZIP bomb
 * costs the thread one inflated slice past the cap and delays no lookup. Only the text, at most the
 * cap, comes back. A plain CSV on disk is its own text, read under the same cap: it needs no thread.
 */
import { open } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { readCappedText, type CappedText, type CappedTextOptions } from "../boundaries/read-source.ts";
import { threadEntry } from "../worker-entries.ts";

/** Room for the cap's text twice over (the text and its pieces) and one inflated slice (16 MB). */
export const RATE_FILE_THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

const TASK_FILE = threadEntry("rate-file");

type Answer = ({ ok: true } & CappedText) | { ok: false; error: string };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** A path whose first bytes are not a ZIP archive's: nothing to inflate, nothing to download. */
async function plainFile(source: string): Promise<boolean> {
  if (/^https?:\/\//i.test(source)) return false;
  const file = await open(source).catch(() => null);
  if (file === null) return false;
  try {
    const head = new Uint8Array(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    return bytesRead < 4 || !ZIP_MAGIC.every((byte, i) => head[i] === byte);
  } finally {
    await file.close();
  }
}

export async function readRateFileInThread(source: string, options: Omit<CappedTextOptions, "userAgent" | "setting">): Promise<CappedText> {
  const workerData: CappedTextOptions & { source: string } = { source, ...options, setting: "RECONCILE_MAX_BYTES", userAgent: "Buckeye/1.0 (rate reconciliation)" };
  if (await plainFile(source)) return readCappedText(source, workerData);
  return new Promise((resolve, reject) => {
    const worker = new Worker(TASK_FILE, { workerData, resourceLimits: RATE_FILE_THREAD_LIMITS });
    let answer: Answer | undefined;
    worker.once("message", (message: Answer) => (answer = message));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (answer?.ok) resolve({ text: answer.text, name: answer.name, entry: answer.entry });
      else if (answer) reject(new Error(answer.error));
      else reject(new Error(`the rate file's thread stopped (exit code ${code}) before it answered`));
    });
  });
}
