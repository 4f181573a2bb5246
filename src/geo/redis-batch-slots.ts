/**
 * The Census batch endpoint's cap (GEOCODER_BATCH_CONCURRENCY) shared by every instance through
 * Redis (REDIS_URL): a semaphore of that many slots (redis-semaphore's RedisSemaphore, a sorted set
 * of holders updated by Lua scripts), so two instances together send no more batch requests at once
 * than one would. Each slot is a lease: its holder renews it while its request is in flight, and the
 * slot of an instance that died (or lost Redis) with a request in flight comes back once its lease
 * lapses (LEASE_MS), without anyone releasing it. The lease times are the instances' own clocks, so
 * they are assumed to agree within a second (NTP).
 *
 * The in-process queue (lookup-service.ts) still orders this instance's requests (an inline list's
 * before a job's) and caps them; a slot is taken only once a request leaves that queue. When Redis
 * cannot be reached, the request goes on under the in-process cap alone and one warning is logged,
 * as the rate limits do (src/http/redis-rate-limiter.ts): the geocoder is never made unavailable by Redis.
 * Only loaded when Redis is configured.
 */
import { Semaphore } from "redis-semaphore";
import type { Logger } from "../log.ts";
import type { Redis } from "../store/redis.ts";
import type { BatchSlots } from "./census-batch-geocoder.ts";

/** How long a slot is held without being renewed: what a crashed instance's slot costs the others. */
export const LEASE_MS = 30_000;
/** How often an instance waiting for a slot asks again. */
const RETRY_MS = 100;

/**
 * A slot whose renewal survives Redis being away: the library renews on a timer and would let a
 * failed renewal's rejection go unhandled (which ends the process). A renewal that could not reach
 * Redis is tried again at the next interval; if Redis stays away past the lease, the slot lapses
 * there and the next renewal that reaches it reports the slot lost (onLockLost).
 */
class Slot extends Semaphore {
  protected override async _refresh(): Promise<boolean> {
    try {
      return await super._refresh();
    } catch {
      return true;
    }
  }
}

export interface RedisBatchSlotsOptions {
  redis: Redis;
  /** REDIS_KEY_PREFIX, so deployments sharing one Redis keep separate caps. */
  keyPrefix: string;
  /** Slots in all: GEOCODER_BATCH_CONCURRENCY. */
  limit: number;
  log: Logger;
  /** A slot's lease (LEASE_MS); tests shorten it. Renewed at 0.8 of it. */
  leaseMs?: number;
}

export class RedisBatchSlots implements BatchSlots {
  readonly #options: RedisBatchSlotsOptions;
  readonly #key: string;
  #warned = false;

  constructor(options: RedisBatchSlotsOptions) {
    this.#options = options;
    this.#key = `${options.keyPrefix}census-batch-slots`;
  }

  async acquire(signal: AbortSignal): Promise<() => Promise<void>> {
    const { redis, limit, log, leaseMs = LEASE_MS } = this.#options;
    const semaphore = new Slot(redis, this.#key, limit, {
      lockTimeout: leaseMs,
      // The wait has no end of its own: a job's request waits its turn, and an inline list's ends with its deadline (`signal`).
      acquireTimeout: Number.POSITIVE_INFINITY,
      retryInterval: RETRY_MS,
      // A renewal that found the slot gone (Redis unreachable past the lease, or flushed): the request in flight goes on.
      onLockLost: (error) => log({ level: "warn", msg: "a Census batch request's shared slot lapsed while it was in flight", reason: error.message }),
    });
    try {
      await semaphore.acquire(signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (!this.#warned) {
        this.#warned = true;
        log({ level: "warn", msg: "Redis could not be reached for the Census batch slots; this instance's own cap (GEOCODER_BATCH_CONCURRENCY) applies alone until it answers", reason: (error as Error).message });
      }
      semaphore.stopRefresh();
      return async () => {};
    }
    this.#warned = false;
    return () => semaphore.release().catch(() => semaphore.stopRefresh());
  }
}
