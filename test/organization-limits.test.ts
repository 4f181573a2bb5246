/**
 * Limits an operator sets per organization (docs/operations/organization-limits.md): each kind is
 * applied to the organization it was set for, from its next request, while another organization
 * keeps the setting's value; a bad value is refused and changes nothing. Real HTTP on a socket, real
 * worker threads, the real database (SQLite, or PostgreSQL under TEST_DATABASE_URL); the geocoder is
 * a FAKE UPSTREAM (test/fake-census-geocoder.ts). Two instances: test/organization-limits-instances.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAccountService, LimitsError, type AccountService } from "../src/accounts/account-service.ts";
import { createKey, KeyError } from "../src/auth/key-service.ts";
import { sweepRetention } from "../src/scheduled/retention.ts";
import { limitDefaults, LIMIT_NAMES, NO_OWN_LIMITS, parseLimitValue } from "../src/organization-limits.ts";
import { startService, type RunningService } from "../src/service.ts";
import { insertBatchJob } from "../src/batch/batch-jobs.repository.ts";
import { findOrganizationLimits } from "../src/store/organization-limits.repository.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { TestClock } from "./_clock.ts";
import { testConfig } from "./_setup.ts";

const PER_KEY = 10;
const PER_ORGANIZATION = 40;

let fake: FakeCensusGeocoder;
let service: RunningService;
let cleanup: () => Promise<void>;
let accounts: AccountService;
/** The service's clock: the rate tests stop it, so a bucket refills only when a test moves it, however slowly a loaded machine answers. */
const clock = new TestClock();
let frozenAt = 0;

function stopClock(): void {
  frozenAt = Date.now();
  clock.set(new Date(frozenAt));
}

function advance(ms: number): void {
  frozenAt += ms;
  clock.set(new Date(frozenAt));
}

afterEach(() => clock.set(null));

beforeAll(async () => {
  fake = await startFakeCensusGeocoder();
  const test = testConfig({
    CENSUS_GEOCODER_URL: fake.url,
    RATE_LIMIT_PER_SECOND: String(PER_KEY),
    RATE_LIMIT_PER_SECOND_PER_ORG: String(PER_ORGANIZATION),
    BATCH_CHUNK_ROWS: "1",
    GEOCODER_BATCH_ROWS: "1",
    BATCH_POLL_MS: "20",
  });
  cleanup = test.cleanup;
  service = await startService(test.config, { log: () => {}, clock });
  accounts = createAccountService({ db: service.store.db, now: () => new Date(), keyChanged: () => service.context.keys.changed(), limitDefaults: limitDefaults(test.config) });
}, 120_000);

afterAll(async () => {
  await service?.close();
  await fake?.close();
  await cleanup?.();
});

async function newOrganization(name: string, trial = false): Promise<{ id: string; key: string }> {
  const org = await createOrganization(service.store.db, name, new Date(), { trial });
  return { id: org.id, key: (await createKey(service.store.db, org.id, name, "live")).key };
}

function send(key: string, method: string, path: string, body?: string): Promise<Response> {
  return fetch(new URL(path, service.url), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "application/x-ndjson" }) },
    ...(body !== undefined && { body }),
  });
}

async function lookup(key: string): Promise<{ status: number; limit: string | null; type?: string; detail?: string }> {
  const res = await send(key, "GET", "/api/v1/rates?county=franklin&date=2025-04-01");
  const body = (await res.json()) as { type?: string; detail?: string };
  return { status: res.status, limit: res.headers.get("ratelimit-limit"), type: body.type, detail: body.detail };
}

const counties = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `c${i + 1}`, county: "Franklin", date: "2026-06-01" })).join("\n");
const addresses = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `a${i + 1}`, address: oneLine("carroll") })).join("\n");

async function completed(key: string, location: string): Promise<void> {
  for (;;) {
    const job = (await (await send(key, "GET", location)).json()) as { status: string };
    if (job.status === "completed") return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}



describe("requests per second per key", () => {
  it("a key of an organization given 2 per second is refused its third request in a second, from its next request on; another organization's key keeps 10", async () => {
    stopClock();
    const own = await newOrganization("Two Per Second Co");
    const other = await newOrganization("Default Rate Co");
    // The verdicts are cached before the change: the change must reach them.
    expect((await lookup(own.key)).limit).toBe(String(PER_KEY));
    expect((await lookup(other.key)).limit).toBe(String(PER_KEY));

    await accounts.changeLimits(own.id, { requestsPerSecondPerKey: 2 });
    const answers = [await lookup(own.key), await lookup(own.key), await lookup(own.key)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2]).toMatchObject({ limit: "2", type: expect.stringMatching(/\/rate-limit-exceeded$/), detail: expect.stringMatching(/may make 2 requests per second/) });
    const others = [];
    for (let i = 0; i < 5; i++) others.push(await lookup(other.key));
    expect(others.map((a) => [a.status, a.limit])).toEqual(Array(5).fill([200, String(PER_KEY)]));
  });

  it("cleared back to its default, the organization's key gets the setting's 10 again from its next request", async () => {
    stopClock();
    const own = await newOrganization("Cleared Rate Co");
    await accounts.changeLimits(own.id, { requestsPerSecondPerKey: 1 });
    expect((await lookup(own.key)).limit).toBe("1");
    advance(1000);
    await accounts.changeLimits(own.id, { requestsPerSecondPerKey: null });
    // The request that brings the raise is admitted under it; its bucket, left empty by the old rate, is full a second later.
    expect(await lookup(own.key)).toMatchObject({ status: 200, limit: String(PER_KEY) });
    advance(1000);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await lookup(own.key));
    expect(answers.map((a) => [a.status, a.limit])).toEqual(Array(5).fill([200, String(PER_KEY)]));
  });
});

