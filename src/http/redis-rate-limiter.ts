/**
 * The per-key and per-organization token buckets of rate-limit.ts, held in Redis so that every
 * instance draws from the same buckets (docs/operations/several-instances.md). One Lua script reads, refills, takes a token and writes back, so two
 * instances can never both take the last token. Time comes from Redis's clock, not the
 * instance's: instances on machines whose clocks disagree still refill one bucket consistently.
 *
 * If Redis cannot be reached, each instance falls back to its own MemoryRateLimiter (the limit
 * then holds per instance, not in total) and logs one warning; requests are never refused or
 * failed because Redis is down. When Redis answers again, the shared buckets take over.
 *
 * The requests of one event-loop turn share one script call (src/per-turn.ts), so the instance makes
 * one round trip per turn instead of one per request. The call goes over the connection the key
 * epoch is read on (src/auth/redis-key-epoch.ts), in the same turn, so Redis answers both together.
 */
import { createHash } from "node:crypto";
import type { Logger } from "../log.ts";
import { batchPerTurn } from "../per-turn.ts";
import { closeRedis, openRedis, type Redis } from "../store/redis.ts";
import { decide, MemoryRateLimiter, ratesFor, type OwnRates, type RateDecision, type RateLimiter, type RateLimits } from "./rate-limit.ts";

/**
 * Takes the tokens a turn's requests ask for (see batchPerTurn), one per request from its key's
 * bucket and one from its organization's, or none when either is short. KEYS: each organization's
 * bucket, followed by the bucket of each of its keys the requests draw from, once per rate they carry; ARGV[2i - 1]:
 * 0 for an organization's bucket KEYS[i], else how many requests draw from the key's bucket KEYS[i];
 * ARGV[2i]: that bucket's tokens per second, also its size (an organization's own limits, set by an
 * operator, or the settings').
 * A key's requests are served while both buckets hold a whole token, its keys in order, so a key
 * holding k tokens whose organization has o left admits min(count, floor(k), floor(o)) of them.
 * Returns {admitted, key tokens, organization tokens, ...} for each key, tokens as they were before
 * that key's requests took any: each request's own decision follows from these (see #run), so the script's work and its reply grow
 * with the number of keys and organizations, not of requests.
 */
const TOKEN_BUCKET = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function refill(name, limit)
  local bucket = redis.call('HMGET', name, 'tokens', 'ms')
  local left = tonumber(bucket[1]) or limit
  local updated = tonumber(bucket[2]) or now
  return math.min(limit, left + math.max(0, now - updated) / 1000 * limit)
end
local function store(name, tokens)
  redis.call('HSET', name, 'tokens', tostring(tokens), 'ms', now)
  -- An empty bucket is full again after one second; a bucket that is gone reads as full, so expire it then.
  redis.call('PEXPIRE', name, 2000)
