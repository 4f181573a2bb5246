/**
 * Limits an operator sets per organization reach every instance at once (docs/operations/organization-limits.md):
 * two `buckeye serve` processes on one database, a limit set by `buckeye org limits set` in a process of
 * its own, and instance B, which cached the organization's key verdict before the change, applies it
 * on its next request while another organization keeps the default. On both databases: SQLite (one
 * file, the key epoch seen through its WAL index, each instance with its own buckets) and PostgreSQL
 * with Redis (the epoch and the buckets shared there, as docs/operations/several-instances.md runs them).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { openStore, type Store } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { BIN, POSTGRES_URL, startServe, type ServeProcess } from "./_serve-process.ts";
import { freshDatabase, type FreshDatabase } from "./_setup.ts";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const run = promisify(execFile);

const SETUPS = [
  { name: "SQLite, one file, buckets per instance", base: undefined as string | undefined, redis: false },
  { name: "PostgreSQL and Redis, buckets shared", base: POSTGRES_URL, redis: true },
];

describe.each(SETUPS)("a limit set by the CLI reaches both instances at once: $name", ({ base, redis }) => {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-limits-"));
  let database: FreshDatabase;
  let store: Store;
  let env: Record<string, string>;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    database = freshDatabase(dir, "limits", base);
    store = openStore(database.url);
    await migrateToLatest(store.db);
    env = {
      DATABASE_URL: database.url,
      ...(redis && { REDIS_URL: REDIS, REDIS_KEY_PREFIX: `buckeye-test:${randomBytes(6).toString("hex")}:`, REDIS_TIMEOUT_MS: "5000" }),
      RATE_LIMIT_PER_SECOND: "10",
      LOG_LEVEL: "info",
      WORKER_THREADS: "1",
      BATCH_THREADS: "1",
      SCHEDULE_RECONCILE: "off",
      SCHEDULE_RATE_CHANGES: "off",
      SCHEDULE_FILING_REMINDERS: "off",
      SCHEDULE_CERTIFICATE_EXPIRY: "off",
      SCHEDULE_RETENTION: "off",
    };
    [a, b] = await Promise.all([startServe({ env }), startServe({ env })]);
  }, 120_000);

  afterAll(async () => {
    a?.child.kill("SIGKILL");
    b?.child.kill("SIGKILL");
    await store?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `buckeye …` as an operator runs it, with the instances' DATABASE_URL (and REDIS_URL). */
  async function buckeye(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, LOG_LEVEL: "silent" } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  async function lookup(instance: ServeProcess, key: string): Promise<{ status: number; limit: string | null }> {
    const res = await fetch(`${instance.url}/api/v1/rates?county=franklin&date=2025-04-01`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return { status: res.status, limit: res.headers.get("ratelimit-limit") };
  }

  async function newKey(name: string): Promise<{ organizationId: string; key: string }> {
    const org = await createOrganization(store.db, `${name} ${randomBytes(3).toString("hex")}`);
    return { organizationId: org.id, key: (await createKey(store.db, org.id, name, "live")).key };
  }

  // Each CLI command is a process of its own that loads Buckeye, seconds on a loaded machine.
  const CLI_TIMEOUT = { timeout: 300_000 };

  it("set by `org limits set`, a per-key rate of 2/s holds B's next requests to 2 (four sent at once: a 429 among them); another organization keeps 10 on both", CLI_TIMEOUT, async () => {
    const own = await newKey("Limited");
    const other = await newKey("Default");
    // Both instances cache both verdicts first, at the default.
    for (const instance of [a, b]) {
      expect(await lookup(instance, own.key)).toEqual({ status: 200, limit: "10" });
      expect(await lookup(instance, other.key)).toEqual({ status: 200, limit: "10" });
    }

    const set = await buckeye("org", "limits", "set", own.organizationId, "--requests-per-second-per-key", "2", "--json");
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)["requests-per-second-per-key"]).toEqual({ value: 2, source: "organization" });

    // Sent together, so that a loaded machine's slow answers cannot space them out past the bucket's refill (a token each 500 ms).
    const answers = await Promise.all([lookup(b, own.key), lookup(b, own.key), lookup(b, own.key), lookup(b, own.key)]);
    expect(answers.every((answer) => answer.limit === "2")).toBe(true);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(2);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(1);
    expect((await lookup(a, own.key)).limit).toBe("2");
    for (const instance of [a, b]) expect(await lookup(instance, other.key)).toEqual({ status: 200, limit: "10" });
  });

  it("`org show` says which limits are the organization's own; `org limits unset` gives the default back on both instances", CLI_TIMEOUT, async () => {
    const own = await newKey("Shown");
    expect((await buckeye("org", "limits", "set", own.organizationId, "--jobs-in-flight", "3", "--requests-per-second-per-key", "4")).code).toBe(0);
    for (const instance of [a, b]) expect((await lookup(instance, own.key)).limit).toBe("4");

    const shown = JSON.parse((await buckeye("org", "show", own.organizationId, "--json")).stdout) as { limits: Record<string, { value: number; source: string }> };
    expect(shown.limits["jobs-in-flight"]).toEqual({ value: 3, source: "organization" });
    expect(shown.limits["requests-per-second-per-key"]).toEqual({ value: 4, source: "organization" });
    expect(shown.limits["jobs-stored"]).toEqual({ value: 100, source: "default" });
    const text = (await buckeye("org", "show", own.organizationId)).stdout;
    expect(text).toMatch(/jobs-in-flight\s+3\s+own/);
    expect(text).toMatch(/jobs-stored\s+100\s+default \(BATCH_JOBS_STORED_PER_ORG\)/);

    expect((await buckeye("org", "limits", "unset", own.organizationId, "requests-per-second-per-key")).code).toBe(0);
    for (const instance of [a, b]) expect((await lookup(instance, own.key)).limit).toBe("10");
    const after = JSON.parse((await buckeye("org", "show", own.organizationId, "--json")).stdout) as { limits: Record<string, { value: number; source: string }> };
    expect(after.limits["jobs-in-flight"]).toEqual({ value: 3, source: "organization" });
    expect(after.limits["requests-per-second-per-key"]).toEqual({ value: 10, source: "default" });
  });

  it("a bad value or an unknown limit is refused with one line on stderr, exit status 1, and changes nothing", CLI_TIMEOUT, async () => {
    const own = await newKey("Refused");
    expect((await buckeye("org", "limits", "set", own.organizationId, "--jobs-stored", "7")).code).toBe(0);
    const refusals = [
      [["set", own.organizationId, "--jobs-stored", "0"], /^buckeye: --jobs-stored must be a whole number from 1 to 10,000, not 0\n$/],
      [["set", own.organizationId, "--jobs-stored", "5", "--rows-per-job", "200000"], /^buckeye: --rows-per-job must be a whole number from 1 to 100,000, not 200000\n$/],
      [["set", own.organizationId, "--jobs-stored", "2.5"], /^buckeye: --jobs-stored must be a whole number from 1 to 10,000, not "2.5"\n$/],
      [["set", own.organizationId], /^buckeye: name a limit to set: /],
      [["set", "org_missing", "--jobs-stored", "5"], /^buckeye: no organization org_missing\n$/],
      [["unset", own.organizationId, "jobs-everywhere"], /^buckeye: no limit named jobs-everywhere; the limits are /],
    ] as const;
    const answers = await Promise.all(refusals.map(([args]) => buckeye("org", "limits", ...args)));
    for (const [i, refused] of answers.entries()) {
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(refusals[i]![1]);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    }
    const shown = JSON.parse((await buckeye("org", "show", own.organizationId, "--json")).stdout) as { limits: Record<string, { value: number; source: string }> };
    expect(shown.limits["jobs-stored"]).toEqual({ value: 7, source: "organization" });
    expect(shown.limits["rows-per-job"]).toEqual({ value: 100_000, source: "default" });
  });
});
