/**
 * The composition root undoes what it built (docs/architecture.md, "The composition root"): when a
 * later step of createService fails, the parts built before it are closed. The failing step here is
 * the scheduler (an unreadable schedule), built after the store, the Redis client and the worker
 * pool; what stays open is read from the process itself: its file descriptors, sockets and threads.
 */
import { readdirSync, readlinkSync, realpathSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../src/config.ts";
import { createService } from "../src/service.ts";
import { testConfig } from "./_setup.ts";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Open file descriptors pointing at `path` (Linux's /proc; none elsewhere). */
function descriptorsOn(path: string): number {
  const target = realpathSync(path);
  let count = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(target)) count++;
    } catch {
      // closed between the listing and the read
    }
  }
  return count;
}

const threads = () => readdirSync("/proc/self/task").length;
const sockets = () => process.getActiveResourcesInfo().filter((kind) => kind === "TCPSocketWrap").length;

/** Waits until `read` is back to `expected` (threads end a moment after they are terminated), or gives up after 5 s. */
async function settlesTo(read: () => number, expected: number): Promise<number> {
  for (let waited = 0; read() > expected && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  return read();
}

describe.skipIf(process.platform !== "linux")("a service whose later step fails leaves nothing open", () => {
  let config: Config;
  let cleanup: () => Promise<void>;

  beforeAll(() => {
    ({ config, cleanup } = testConfig({ REDIS_URL: REDIS, REDIS_KEY_PREFIX: `build-failure-${process.pid}:` }));
  });
  afterAll(async () => cleanup?.());

  it("closes the store, the Redis client and the worker threads built before the failing step", async () => {
    // One service built and closed first, so what the process keeps anyway (libuv's threads, loaded modules) is in the baseline.
    await (await createService(config, { log: () => {} })).close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = { threads: threads(), sockets: sockets() };
    const database = config.databaseUrl.startsWith("postgres") ? null : new URL(config.databaseUrl).pathname;
    const broken: Config = { ...config, jobs: { ...config.jobs, schedules: { ...config.jobs.schedules, reconcile: "not a schedule" } } };

    await expect(createService(broken, { log: () => {} })).rejects.toThrow();

    if (database) expect(descriptorsOn(database)).toBe(0);
    expect(await settlesTo(sockets, before.sockets)).toBe(before.sockets);
    expect(await settlesTo(threads, before.threads)).toBe(before.threads);
  });
});
