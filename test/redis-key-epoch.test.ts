/**
 * The key epoch shared through Redis (src/auth/redis-key-epoch.ts): what one instance or the CLI
 * announces, every other instance reads on its next turn; while Redis cannot be reached the epoch is
 * unknown, so no cached verdict is trusted. Needs the Redis on 127.0.0.1:6379 (or TEST_REDIS_URL).
 */
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { announceKeyChangeOnce, redisKeyEpoch } from "../src/auth/redis-key-epoch.ts";
import { closeRedis, openRedis, type Redis } from "../src/store/redis.ts";
import { until } from "./_wait.ts";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const open: Redis[] = [];
function connect(url = REDIS): Redis {
  const redis = openRedis(url);
  open.push(redis);
  return redis;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map(closeRedis));
});

describe("the key epoch in Redis", () => {
  it("a change announced through one connection, or by the CLI's own, is read through every other", async () => {
    const keyPrefix = `buckeye-test:${randomBytes(6).toString("hex")}:`;
    const [a, b] = [connect(), connect()];
    await until(() => a.status === "ready" && b.status === "ready", "both connections");
    const [atA, atB] = [redisKeyEpoch(a, keyPrefix), redisKeyEpoch(b, keyPrefix)];
    const before = await atB.read();
    expect(before).toBe("");
    await atA.announce();
    const announced = await atB.read();
    expect(announced).not.toBe(before);
    expect(await atA.read()).toBe(announced);
    await announceKeyChangeOnce({ url: REDIS, keyPrefix });
    expect(await atB.read()).not.toBe(announced);
  });

  it("while Redis cannot be reached the epoch is unknown (undefined), so every key is read from the database", async () => {
    const unreachable = connect("redis://127.0.0.1:1");
    expect(await redisKeyEpoch(unreachable, "buckeye-test:").read()).toBeUndefined();
  });
});
