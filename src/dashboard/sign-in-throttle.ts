/**
 * Slows password guessing: after 5 failed sign-ins for one email within 15 minutes, that email
 * is locked for 15 minutes; after 20 failures from one client address, that address is. Checked
 * before the password is, so a locked account answers the same whether the guess was right.
 * The counters live in this process (an LRU of bounded size); with several instances each
 * keeps its own, which only multiplies an attacker's budget by the instance count.
 */
import { LRUCache } from "lru-cache";

export interface ThrottleRule {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

export const EMAIL_RULE: ThrottleRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
export const ADDRESS_RULE: ThrottleRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

interface Counter {
  failures: number;
  windowStart: number;
  lockedUntil: number;
}

export class SignInThrottle {
  readonly #counters = new LRUCache<string, Counter>({ max: 50_000 });
  readonly #now: () => Date;

  constructor(now: () => Date) {
    this.#now = now;
  }

  /** Seconds until a sign-in for this email from this address may be tried; 0 when it may now. */
  retryAfterSeconds(email: string, address: string): number {
    const now = this.#now().getTime();
    const until = Math.max(this.#counters.get(`e:${email}`)?.lockedUntil ?? 0, this.#counters.get(`a:${address}`)?.lockedUntil ?? 0);
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  recordFailure(email: string, address: string): void {
    this.#fail(`e:${email}`, EMAIL_RULE);
    this.#fail(`a:${address}`, ADDRESS_RULE);
  }

  /** A correct password clears the email's count (not the address's: one good account must not launder guesses). */
  recordSuccess(email: string): void {
    this.#counters.delete(`e:${email}`);
  }

  #fail(key: string, rule: ThrottleRule): void {
    const now = this.#now().getTime();
    let counter = this.#counters.get(key);
    if (!counter || now - counter.windowStart > rule.windowMs) counter = { failures: 0, windowStart: now, lockedUntil: 0 };
    counter.failures += 1;
    if (counter.failures >= rule.maxFailures) {
      counter.lockedUntil = now + rule.lockMs;
      counter.failures = 0;
      counter.windowStart = now;
    }
    this.#counters.set(key, counter);
  }
}