describe("requests per second per organization", () => {
  it("an organization given 3 per second across its keys is refused its fourth request in a second, whichever key sends it; another organization keeps 40", async () => {
    stopClock();
    const own = await newOrganization("Three Per Org Co");
    const second = (await createKey(service.store.db, own.id, "second", "live")).key;
    await accounts.changeLimits(own.id, { requestsPerSecondPerOrganization: 3 });
    const answers = [await lookup(own.key), await lookup(second), await lookup(own.key), await lookup(second)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3]).toMatchObject({ limit: "3", type: expect.stringMatching(/\/organization-rate-limit-exceeded$/), detail: expect.stringMatching(/may make 3 requests per second across all its API keys/) });
    const other = await newOrganization("Default Org Rate Co");
    const others = [];
    for (let i = 0; i < 5; i++) others.push((await lookup(other.key)).status);
    expect(others).toEqual(Array(5).fill(200));
  });

  it("an organization in trial given a rate of its own draws from its own bucket at that rate, not from the one organizations in trial share", async () => {
    stopClock();
    const own = await newOrganization("Trial With Own Rate Co", true);
    await accounts.changeLimits(own.id, { requestsPerSecondPerOrganization: 2, requestsPerSecondPerKey: 5 });
    const answers = [await lookup(own.key), await lookup(own.key), await lookup(own.key)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    const refused = answers[2]!;
    expect(refused.detail).toMatch(/This organization may make 2 requests per second/);
    expect(refused.detail).not.toMatch(/trial/);
  });
});

describe("active API keys", () => {
  it("an organization given 2 active keys is refused a third until it revokes one; another organization is not held to 2", async () => {
    const org = await createOrganization(service.store.db, "Two Keys Co");
    await accounts.changeLimits(org.id, { activeKeys: 2 });
    const first = await accounts.createKey(org.id, "one", "live");
    await accounts.createKey(org.id, "two", "live");
    await expect(accounts.createKey(org.id, "three", "live")).rejects.toThrow(KeyError);
    await expect(accounts.createKey(org.id, "three", "live")).rejects.toThrow(/already has 2 active API keys/);
    await accounts.revokeKey(first.id);
    await expect(accounts.createKey(org.id, "three", "live")).resolves.toMatchObject({ label: "three" });
    const other = await createOrganization(service.store.db, "Many Keys Default Co");
    for (const label of ["one", "two", "three"]) await accounts.createKey(other.id, label, "live");
  });
});

describe("batch jobs in flight", () => {
  it("an organization given 1 job in flight is refused a second with 429 batch-jobs-in-flight while the first runs; another organization is not", async () => {
    const own = await newOrganization("One In Flight Co");
    const other = await newOrganization("Default In Flight Co");
    await accounts.changeLimits(own.id, { jobsInFlight: 1 });
    fake.setMode("hold");
    const started: Array<[key: string, location: string]> = [];
    try {
      const first = await send(own.key, "POST", "/api/v1/batches", addresses(1));
      expect(first.status).toBe(202);
      started.push([own.key, first.headers.get("location")!]);
      const refused = await send(own.key, "POST", "/api/v1/batches", counties(1));
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { type: string; detail: string }).detail).toMatch(/1 batch jobs queued or running; the limit is 1/);
      for (let i = 0; i < 2; i++) {
        const res = await send(other.key, "POST", "/api/v1/batches", counties(1));
        expect(res.status).toBe(202);
        started.push([other.key, res.headers.get("location")!]);
      }
    } finally {
      fake.release();
    }
    for (const [key, location] of started) await completed(key, location);
  });
});

describe("batch jobs stored", () => {
  it("an organization given 1 stored job is refused a second with 409 batch-jobs-stored once the first completed; another organization is not", async () => {
    const own = await newOrganization("One Stored Co");
    const other = await newOrganization("Default Stored Co");
    await accounts.changeLimits(own.id, { jobsStored: 1 });
    const first = await send(own.key, "POST", "/api/v1/batches", counties(1));
    expect(first.status).toBe(202);
    await completed(own.key, first.headers.get("location")!);
    const refused = await send(own.key, "POST", "/api/v1/batches", counties(1));
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { type: string; detail: string }).detail).toMatch(/keeps 1 batch jobs; the limit is 1/);
    for (let i = 0; i < 2; i++) expect((await send(other.key, "POST", "/api/v1/batches", counties(1))).status).toBe(202);
  });
});

