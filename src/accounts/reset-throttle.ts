/**
 * What a stranger's password reset requests may cost (docs/guides/dashboard.md, "Forgotten
 * passwords"): each may send mail to someone's inbox, so
 * - one client address may ask RESET_ADDRESS_RULE's count, then waits (the only 429, and it falls
 *   on the asker, whatever email it names, so it says nothing about which addresses are customers');
 * - one account is sent at most one mail per RESET_MAIL_SPACING_MS, silently: the answer stays the
 *   same page. A link lives longer than the spacing (RESET_TTL_MS), so whenever a request sends
 *   nothing, the account's inbox already holds a link that still works. A request from a device
 *   known to the account is the owner's, and is always sent (within its address's count).
 * No email is ever paused: strangers asking for the owner's address cannot lock the owner out of
 * resets. The counters are the sign-in ones' table, shared by every instance.
 */
import type { Db } from "../store/database.ts";
import { countFailure, dropStaleCounters, latestLock, takeTurn, type CounterRule } from "../store/sign-in-counters.repository.ts";

const WINDOW_MS = 15 * 60_000;
export const RESET_ADDRESS_RULE: CounterRule = { maxFailures: 10, windowMs: WINDOW_MS, lockMs: 60 * 60_000 };
export const RESET_MAIL_SPACING_MS = 10 * 60_000;

export class ResetThrottle {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  /** Seconds until this client address may ask again; 0 when it may now. */
  async retryAfterSeconds(address: string): Promise<number> {
    const lock = await latestLock(this.#db, [`ra:${address}`]);
    const wait = lock === null ? 0 : Date.parse(lock) - this.#now().getTime();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  async recordRequest(address: string): Promise<void> {
    const now = this.#now();
    await countFailure(this.#db, `ra:${address}`, RESET_ADDRESS_RULE, now);
    await dropStaleCounters(this.#db, "ra:", WINDOW_MS, now);
    await dropStaleCounters(this.#db, "rm:", RESET_MAIL_SPACING_MS, now);
  }

  /** Whether a mail may go to this (normalized) email now; if so, the next may go RESET_MAIL_SPACING_MS from now. */
  mayMail(email: string): Promise<boolean> {
    return takeTurn(this.#db, `rm:${email}`, RESET_MAIL_SPACING_MS, this.#now());
  }
}
