/**
 * Chooses where the per-key buckets live: in Redis when REDIS_URL is set, else in this process.
 * The Redis client is loaded only when configured: an embedded deployment never pays the memory
 * of a driver it does not use.
 */
import type { Config } from "../config.ts";
import type { Logger } from "./app.ts";
import { MemoryRateLimiter, type RateLimiter } from "./rate-limit.ts";

export interface RateLimits {
  limiter: RateLimiter;
  close(): Promise<void>;
}

export async function createRateLimiter(config: Pick<Config, "rateLimitPerSecond" | "redis">, log: Logger): Promise<RateLimits> {
  if (!config.redis) return { limiter: new MemoryRateLimiter(config.rateLimitPerSecond), close: async () => {} };
  const { RedisRateLimiter } = await import("./redis-rate-limiter.ts");
  const limiter = new RedisRateLimiter({ ...config.redis, limitPerSecond: config.rateLimitPerSecond, log });
  return { limiter, close: () => limiter.close() };
}