describe("rows per job", () => {
  it("an organization given 2 rows per job has a 3-row upload refused with 413 batch-too-large naming its limit, and a 2-row one accepted; another organization's 3 rows are accepted", async () => {
    const own = await newOrganization("Two Rows Co");
    const other = await newOrganization("Default Rows Co");
    await accounts.changeLimits(own.id, { rowsPerJob: 2 });
    const refused = await send(own.key, "POST", "/api/v1/batches", counties(3));
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { type: string; detail: string }).detail).toMatch(/a job takes at most 2/);
    expect((await send(own.key, "POST", "/api/v1/batches", counties(2))).status).toBe(202);
    expect((await send(other.key, "POST", "/api/v1/batches", counties(3))).status).toBe(202);
  });
});

describe("retention days", () => {
  it("the sweep deletes an organization's job completed 2 days ago when it was given 1 day, and keeps another organization's of the same age (the setting's 7 days)", async () => {
    const db = service.store.db;
    const at = new Date();
    const twoDaysAgo = new Date(at.getTime() - 2 * 24 * 3600 * 1000).toISOString();
    const jobs: Record<string, string> = {};
    for (const [name, days] of [["Short Retention Co", 1], ["Default Retention Co", null]] as const) {
      const org = await createOrganization(db, name);
      const key = await createKey(db, org.id, name, "live");
      if (days !== null) await accounts.changeLimits(org.id, { retentionDays: days });
      const id = `bat_retention_${days ?? "default"}`;
      await insertBatchJob(db, { id, organizationId: org.id, apiKeyId: key.id, requestId: "req_x", format: "ndjson", today: "2026-11-01", total: 1, chunks: [{ firstRow: 1, rowCount: 1, input: "[{}]" }] }, new Date(twoDaysAgo));
      await db.updateTable("batch_jobs").set({ status: "completed", chunks_done: 1, completed_at: twoDaysAgo }).where("id", "=", id).execute();
      jobs[name] = id;
    }
    await sweepRetention(db, { batchJobsDays: 7, eventsDays: 30, usageDays: 400 }, at);
    const left = (await db.selectFrom("batch_jobs").select("id").where("id", "in", Object.values(jobs)).execute()).map((row) => row.id);
    expect(left).toEqual([jobs["Default Retention Co"]]);
  });
});

describe("a limit's value is a whole number within its bounds", () => {
  it("parses plain digits from 1 to the limit's maximum, and refuses anything else with a one-line reason", () => {
    expect(parseLimitValue("jobsInFlight", "25")).toEqual({ ok: true, value: 25 });
    expect(parseLimitValue("rowsPerJob", "100000")).toEqual({ ok: true, value: 100_000 });
    for (const bad of ["0", "-1", "1.5", "1e3", "ten", "", "100001"]) {
      const parsed = parseLimitValue("rowsPerJob", bad);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.problem).toMatch(/^--rows-per-job must be a whole number from 1 to 100,000, not /);
    }
  });

  it("the service refuses a value out of bounds, or no limit named, and changes nothing", async () => {
    const org = await createOrganization(service.store.db, "Bounds Co");
    await accounts.changeLimits(org.id, { jobsStored: 5 });
    for (const changes of [{ jobsStored: 0 }, { jobsStored: 10_001 }, { jobsStored: 2.5 }, { jobsInFlight: 3, jobsStored: -1 }, {}]) {
      await expect(accounts.changeLimits(org.id, changes)).rejects.toThrow(LimitsError);
    }
    expect(await findOrganizationLimits(service.store.db, org.id)).toEqual({ ...NO_OWN_LIMITS, jobsStored: 5 });
    await expect(accounts.changeLimits("org_missing", { jobsStored: 5 })).rejects.toThrow(/no organization org_missing/);
  });

  it("shows each limit with its value and whether it is the organization's own or the default", async () => {
    const org = await createOrganization(service.store.db, "Shown Co");
    await accounts.changeLimits(org.id, { jobsInFlight: 3 });
    const shown = await accounts.limits(org.id);
    expect(shown!.map((limit) => limit.name)).toEqual(LIMIT_NAMES);
    expect(shown!.find((limit) => limit.name === "jobsInFlight")).toEqual({ name: "jobsInFlight", value: 3, own: true });
    expect(shown!.find((limit) => limit.name === "requestsPerSecondPerKey")).toEqual({ name: "requestsPerSecondPerKey", value: PER_KEY, own: false });
    expect(await accounts.limits("org_missing")).toBeNull();
  });
});
