/**
 * Writes that lose to another writer for the store's locks, and how background work gives way to
 * them. On SQLite one connection writes at a time: while a batch lane thread commits a large job's
 * chunks, a write from the answering thread waits busy_timeout (5 s) and then fails with `database is
 * locked`. During eight large jobs that was 30 "claiming deliveries failed", 9 "delivery attempt failed
 * to run" and one scheduled reconciliation skipped, each logged as an error though nothing was wrong
 * and nothing was lost. PostgreSQL's counterparts are a deadlock or a serialization failure, which it
 * resolves by failing one side. Background work (the webhook outbox, the scheduler) treats such a
 * failure as a turn to wait: it tries again shortly, and an operator hears of it only if it lasts.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** SQLite's busy and locked codes (and their extended forms), PostgreSQL's deadlock, lock-not-available and serialization failure. */
const CONTENTION = /^(SQLITE_BUSY|SQLITE_LOCKED)(_|$)|^(40P01|55P03|40001)$/;

export function isLockContention(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && CONTENTION.test(code);
}

export interface GiveWay {
  /** Tries in all, the first included. */
  tries: number;
  /** Wait before the second try; each later wait doubles it. */
  firstDelayMs: number;
}

/** About 3 s of waits over 5 tries: longer than a batch lane's commit, short beside the work's own schedule. */
export const GIVE_WAY: GiveWay = { tries: 5, firstDelayMs: 200 };

/** Runs `work`, and again after a growing wait each time it loses to another writer; any other failure, or the last try's, is thrown. */
export async function retryOnLockContention<T>(work: () => Promise<T>, giveWay: GiveWay = GIVE_WAY): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= giveWay.tries || !isLockContention(error)) throw error;
      await sleep(giveWay.firstDelayMs * 2 ** (attempt - 1));
    }
  }
}
