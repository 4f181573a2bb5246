/**
 * Token buckets: one per API key and one per organization. Each holds `limit` tokens, refilled at
 * `limit` per second, so a caller may burst to its limit and sustain it. A request
 * takes a token from its key's bucket and one from its organization's, or from neither: a request
 * refused by either bucket spends nothing, so a key held back by its organization has its own
 * tokens when the organization's come back. The organization's bucket is what keeps an
 * organization from multiplying its limit by creating keys (docs/api/README.md, "Rate limits").
 */
export interface RateDecision {
  allowed: boolean;
  /** Which bucket the numbers below describe: the key's, unless the organization's refused the request. */
  scope: "key" | "organization";
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the next request would be allowed (by both buckets); 0 when allowed now. */
  retryAfterSeconds: number;
}

export interface RateLimits {
  /** Tokens per second per key, also the size of its bucket. */
  perKey: number;
  /** Tokens per second per organization, across all its keys, also the size of its bucket. */
  perOrganization: number;
}

/**
 * The rates an operator set for the organization a request comes from (src/organization-limits.ts),
 * null where it has none: the limiter's own limits apply there. Passed as the key's verdict carries
 * them, so taking a token costs no allocation for an organization without limits of its own.
 */
export interface OwnRates {
  readonly requestsPerSecondPerKey: number | null;
  readonly requestsPerSecondPerOrganization: number | null;
}

export interface RateLimiter {
  consume(keyId: string, organizationId: string, nowMs: number, own?: OwnRates): RateDecision | Promise<RateDecision>;
}

/** The limits a request is held to: the organization's own where it has them, else `defaults` (the same object when it has none). */
export function ratesFor(defaults: RateLimits, own: OwnRates | undefined): RateLimits {
  if (!own || (own.requestsPerSecondPerKey === null && own.requestsPerSecondPerOrganization === null)) return defaults;
  return { perKey: own.requestsPerSecondPerKey ?? defaults.perKey, perOrganization: own.requestsPerSecondPerOrganization ?? defaults.perOrganization };
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

const secondsUntilToken = (tokens: number, limit: number) => Math.max(1, Math.ceil((1 - tokens) / limit));

/**
 * The decision for a request, from the tokens each bucket holds after it (both less one when it
 * was allowed, as they were when it was refused). A key that is empty itself is refused as the
 * key's, even when its organization is empty too; Retry-After waits for both.
 */
export function decide(keyTokens: number, orgTokens: number, limits: RateLimits, allowed: boolean): RateDecision {
  const scope = allowed || keyTokens < 1 ? "key" : "organization";
  const [tokens, limit] = scope === "key" ? [keyTokens, limits.perKey] : [orgTokens, limits.perOrganization];
  return {
    allowed,
    scope,
    limit,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((limit - tokens) / limit),
    retryAfterSeconds: allowed
      ? 0
      : Math.max(keyTokens < 1 ? secondsUntilToken(keyTokens, limits.perKey) : 0, orgTokens < 1 ? secondsUntilToken(orgTokens, limits.perOrganization) : 0),
  };
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #keys = new Map<string, Bucket>();
  readonly #organizations = new Map<string, Bucket>();
  readonly #limits: RateLimits;

  constructor(limits: RateLimits) {
    this.#limits = limits;
  }

  consume(keyId: string, organizationId: string, nowMs: number, own?: OwnRates): RateDecision {
    const limits = ratesFor(this.#limits, own);
    const key = refill(this.#keys, keyId, limits.perKey, nowMs);
    const organization = refill(this.#organizations, organizationId, limits.perOrganization, nowMs);
    const allowed = key.tokens >= 1 && organization.tokens >= 1;
    if (allowed) {
      key.tokens -= 1;
      organization.tokens -= 1;
    }
    return decide(key.tokens, organization.tokens, limits, allowed);
  }
}

function refill(buckets: Map<string, Bucket>, id: string, limit: number, nowMs: number): Bucket {
  let bucket = buckets.get(id);
  if (!bucket) buckets.set(id, (bucket = { tokens: limit, updatedMs: nowMs }));
  const elapsed = Math.max(0, nowMs - bucket.updatedMs) / 1000;
  bucket.tokens = Math.min(limit, bucket.tokens + elapsed * limit);
  bucket.updatedMs = nowMs;
  return bucket;
}
