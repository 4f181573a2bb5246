/**
 * Counts API requests per key per Ohio calendar day, by outcome: answered (below 400), client error
 * (4xx but 429), rate-limited (429), server error (5xx) (docs/guides/dashboard.md, "Usage counting").
 * The request path only bumps an in-memory counter once its answer is known (O(1), no I/O); a timer
 * adds the counts to `api_key_usage` and stamps `api_keys.last_used_at` every few seconds, and once
 * more on shutdown. A write that fails keeps its counts for the next one, so a lock held by another
 * writer delays counts and never drops them. Counts are added with an upsert, so several instances
 * sharing one database each add their own.
 * On SQLite a timed write does not wait for the write lock while the batch lane holds it: the wait
 * would be the answering thread's (src/store/write-if-unlocked.ts); the counts go with the next one.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { dateInOhio } from "../rates/calendar.ts";
import { touchApiKeys } from "../store/api-keys.repository.ts";
import type { Db } from "../store/database.ts";
import { addUsage, type Outcomes, type UsageCount } from "../store/usage.repository.ts";
import { writeIfUnlocked } from "../store/write-if-unlocked.ts";
import type SQLite from "better-sqlite3";
import { errorFields } from "../error-fields.ts";

/** Writes tried by stop() in all, the first one included, and the first pause between two (doubling after each). */
const STOP_ATTEMPTS = 6;
const STOP_RETRY_MS = 250;

export interface UsageRecorderOptions {
  flushIntervalMs: number;
  /** The connection's SQLite handle, when the store is SQLite: timed writes then never wait for its write lock. */
  sqlite?: SQLite.Database;
  now?: () => Date;
  log?: (entry: Record<string, unknown>) => void;
}

/** The outcome class of a status, as an index into a slot's counts (the order of `Outcomes`). */
export function outcomeClass(status: number): 0 | 1 | 2 | 3 {
  return status < 400 ? 0 : status === 429 ? 2 : status < 500 ? 1 : 3;
}

function outcomes(classes: readonly number[]): Outcomes {
  return { answered: classes[0]!, clientErrors: classes[1]!, rateLimited: classes[2]!, serverErrors: classes[3]! };
}

export class UsageRecorder {
  readonly #db: Db;
  readonly #options: Required<Omit<UsageRecorderOptions, "sqlite">> & Pick<UsageRecorderOptions, "sqlite">;
  /**
   * day → key id → requests not yet written, by outcome. By day, then key, rather than by a "day key" text: the
   * day's text and a key's id are the same strings request after request, so a count builds and hashes none.
   */
  #counts = new Map<string, Map<string, number[]>>();
  /** keyId → epoch ms of its latest request not yet written. */
  #lastUsed = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(db: Db, options: UsageRecorderOptions) {
    this.#db = db;
    this.#options = { now: () => new Date(), log: () => {}, ...options };
  }

  /** Called once per API request made with a good key, with the status it was answered. */
  record(keyId: string, status: number): void {
    const now = this.#options.now();
    const day = dateInOhio(now);
    let byKey = this.#counts.get(day);
    if (byKey === undefined) this.#counts.set(day, (byKey = new Map()));
    let counts = byKey.get(keyId);
    if (counts === undefined) byKey.set(keyId, (counts = [0, 0, 0, 0]));
    counts[outcomeClass(status)]!++;
    this.#lastUsed.set(keyId, now.getTime());
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#queue(false), this.#options.flushIntervalMs);
    this.#timer.unref();
  }

  /**
   * Stops the timer and writes what is left. A write refused for a while (SQLite's `database is
   * locked` once another connection held the lock past busy_timeout, a PostgreSQL restart) is tried
   * again, with pauses growing to a few seconds, up to STOP_ATTEMPTS times in all: the last flush
   * has no next one to carry its counts, so giving up at the first refusal would lose them.
   */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
    for (let attempt = 1; this.#pending() && attempt < STOP_ATTEMPTS; attempt++) {
      await sleep(STOP_RETRY_MS * 2 ** (attempt - 1));
      await this.flush();
    }
    if (this.#pending()) this.#options.log({ level: "error", msg: "API key usage could not be written before stopping; these counts are lost", slots: [...this.#counts.values()].reduce((sum, byKey) => sum + byKey.size, 0) });
  }

  #pending(): boolean {
    return this.#counts.size > 0 || this.#lastUsed.size > 0;
  }

  /**
   * Writes the pending counts, waiting for the database's write lock as long as any write does.
   * Flushes never overlap; a failed write puts its counts back so the next flush retries them.
   */
  flush(): Promise<void> {
    return this.#queue(true);
  }

  #queue(waitForLock: boolean): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write(waitForLock));
    return this.#flushing;
  }

  async #write(waitForLock: boolean): Promise<void> {
    if (this.#counts.size === 0 && this.#lastUsed.size === 0) return;
    const counts = this.#counts;
    const lastUsed = this.#lastUsed;
    this.#counts = new Map();
    this.#lastUsed = new Map();
    const rows: UsageCount[] = [];
    for (const [day, byKey] of counts) for (const [keyId, classes] of byKey) rows.push({ day, keyId, ...outcomes(classes) });
    // In key order on every instance, so two instances flushing at once take PostgreSQL's row locks
    // in the same order and cannot deadlock.
    rows.sort((x, y) => (x.keyId === y.keyId ? x.day.localeCompare(y.day) : x.keyId < y.keyId ? -1 : 1));
    const stamps = new Map([...lastUsed].sort(([x], [y]) => (x < y ? -1 : 1)).map(([keyId, ms]) => [keyId, new Date(ms).toISOString()]));
    const keep = () => {
      for (const [day, byKey] of counts) {
        let keptByKey = this.#counts.get(day);
        if (keptByKey === undefined) this.#counts.set(day, (keptByKey = new Map()));
        for (const [keyId, classes] of byKey) {
          const kept = keptByKey.get(keyId);
          if (kept === undefined) keptByKey.set(keyId, classes);
          else for (let i = 0; i < kept.length; i++) kept[i]! += classes[i]!;
        }
      }
      for (const [keyId, ms] of lastUsed) this.#lastUsed.set(keyId, Math.max(ms, this.#lastUsed.get(keyId) ?? 0));
    };
    try {
      const written = await writeIfUnlocked(this.#db, waitForLock ? undefined : this.#options.sqlite, async (trx) => {
        await addUsage(trx, rows);
        await touchApiKeys(trx, stamps);
      });
      // The write lock was another connection's: nothing was written, and the next flush brings these counts.
      if (!written) keep();
    } catch (error) {
      keep();
      this.#options.log({ level: "error", msg: "writing API key usage failed; kept for the next flush", ...errorFields(error) });
    }
  }
}
