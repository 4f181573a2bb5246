/**
 * Slows mass sign-up: open sign-up hands out test keys, and a flood of accounts from one client
 * is abuse (each can register webhooks, run batches). Every sign-up attempt from a client address
 * is counted; after `limit` within 15 minutes that address waits an hour. The address is the
 * socket's, as for the sign-in throttle (a client-set X-Forwarded-For would let anyone reset it),
 * and the counters live in the database with the sign-in ones, so the limit holds across instances.
 */
import type { Db } from "../store/database.ts";
import { countFailure, dropStaleCounters, latestLock, type CounterRule } from "../store/sign-in-counters.repository.ts";

const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 60 * 60_000;

export class SignUpThrottle {
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #rule: CounterRule;

  constructor(db: Db, now: () => Date, limit: number) {
    this.#db = db;
    this.#now = now;
    this.#rule = { maxFailures: limit, windowMs: WINDOW_MS, lockMs: LOCK_MS };
  }

  /** Seconds until this address may try to sign up again; 0 when it may now. */
  async retryAfterSeconds(address: string): Promise<number> {
    const lock = await latestLock(this.#db, [`s:${address}`]);
    const wait = lock === null ? 0 : Date.parse(lock) - this.#now().getTime();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  async recordAttempt(address: string): Promise<void> {
    const now = this.#now();
    await countFailure(this.#db, `s:${address}`, this.#rule, now);
    await dropStaleCounters(this.#db, "s:", WINDOW_MS, now);
  }
}