end
local reply = {}
local org, org_tokens
for i = 1, #KEYS do
  local count = tonumber(ARGV[2 * i - 1])
  local limit = tonumber(ARGV[2 * i])
  if count == 0 then
    if org then store(org, org_tokens) end
    org = KEYS[i]
    org_tokens = refill(org, limit)
  else
    local tokens = refill(KEYS[i], limit)
    local admitted = math.max(0, math.min(count, math.floor(tokens), math.floor(org_tokens)))
    store(KEYS[i], tokens - admitted)
    reply[#reply + 1] = admitted
    reply[#reply + 1] = tostring(tokens)
    reply[#reply + 1] = tostring(org_tokens)
    org_tokens = org_tokens - admitted
  end
end
if org then store(org, org_tokens) end
return reply
`;
const TOKEN_BUCKET_SHA = createHash("sha1").update(TOKEN_BUCKET).digest("hex");

export interface RedisRateLimiterOptions {
  /** The shared connection (src/store/redis.ts), closed by whoever opened it; or where to open one of the limiter's own. */
  redis: Redis | string;
  /** Prepended to every key, so several deployments (or test runs) can share one Redis. */
  keyPrefix: string;
  limits: RateLimits;
  log: Logger;
  /** A request waits at most this long for Redis before the local bucket answers instead. */
  commandTimeoutMs?: number;
}

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  readonly #fallback: MemoryRateLimiter;
  readonly #limits: RateLimits;
  readonly #ownsConnection: boolean;
  readonly #prefix: string;
  readonly #log: Logger;
  readonly #take = batchPerTurn((requests: Array<{ keyId: string; organizationId: string; own: OwnRates | undefined }>) => this.#run(requests));
  #degraded = false;

  constructor(options: RedisRateLimiterOptions) {
    this.#limits = options.limits;
    this.#prefix = `${options.keyPrefix}ratelimit:`;
    this.#log = options.log;
    this.#fallback = new MemoryRateLimiter(options.limits);
    this.#ownsConnection = typeof options.redis === "string";
    this.#redis = typeof options.redis === "string" ? openRedis(options.redis, options.commandTimeoutMs) : options.redis;
    this.#redis.on("error", this.#onError);
    this.#redis.on("close", this.#onClose);
    this.#redis.on("ready", this.#onReady);
  }

  readonly #onError = (error: Error) => this.#degrade(error);
  readonly #onClose = () => this.#degrade(new Error("connection closed"));
  readonly #onReady = () => this.#recover();

  async consume(keyId: string, organizationId: string, nowMs: number, own?: OwnRates): Promise<RateDecision> {
    if (this.#redis.status !== "ready") return this.#fallback.consume(keyId, organizationId, nowMs, own);
    try {
      const decision = await this.#take({ keyId, organizationId, own });
      this.#recover();
      return decision;
    } catch (error) {
      this.#degrade(error as Error);
      return this.#fallback.consume(keyId, organizationId, nowMs, own);
    }
  }

  /** Whether the shared buckets are in use (false: this instance is on its own limits). */
  get shared(): boolean {
    return this.#redis.status === "ready" && !this.#degraded;
  }

  async close(): Promise<void> {
    if (this.#ownsConnection) return closeRedis(this.#redis);
    this.#redis.off("error", this.#onError);
    this.#redis.off("close", this.#onClose);
    this.#redis.off("ready", this.#onReady);
  }

  /** One script call for a turn's requests, given as the key and organization each draws from: a decision per request. */
  async #run(requests: Array<{ keyId: string; organizationId: string; own: OwnRates | undefined }>): Promise<RateDecision[]> {
    // Each organization once and each of its keys once per key rate, in order of first appearance, with what the script
    // answers for each. An organization's bucket is as large as the first of its requests says. A key's requests that
    // carry different rates (a turn that holds requests checked before and after an operator changed them) are two
    // entries of the same bucket, each refilled and judged at its own rate, the script taking them one after the other.
    type KeyBucket = { keyId: string; count: number; limits: RateLimits; admitted: number; keyBefore: number; orgBefore: number; served: number };
    const organizations = new Map<string, { perOrganization: number; keys: Map<string, KeyBucket> }>();
    const entryOf = (keyId: string, limits: RateLimits) => `${keyId} ${limits.perKey}`;
    for (const { keyId, organizationId, own } of requests) {
      const limits = ratesFor(this.#limits, own);
      let organization = organizations.get(organizationId);
      if (!organization) organizations.set(organizationId, (organization = { perOrganization: limits.perOrganization, keys: new Map() }));
      const bucket = organization.keys.get(entryOf(keyId, limits));
      if (bucket) bucket.count += 1;
      else {
        const held = limits.perOrganization === organization.perOrganization ? limits : { perKey: limits.perKey, perOrganization: organization.perOrganization };
        organization.keys.set(entryOf(keyId, limits), { keyId, count: 1, limits: held, admitted: 0, keyBefore: 0, orgBefore: 0, served: 0 });
      }
    }
    const keys: string[] = [];
    const perBucket: number[] = [];
    for (const [organizationId, organization] of organizations) {
      keys.push(`${this.#prefix}org:${organizationId}`);
      perBucket.push(0, organization.perOrganization);
      for (const bucket of organization.keys.values()) {
        keys.push(`${this.#prefix}${bucket.keyId}`);
        perBucket.push(bucket.count, bucket.limits.perKey);
      }
    }
    const args = [...keys, ...perBucket];
    let reply: Array<string | number>;
    try {
      reply = (await this.#redis.evalsha(TOKEN_BUCKET_SHA, keys.length, ...args)) as Array<string | number>;
    } catch (error) {
      // The script cache is empty after a Redis restart: send the script itself once.
      if (!String((error as Error).message).startsWith("NOSCRIPT")) throw error;
      reply = (await this.#redis.eval(TOKEN_BUCKET, keys.length, ...args)) as Array<string | number>;
    }
    let at = 0;
    for (const organization of organizations.values()) {
      for (const bucket of organization.keys.values()) {
        bucket.admitted = Number(reply[at++]);
        bucket.keyBefore = Number(reply[at++]);
        bucket.orgBefore = Number(reply[at++]);
      }
    }
    return requests.map(({ keyId, organizationId, own }) => {
      const bucket = organizations.get(organizationId)!.keys.get(entryOf(keyId, ratesFor(this.#limits, own)))!;
      // The n-th request of a key (from 0) is admitted while n < admitted, leaving before - (n + 1) tokens in each bucket.
      const allowed = bucket.served < bucket.admitted;
      bucket.served += 1;
      const taken = allowed ? bucket.served : bucket.admitted;
      return decide(bucket.keyBefore - taken, bucket.orgBefore - taken, bucket.limits, allowed);
    });
  }

  #degrade(error: Error): void {
    if (this.#degraded) return;
    this.#degraded = true;
    this.#log({
      level: "warn",
      msg: "redis unreachable: rate limits are per instance until it answers again",
      error: error.message,
    });
  }

  #recover(): void {
    if (!this.#degraded) return;
    this.#degraded = false;
    this.#log({ level: "info", msg: "redis reachable again: rate limits are shared across instances" });
  }
}
