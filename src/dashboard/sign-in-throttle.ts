/**
 * Slows password guessing: after 5 failed sign-ins for one email within 15 minutes, that email
 * is locked for 15 minutes; after 20 failures from one client address, that address is. Checked
 * before the password is, so a locked account answers the same whether the guess was right.
 * The counters are in the database, so the limits hold however many instances share it: a
 * guesser spreading attempts over several instances gets no more tries than against one.
 */
import type { Db } from "../store/database.ts";
import { clearCounter, countFailure, dropStaleCounters, latestLock, type CounterRule } from "../store/sign-in-counters.repository.ts";

export const EMAIL_RULE: CounterRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const ADDRESS_RULE: CounterRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

export class SignInThrottle {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  /** Seconds until a sign-in for this email from this address may be tried; 0 when it may now. */
  async retryAfterSeconds(email: string, address: string): Promise<number> {
    const lock = await latestLock(this.#db, [`e:${email}`, `a:${address}`]);
    const wait = lock === null ? 0 : Date.parse(lock) - this.#now().getTime();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  async recordFailure(email: string, address: string): Promise<void> {
    const now = this.#now();
    await countFailure(this.#db, `e:${email}`, EMAIL_RULE, now);
    await countFailure(this.#db, `a:${address}`, ADDRESS_RULE, now);
    await dropStaleCounters(this.#db, Math.max(EMAIL_RULE.windowMs, ADDRESS_RULE.windowMs), now);
  }

  /** A correct password clears the email's count (not the address's: one good account must not launder guesses). */
  async recordSuccess(email: string): Promise<void> {
    await clearCounter(this.#db, `e:${email}`);
  }
}
