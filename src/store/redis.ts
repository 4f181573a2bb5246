/**
 * The connection to the Redis the instances share (REDIS_URL): their rate limits
 * (src/http/redis-rate-limiter.ts) and their key epoch (src/auth/redis-key-epoch.ts) go over this one
 * connection, so the commands a turn's requests need travel together. Only modules loaded when Redis
 * is configured import this file, so an embedded deployment never loads the driver.
 */
import { Redis } from "ioredis";

export type { Redis };

export function openRedis(url: string, commandTimeoutMs = 250): Redis {
  const redis = new Redis(url, {
    // Fail fast rather than queue: a request must not wait for Redis to come back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2000,
    // Keep reconnecting for as long as the service runs, at most a second apart.
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  // The rate limiter logs an unreachable Redis once; without a listener of its own ioredis would print every error until it listens.
  redis.on("error", () => {});
  return redis;
}

/** Closes the connection, ignoring the errors a connection that is going away reports. */
export async function closeRedis(redis: Redis): Promise<void> {
  redis.removeAllListeners("error");
  redis.removeAllListeners("close");
  redis.on("error", () => {});
  await redis.quit().catch(() => redis.disconnect());
}
