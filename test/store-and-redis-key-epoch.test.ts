/**
 * The key epoch of an instance that shares Redis also holds the database's (src/auth/store-and-redis-key-epoch.ts):
 * the database's is read at most once per POLL_MS while requests ask, one read at a time, and a value
 * read more than STALE_MS ago vouches for nothing. The database here is a counter standing in for the
 * key_epoch row, and the clock is the test's; test/multi-instance.test.ts runs the real CLI against
 * two real instances.
 */
import { describe, expect, it } from "vitest";
import type { KeyEpochSource } from "../src/auth/key-epoch.ts";
import type { KeyEpoch } from "../src/auth/key-verdicts.ts";
import { POLL_MS, polledKeyEpoch, STALE_MS, storeAndRedisKeyEpoch } from "../src/auth/store-and-redis-key-epoch.ts";

/** A database epoch whose reads answer when the test says. */
function database() {
  let epoch = 7;
  const pending: Array<() => void> = [];
  let reads = 0;
  const source: KeyEpochSource = {
    read: () => {
      reads++;
      const value = String(epoch);
      return new Promise<KeyEpoch>((resolve) => pending.push(() => resolve(value)));
    },
    announce: async () => {},
    close: () => {},
  };
  return {
    source,
    commit: () => epoch++,
    reads: () => reads,
    answer: async () => {
      for (const resolve of pending.splice(0)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe(`the database's key epoch is polled every ${POLL_MS} ms while asked, and trusted for ${STALE_MS} ms from its read`, () => {
  it("unknown until the first read answers; then one read per poll interval however many requests ask", async () => {
    let now = 0;
    const db = database();
    const polled = polledKeyEpoch(db.source, { now: () => now });
    expect(polled.read()).toBeUndefined();
    expect(polled.read()).toBeUndefined();
    expect(db.reads()).toBe(1);
    await db.answer();
    expect(polled.read()).toBe("7");
    now += POLL_MS - 1;
    for (let i = 0; i < 100; i++) polled.read();
    expect(db.reads()).toBe(1);
    now += 1;
    expect(polled.read()).toBe("7");
    expect(db.reads()).toBe(2);
  });

  it("a commit is seen once a read started after it answers; a value older than the bound is unknown, so keys are read from the database", async () => {
    let now = 0;
    const db = database();
    const polled = polledKeyEpoch(db.source, { now: () => now });
    polled.read();
    await db.answer();
    db.commit();
    now += POLL_MS;
    expect(polled.read()).toBe("7");
    await db.answer();
    expect(polled.read()).toBe("8");
    // The database stops answering: the last value vouches until STALE_MS after its read began, then nothing does.
    now += STALE_MS;
    expect(polled.read()).toBe("8");
    now += 1;
    expect(polled.read()).toBeUndefined();
  });
});

describe("Redis's epoch and the database's are one value: either moving moves it, either unknown makes it unknown", () => {
  const fixed = (value: KeyEpoch): KeyEpochSource & { value: KeyEpoch } => {
    const source = { value, read: () => source.value, announce: async () => {}, close: () => {} };
    return source;
  };
  it("joined, and undefined when either side is", async () => {
    const [redis, own] = [fixed("r1"), fixed("7")];
    const both = storeAndRedisKeyEpoch(redis, own);
    const first = await both.read();
    own.value = "8";
    expect(await both.read()).not.toBe(first);
    redis.value = "r2";
    const third = await both.read();
    expect(third).not.toBe(first);
    redis.value = undefined;
    expect(await both.read()).toBeUndefined();
    [redis.value, own.value] = ["r2", undefined];
    expect(await both.read()).toBeUndefined();
  });
});
