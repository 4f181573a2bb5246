/**
 * Chooses where the per-key and per-organization buckets live: in Redis when REDIS_URL is set, else in this process.
 * The Redis client is loaded only when configured: an embedded deployment never pays the memory
 * of a driver it does not use.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { MemoryRateLimiter, type RateLimiter } from "./rate-limit.ts";

export interface SharedRateLimiter {
  limiter: RateLimiter;
  /** Tells every instance sharing the buckets that key verdicts changed (a no-op on its own). */
  announceKeyChange(): Promise<void>;
  close(): Promise<void>;
}

export async function createRateLimiter(config: Pick<Config, "rateLimits" | "redis">, log: Logger): Promise<SharedRateLimiter> {
  if (!config.redis) return { limiter: new MemoryRateLimiter(config.rateLimits), announceKeyChange: async () => {}, close: async () => {} };
  const { RedisRateLimiter } = await import("./redis-rate-limiter.ts");
  const limiter = new RedisRateLimiter({ ...config.redis, limits: config.rateLimits, log });
  return { limiter, announceKeyChange: () => limiter.announceKeyChange(), close: () => limiter.close() };
}
