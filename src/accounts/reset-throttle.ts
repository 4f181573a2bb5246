/**
 * Slows password reset requests (docs/guides/dashboard.md, "Forgotten passwords"): each one may
 * send mail to someone's inbox, so one address may be sent at most EMAIL_RULE's count, and one
 * client may ask at most ADDRESS_RULE's, whether or not an account has the email (so the limit
 * says nothing about which addresses are customers'). The counters are the sign-in ones' table,
 * shared by every instance.
 */
import type { Db } from "../store/database.ts";
import { countFailure, dropStaleCounters, latestLock, type CounterRule } from "../store/sign-in-counters.repository.ts";

const WINDOW_MS = 15 * 60_000;
export const RESET_EMAIL_RULE: CounterRule = { maxFailures: 3, windowMs: WINDOW_MS, lockMs: 60 * 60_000 };
export const RESET_ADDRESS_RULE: CounterRule = { maxFailures: 10, windowMs: WINDOW_MS, lockMs: 60 * 60_000 };

export class ResetThrottle {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  /** Seconds until this email or client may ask again; 0 when it may now. */
  async retryAfterSeconds(email: string, address: string): Promise<number> {
    const lock = await latestLock(this.#db, [`re:${email}`, `ra:${address}`]);
    const wait = lock === null ? 0 : Date.parse(lock) - this.#now().getTime();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  async recordRequest(email: string, address: string): Promise<void> {
    const now = this.#now();
    await countFailure(this.#db, `re:${email}`, RESET_EMAIL_RULE, now);
    await countFailure(this.#db, `ra:${address}`, RESET_ADDRESS_RULE, now);
    await dropStaleCounters(this.#db, WINDOW_MS, now);
  }
}
