/**
 * Chooses where the per-key and per-organization buckets live: in Redis when REDIS_URL is set (over
 * the shared connection, src/store/redis.ts), else in this process.
 */
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Redis } from "../store/redis.ts";
import { MemoryRateLimiter, type RateLimiter } from "./rate-limit.ts";

export interface SharedRateLimiter {
  limiter: RateLimiter;
  close(): Promise<void>;
}

export async function createRateLimiter(config: Pick<Config, "rateLimits" | "redis">, log: Logger, redis?: Redis): Promise<SharedRateLimiter> {
  if (!config.redis || !redis) return { limiter: new MemoryRateLimiter(config.rateLimits), close: async () => {} };
  // Loaded only when configured: an embedded deployment never pays the memory of a driver it does not use.
  const { RedisRateLimiter } = await import("./redis-rate-limiter.ts");
  const limiter = new RedisRateLimiter({ redis, keyPrefix: config.redis.keyPrefix, limits: config.rateLimits, log });
  return { limiter, close: () => limiter.close() };
}
