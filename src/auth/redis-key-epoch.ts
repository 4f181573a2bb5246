/**
 * The key epoch shared through Redis (`<prefix>keys:epoch`): every path that revokes a key or
 * suspends an organization sets it to a fresh value after its commit, so every instance learns of
 * the change whatever its database. It is read with a GET on the connection the rate limits use
 * (src/store/redis.ts), in the same turn as their script call, so both go out back to back and
 * Redis answers them in one round trip. While Redis is unreachable the epoch is unknown and every
 * key is read from the database.
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { KeyEpochSource } from "./key-epoch.ts";

const keyEpochKey = (keyPrefix: string) => `${keyPrefix}keys:epoch`;

/**
 * A fresh random value, not a counter: were Redis to lose its data, a counter could climb back to
 * a value an instance still has cached verdicts for.
 */
async function setKeyEpoch(redis: Redis, key: string): Promise<void> {
  await redis.set(key, randomUUID());
}

export function redisKeyEpoch(redis: Redis, keyPrefix: string): KeyEpochSource {
  const key = keyEpochKey(keyPrefix);
  return {
    read: async () => {
      if (redis.status !== "ready") return undefined;
      try {
        return (await redis.get(key)) ?? "";
      } catch {
        return undefined;
      }
    },
    announce: () => setKeyEpoch(redis, key),
    close: () => {},
  };
}

/** For a process that holds no Redis connection of its own (the CLI): connect, announce, close. */
export async function announceKeyChangeOnce(options: { url: string; keyPrefix: string; commandTimeoutMs?: number }): Promise<void> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(options.url, { maxRetriesPerRequest: 1, commandTimeout: options.commandTimeoutMs ?? 1000, connectTimeout: 2000, lazyConnect: true });
  redis.on("error", () => {});
  try {
    await redis.connect();
    await setKeyEpoch(redis, keyEpochKey(options.keyPrefix));
  } finally {
    redis.disconnect();
  }
}
