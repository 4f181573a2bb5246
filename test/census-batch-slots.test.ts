/**
 * The Census batch endpoint's cap (GEOCODER_BATCH_CONCURRENCY) holds across instances when Redis is
 * configured (src/geo/redis-batch-slots.ts): the slots are shared, and a slot whose holder died comes
 * back after its lease. Needs the Redis on 127.0.0.1:6379 (or TEST_REDIS_URL); each test has a key
 * prefix of its own. The end-to-end test runs two services on the FAKE UPSTREAM
 * (test/fake-census-geocoder.ts), which counts the batch requests open at once.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { RedisBatchSlots } from "../src/geo/redis-batch-slots.ts";
import { closeRedis, openRedis, type Redis } from "../src/store/redis.ts";
import { oneLine, startFakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestService } from "./_setup.ts";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection as an instance holds one, once it is ready (it refuses commands before: no offline queue). */
async function ready(redis: Redis): Promise<Redis> {
  if (redis.status !== "ready") await once(redis, "ready");
  return redis;
}

function connection(): Promise<Redis> {
  // A loaded machine may take longer than the service's 250 ms default to answer.
  const redis = openRedis(REDIS, 5000);
  closing.push(() => closeRedis(redis));
  return ready(redis);
}

const prefix = () => `buckeye-test:${randomBytes(6).toString("hex")}:`;

describe("Census batch slots in Redis: one cap for every instance", () => {
  it("two instances' limiters on one Redis, each asked for 8 requests at once, never hold more than the cap of 2 between them", async () => {
    const keyPrefix = prefix();
    const logs: Array<Record<string, unknown>> = [];
    const instances = [await connection(), await connection()].map((redis) => new RedisBatchSlots({ redis, keyPrefix, limit: 2, log: (entry) => logs.push(entry) }));
    let held = 0;
    let most = 0;
    const request = async (slots: RedisBatchSlots) => {
      const release = await slots.acquire(new AbortController().signal);
      held++;
      most = Math.max(most, held);
      await sleep(30);
      held--;
      await release();
    };
    await Promise.all(instances.flatMap((slots) => Array.from({ length: 8 }, () => request(slots))));
    expect(most).toBe(2);
    expect(logs).toEqual([]);
  });

  it("a holder that dies keeps its slot only until its lease lapses; then another instance gets it", async () => {
    const keyPrefix = prefix();
    const log = () => {};
    const dying = await ready(openRedis(REDIS, 5000));
    const crashed = new RedisBatchSlots({ redis: dying, keyPrefix, limit: 1, log, leaseMs: 1500 });
    await crashed.acquire(new AbortController().signal);
    // The instance dies with its request in flight: its connection goes, nothing releases or renews the slot.
    dying.disconnect();
    const waiting = new RedisBatchSlots({ redis: await connection(), keyPrefix, limit: 1, log, leaseMs: 1500 });
    const started = performance.now();
    const release = await waiting.acquire(AbortSignal.timeout(10_000));
    const waited = performance.now() - started;
    await release();
    // Not before the dead holder's lease (less the time its acquire took to come back), and soon after it.
    expect(waited).toBeGreaterThan(1000);
    expect(waited).toBeLessThan(5000);
  });

  it("a wait for a slot ends with its caller's signal", async () => {
    const keyPrefix = prefix();
    const slots = new RedisBatchSlots({ redis: await connection(), keyPrefix, limit: 1, log: () => {} });
    const release = await slots.acquire(new AbortController().signal);
    await expect(slots.acquire(AbortSignal.timeout(300))).rejects.toThrow(/timeout|aborted/i);
    await release();
  });
});

describe("GEOCODER_BATCH_CONCURRENCY with REDIS_URL caps the batch requests of all instances together", () => {
  it("two services with a cap of 1, each running a job the upstream holds, have 1 batch request open at the upstream, and both jobs complete once it answers", { timeout: 120_000 }, async () => {
    const fake = await startFakeCensusGeocoder();
    closing.push(() => fake.close());
    fake.setMode("hold");
    const env = { CENSUS_GEOCODER_URL: fake.url, GEOCODER_BATCH_CONCURRENCY: "1", REDIS_URL: REDIS, REDIS_KEY_PREFIX: prefix(), REDIS_TIMEOUT_MS: "5000", BATCH_POLL_MS: "20" };
    const services = [await startTestService(env), await startTestService(env)];
    for (const api of services) closing.push(() => api.close());
    const locations: string[] = [];
    for (const api of services) {
      const res = await api.service.app.fetch(
        new Request("http://buckeye.test/api/v1/batches", {
          method: "POST",
          body: JSON.stringify({ id: "a", address: oneLine("carroll") }),
          headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "application/x-ndjson" },
        }),
      );
      expect(res.status).toBe(202);
      locations.push(res.headers.get("location")!);
    }
    // One request reaches the upstream; the other instance's waits for the slot (it would be open by now: both jobs are claimed within the poll).
    for (let waited = 0; fake.batchesInFlight === 0 && waited < 60_000; waited += 50) await sleep(50);
    await sleep(2000);
    const jobs = await Promise.all(services.map(async (api, i) => (await (await api.get(locations[i]!)).json()) as { status: string }));
    expect(jobs.map((job) => job.status)).toEqual(["running", "running"]);
    expect(fake.batchesInFlight).toBe(1);
    fake.release();
    for (const [i, api] of services.entries()) {
      for (;;) {
        const job = (await (await api.get(locations[i]!)).json()) as { status: string; done: number };
        if (job.status === "completed") {
          expect(job.done).toBe(1);
          break;
        }
        await sleep(50);
      }
    }
    expect(fake.peakBatchesInFlight).toBe(1);
    expect(fake.batchRequests).toHaveLength(2);
  });
});
