/**
 * Slows password guessing without letting a stranger lock the owner out (docs/guides/dashboard.md,
 * "Sign-in throttle"). A sign-in from a client that has not signed in to the account before is
 * throttled by the account and by the client address:
 * - the account's failures from such clients are counted for a day from the first; the first
 *   ACCOUNT_FREE_FAILURES cost nothing, and each one after makes the next such sign-in wait,
 *   1 minute after the 5th, doubling with each further failure up to 15 minutes (accountWaitMs).
 *   A guesser with any number of addresses gets about a hundred tries a day, while a stranger's
 *   few wrong passwords cost the owner a minute, not a quarter of an hour;
 * - after 20 failures from one address within 15 minutes, that address waits 15 minutes.
 * A sign-in from a known device (known-devices.ts) is throttled by that device's own count only
 * (5 failures, 15 minutes), so failures from elsewhere never slow it; and a completed password
 * reset lifts the account's wait (ownerProven). Checked before the password is, so a wait answers
 * the same whether the guess was right. The counters are in the database, so the limits hold
 * however many instances share it: a guesser spreading attempts over several instances gets no
 * more tries than against one.
 */
import type { Db } from "../store/database.ts";
import { clearCounter, countFailure, countInWindow, dropStaleCounters, latestLock, lockUntil, type CounterRule } from "../store/sign-in-counters.repository.ts";

/** How long the account's count of failures from clients it does not know lasts, from its first failure. */
export const ACCOUNT_STREAK_MS = 24 * 60 * 60_000;
/** Failures from unknown clients the account takes before they make the next one wait. */
export const ACCOUNT_FREE_FAILURES = 4;
const FIRST_WAIT_MS = 60_000;
export const ACCOUNT_MAX_WAIT_MS = 15 * 60_000;
export const ADDRESS_RULE: CounterRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const DEVICE_RULE: CounterRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/** How long the next sign-in to an account from an unknown client waits after its `failures`th failure in a day: 0, then 1, 2, 4, 8, 15, 15… minutes. */
export function accountWaitMs(failures: number): number {
  if (failures <= ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - ACCOUNT_FREE_FAILURES - 1));
}

export interface SignInAttempt {
  email: string;
  address: string;
  /** The token hash of a device that has signed in to this account before (known-devices.ts); null for any other client. */
  device: string | null;
}

function keysOf(attempt: SignInAttempt): string[] {
  return attempt.device ? [`d:${attempt.device}`] : [`e:${attempt.email}`, `a:${attempt.address}`];
}

export class SignInThrottle {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  /** Seconds until this sign-in may be tried; 0 when it may now. */
  async retryAfterSeconds(attempt: SignInAttempt): Promise<number> {
    const lock = await latestLock(this.#db, keysOf(attempt));
    const wait = lock === null ? 0 : Date.parse(lock) - this.#now().getTime();
    return wait > 0 ? Math.ceil(wait / 1000) : 0;
  }

  async recordFailure(attempt: SignInAttempt): Promise<void> {
    const now = this.#now();
    if (attempt.device) {
      await countFailure(this.#db, `d:${attempt.device}`, DEVICE_RULE, now);
    } else {
      const key = `e:${attempt.email}`;
      const wait = accountWaitMs(await countInWindow(this.#db, key, ACCOUNT_STREAK_MS, now));
      if (wait > 0) await lockUntil(this.#db, key, new Date(now.getTime() + wait));
      await countFailure(this.#db, `a:${attempt.address}`, ADDRESS_RULE, now);
    }
    await dropStaleCounters(this.#db, "e:", ACCOUNT_STREAK_MS, now);
    await dropStaleCounters(this.#db, "a:", ADDRESS_RULE.windowMs, now);
    await dropStaleCounters(this.#db, "d:", DEVICE_RULE.windowMs, now);
  }

  /**
   * A correct password clears the count it was throttled by: the device's, or the account's (not
   * the address's: one good account must not launder guesses). The owner signing in from a known
   * device leaves the account's count alone, so it does not hand a guesser a fresh start.
   */
  async recordSuccess(attempt: SignInAttempt): Promise<void> {
    await clearCounter(this.#db, attempt.device ? `d:${attempt.device}` : `e:${attempt.email}`);
  }

  /** A completed password reset proved the owner: the account's wait is lifted, and that of the device it was completed on. */
  async ownerProven(email: string, device: string | null): Promise<void> {
    await clearCounter(this.#db, `e:${email}`);
    if (device) await clearCounter(this.#db, `d:${device}`);
  }
}
