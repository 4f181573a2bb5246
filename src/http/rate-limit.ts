/**
 * A token bucket per API key: `limit` tokens, refilled at `limit` per second, so a key may
 * burst to its limit and sustain it (docs/api/README.md, "Rate limits").
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request would be allowed; 0 when allowed now. */
  retryAfterSeconds: number;
  /** The key tables' epoch, read in the same call (Redis mode only; see authenticate.ts). */
  keyEpoch?: string;
}

export interface RateLimiter {
  consume(key: string, nowMs: number): RateDecision | Promise<RateDecision>;
  /** Whether a decision carries the key epoch when the shared store answered. */
  readonly reportsKeyEpoch?: boolean;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export function decide(tokensAfter: number, allowed: boolean, limit: number): RateDecision {
  const remaining = Math.max(0, Math.floor(tokensAfter));
  return {
    allowed,
    limit,
    remaining,
    resetSeconds: Math.ceil((limit - tokensAfter) / limit),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokensAfter) / limit)),
  };
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #limit: number;

  constructor(limitPerSecond: number) {
    this.#limit = limitPerSecond;
  }

  consume(key: string, nowMs: number): RateDecision {
    const bucket = this.#buckets.get(key) ?? { tokens: this.#limit, updatedMs: nowMs };
    const elapsed = Math.max(0, nowMs - bucket.updatedMs) / 1000;
    bucket.tokens = Math.min(this.#limit, bucket.tokens + elapsed * this.#limit);
    bucket.updatedMs = nowMs;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    return decide(bucket.tokens, allowed, this.#limit);
  }
}
