/** Chooses where the per-key buckets live: in Redis when REDIS_URL is set, else in this process. */
import type { Config } from "../config.ts";
import type { Logger } from "./app.ts";
import { MemoryRateLimiter, type RateLimiter } from "./rate-limit.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";

export interface RateLimits {
  limiter: RateLimiter;
  close(): Promise<void>;
}

export function createRateLimiter(config: Pick<Config, "rateLimitPerSecond" | "redis">, log: Logger): RateLimits {
  if (!config.redis) return { limiter: new MemoryRateLimiter(config.rateLimitPerSecond), close: async () => {} };
  const limiter = new RedisRateLimiter({ ...config.redis, limitPerSecond: config.rateLimitPerSecond, log });
  return { limiter, close: () => limiter.close() };
}
