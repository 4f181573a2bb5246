/**
 * Slows password guessing without letting a stranger lock the owner out (docs/guides/dashboard.md,
 * "Sign-in throttle"). A sign-in from a client that has not signed in to the account before is
 * throttled by the account and by the client address: after 5 failures for one email within 15
 * minutes, such sign-ins to it are locked for 15 minutes; after 20 failures from one address, that
 * address is. A sign-in from a known device (known-devices.ts) is throttled by that
 * device's own count only (5 failures, 15 minutes), so failures from elsewhere never lock it.
 * Checked before the password is, so a lock answers the same whether the guess was right.
 * The counters are in the database, so the limits hold however many instances share it: a
 * guesser spreading attempts over several instances gets no more tries than against one.
 */
import type { Db } from "../store/database.ts";
import { clearCounter, countFailure, dropStaleCounters, latestLock, type CounterRule } from "../store/sign-in-counters.repository.ts";

export const EMAIL_RULE: CounterRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const ADDRESS_RULE: CounterRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const DEVICE_RULE: CounterRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

export interface SignInAttempt {
  email: string;
  address: string;
  /** The token hash of a device that has signed in to this account before (known-device.ts); null for any other client. */
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
      await countFailure(this.#db, `e:${attempt.email}`, EMAIL_RULE, now);
      await countFailure(this.#db, `a:${attempt.address}`, ADDRESS_RULE, now);
    }
    await dropStaleCounters(this.#db, Math.max(EMAIL_RULE.windowMs, ADDRESS_RULE.windowMs, DEVICE_RULE.windowMs), now);
  }

  /**
   * A correct password clears the count it was throttled by: the device's, or the email's (not
   * the address's: one good account must not launder guesses). The owner signing in from a known
   * device leaves the account's count alone, so it does not hand a guesser a fresh five.
   */
  async recordSuccess(attempt: SignInAttempt): Promise<void> {
    await clearCounter(this.#db, attempt.device ? `d:${attempt.device}` : `e:${attempt.email}`);
  }

  /** A completed password reset proved the owner: the account's lock is lifted, and that of the device it was completed on. */
  async ownerProven(email: string, device: string | null): Promise<void> {
    await clearCounter(this.#db, `e:${email}`);
    if (device) await clearCounter(this.#db, `d:${device}`);
  }
}
