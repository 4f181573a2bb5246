/**
 * Deletes (or any bulk write) in small steps that leave room for other writers. SQLite has one
 * writer at a time, and a connection that commits step after step without a pause takes the lock
 * again before a waiting writer's busy handler looks: that writer's busy_timeout (5 s) runs out
 * and its write fails with `database is locked` (reported: usage writes failing for minutes while a
 * sweep deleted gigabytes of chunks). On the service's own connection a step is also time the
 * answering thread is not answering, since better-sqlite3 is synchronous. So after each step the
 * caller waits at least as long as the step took: the steps hold the lock at most half the time,
 * and whatever queued behind them (a usage flush, a lookup, a claim) goes first.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** The least pause between two steps, so a writer whose busy handler is sleeping finds the lock free. */
const MIN_PAUSE_MS = 5;

/**
 * Runs `step` until it reports it did less than a full step (`full` false), pausing between steps
 * as long as the last one took (at least MIN_PAUSE_MS). Returns the sum of what the steps did.
 * `signal` stops it between two steps (what is left is done by a later run).
 */
export async function pacedSteps(step: () => Promise<{ done: number; full: boolean }>, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    if (signal?.aborted) return total;
    const started = performance.now();
    const { done, full } = await step();
    total += done;
    if (!full) return total;
    await sleep(Math.max(MIN_PAUSE_MS, performance.now() - started));
  }
}
