/**
 * Limits per organization on batch jobs, and retention: DELETE /api/v1/batches/{id} (rows counted
 * in the database, a running job cancelled), the caps on jobs in flight (429) and stored (409), and
 * the `retention` job (old rows go, undelivered deliveries and recent rows stay, a few rows per
 * transaction) on its schedule. Real HTTP on a socket, real worker threads, the real database
 * (SQLite, or PostgreSQL under TEST_DATABASE_URL); the geocoder is a FAKE UPSTREAM
 * (test/fake-census-geocoder.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { loadConfig } from "../src/config.ts";
import { RETENTION_ROWS_PER_TRANSACTION, sweepRetention } from "../src/scheduled/retention.ts";
import { addDays, dateInOhio } from "../src/rates/calendar.ts";
import { startService, type RunningService } from "../src/service.ts";
import { insertBatchJob, PURGE_CHUNKS_PER_STEP } from "../src/batch/batch-jobs.repository.ts";
import type { Store } from "../src/store/connect.ts";
import type { Db } from "../src/store/database.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { addUsage } from "../src/store/usage.repository.ts";
import { UsageRecorder } from "../src/usage/usage-recorder.ts";
import { oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestService, testConfig, type TestService } from "./_setup.ts";
import { freshStore } from "./_store.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const IN_FLIGHT = 2;
const STORED = 3;

let fake: FakeCensusGeocoder;
let service: RunningService;
let cleanup: () => Promise<void>;
const logs: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  fake = await startFakeCensusGeocoder();
  const test = testConfig({
    CENSUS_GEOCODER_URL: fake.url,
    // One row per chunk and per group: a held upstream holds exactly the chunk in hand.
    BATCH_CHUNK_ROWS: "1",
    GEOCODER_BATCH_ROWS: "1",
    BATCH_POLL_MS: "20",
    BATCH_JOBS_IN_FLIGHT_PER_ORG: String(IN_FLIGHT),
    BATCH_JOBS_STORED_PER_ORG: String(STORED),
  });
  cleanup = test.cleanup;
  service = await startService(test.config, { log: (entry) => logs.push(entry) });
  // The batch lane's threads start with the first job and load the boundary data: a warm-up job
  // keeps that (seconds on a busy machine) out of the tests' own time.
  const key = await newKey("Warm-up Org");
  await completed(key, (await submit(key, counties(1))).headers.get("location")!);
}, 120_000);

afterAll(async () => {
  await service?.close();
  await fake?.close();
  await cleanup?.();
});

async function newKey(name: string): Promise<string> {
  const org = await createOrganization(service.store.db, name);
  return (await createKey(service.store.db, org.id, name, "live")).key;
}

function send(key: string, method: string, path: string, body?: string, contentType?: string): Promise<Response> {
  return fetch(new URL(path, service.url), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(contentType && { "content-type": contentType }) },
    ...(body !== undefined && { body }),
  });
}

async function submit(key: string, ndjson: string): Promise<Response> {
  return send(key, "POST", "/api/v1/batches", ndjson, "application/x-ndjson");
}

const counties = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `c${i + 1}`, county: "Franklin", date: "2026-06-01" })).join("\n");
const addresses = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${tag}${i + 1}`, address: oneLine("carroll").replace("10 ", `${20 + i} `) })).join("\n");

/** Polls the job until it is completed (a wait, not a timed assertion). */
async function completed(key: string, location: string): Promise<Record<string, any>> {
  for (;;) {
    const job = (await (await send(key, "GET", location)).json()) as Record<string, any>;
    if (job.status === "completed") return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function rowsOf(jobId: string): Promise<{ jobs: number; chunks: number }> {
  const db = service.store.db;
  const jobs = await db.selectFrom("batch_jobs").select((eb) => eb.fn.countAll<number | string>().as("n")).where("id", "=", jobId).executeTakeFirstOrThrow();
  const chunks = await db.selectFrom("batch_chunks").select((eb) => eb.fn.countAll<number | string>().as("n")).where("job_id", "=", jobId).executeTakeFirstOrThrow();
  return { jobs: Number(jobs.n), chunks: Number(chunks.n) };
}

describe("DELETE /api/v1/batches/{id}: the job, its chunks and its results are deleted by its organization", () => {
  it("answers 204 and deletes the job row and every chunk (inputs and results), more chunks than one transaction takes; the job and its results then answer 404", async () => {
    const key = await newKey("Deleting Org");
    const rows = PURGE_CHUNKS_PER_STEP * 2 + 5;
    const location = (await submit(key, counties(rows))).headers.get("location")!;
    const id = location.split("/").pop()!;
    expect(await completed(key, location)).toMatchObject({ total: rows, done: rows });
    expect(await rowsOf(id)).toEqual({ jobs: 1, chunks: rows });

    const deleted = await send(key, "DELETE", location);
    expect(deleted.status).toBe(204);
    await service.context.lookups.jobs.purgesSettled();
    expect(await rowsOf(id)).toEqual({ jobs: 0, chunks: 0 });

    for (const path of [location, `${location}/results`]) {
      const res = await send(key, "GET", path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { type: string }).type).toMatch(/\/batch-not-found$/);
    }
    expect((await send(key, "DELETE", location)).status).toBe(404);
  });

  it("another organization's job is not found (404, as GET answers) and stays, rows and all", async () => {
    const owner = await newKey("Owning Org");
    const stranger = await newKey("Other Org");
    const location = (await submit(owner, counties(3))).headers.get("location")!;
    const id = location.split("/").pop()!;
    await completed(owner, location);

    const res = await send(stranger, "DELETE", location);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { type: string }).type).toMatch(/\/batch-not-found$/);
    expect((await send(stranger, "DELETE", "/api/v1/batches/bat_unknown")).status).toBe(404);
    expect(await rowsOf(id)).toEqual({ jobs: 1, chunks: 3 });
    expect((await send(owner, "GET", `${location}/results`)).status).toBe(200);
  });

  it("a running job is cancelled: its runner's results in hand are not stored, no row comes back, and the runner goes on to the next job", async () => {
    const key = await newKey("Cancelling Org");
    fake.setMode("hold");
    let location: string;
    try {
      const sent = fake.requests.length;
      location = (await submit(key, addresses(4, "run-"))).headers.get("location")!;
      // The upstream holds the first chunk's address: the job is running, its runner waiting.
      while (fake.requests.length === sent) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(((await (await send(key, "GET", location)).json()) as { status: string }).status).toBe("running");
      const deleted = await send(key, "DELETE", location);
      expect(deleted.status).toBe(204);
    } finally {
      fake.release();
    }
    const id = location.split("/").pop()!;
    await service.context.lookups.jobs.purgesSettled();
    expect(await rowsOf(id)).toEqual({ jobs: 0, chunks: 0 });
    // The runner's geocoder request is stopped by the delete (test/batch-delete-stops-geocoder.test.ts); it stores nothing and says so.
    while (!logs.some((entry) => entry.job === id && /not stored/.test(String(entry.msg)))) await new Promise((resolve) => setTimeout(resolve, 20));
    const next = (await submit(key, counties(2))).headers.get("location")!;
    expect(await completed(key, next)).toMatchObject({ total: 2, done: 2 });
    expect(await rowsOf(id)).toEqual({ jobs: 0, chunks: 0 });
    expect((await send(key, "GET", `${location}/results`)).status).toBe(404);
    expect(logs.filter((entry) => entry.level === "error")).toEqual([]);
  });
});

describe("caps per organization: jobs in flight (429) and jobs stored (409)", () => {
  it(`a job over ${IN_FLIGHT} queued or running is refused with 429 batch-jobs-in-flight and Retry-After; another organization is not held back`, async () => {
    const key = await newKey("Busy Org");
    fake.setMode("hold");
    const locations: string[] = [];
    try {
      for (let i = 0; i < IN_FLIGHT; i++) {
        const res = await submit(key, addresses(1, `f${i}-`));
        expect(res.status).toBe(202);
        locations.push(res.headers.get("location")!);
      }
      const refused = await submit(key, counties(1));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("30");
      expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const problem = (await refused.json()) as { type: string; detail: string };
      expect(problem.type).toMatch(/\/batch-jobs-in-flight$/);
      expect(problem.detail).toMatch(/2 batch jobs queued or running; the limit is 2/);
      expect((await submit(await newKey("Calm Org"), counties(1))).status).toBe(202);
    } finally {
      fake.release();
    }
    for (const location of locations) await completed(key, location);
    expect((await submit(key, counties(1))).status).toBe(202);
  });

  it(`uploads sent at once cannot overshoot the cap: of 8 sent together, ${IN_FLIGHT} are stored and the others get 429`, async () => {
    const key = await newKey("Eager Org");
    fake.setMode("hold");
    let answers: Response[];
    try {
      answers = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(key, addresses(1, `e${i}-`))));
    } finally {
      fake.release();
    }
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(IN_FLIGHT).fill(202), ...Array(8 - IN_FLIGHT).fill(429)]);
    const organizationId = (await service.store.db.selectFrom("organizations").select("id").where("name", "=", "Eager Org").executeTakeFirstOrThrow()).id;
    const stored = await service.store.db.selectFrom("batch_jobs").select("id").where("organization_id", "=", organizationId).execute();
    expect(stored).toHaveLength(IN_FLIGHT);
    for (const res of answers.filter((r) => r.status === 202)) await completed(key, res.headers.get("location")!);
  });

  it("a job stored while its upload's answer is still on its way counts once: the next upload is admitted, not refused for two", async () => {
    const key = await newKey("Overlapping Org");
    const organizationId = (await service.store.db.selectFrom("organizations").select("id").where("name", "=", "Overlapping Org").executeTakeFirstOrThrow()).id;
    const jobs = service.context.lookups.jobs;
    const first = await jobs.admitJob(organizationId, 100);
    if ("ok" in first) throw new Error(`the first upload was refused: ${first.detail}`);
    try {
      // The batch lane stores the first job; its place is held until the HTTP answer goes out.
      const stored = await jobs.submitJob({ jobId: first.jobId, bytes: new TextEncoder().encode(counties(1)), format: "ndjson", organizationId, apiKeyId: "key_test", requestId: "", today: dateInOhio(new Date()) });
      expect(stored).toMatchObject({ ok: true, job: { id: first.jobId } });
      const second = await jobs.admitJob(organizationId, 100);
      expect("ok" in second ? second.slug : "admitted").toBe("admitted");
      if (!("ok" in second)) second.release();
    } finally {
      first.release();
    }
  });

  it(`a job over ${STORED} stored (completed ones count) is refused with 409 batch-jobs-stored until one is deleted`, async () => {
    const key = await newKey("Hoarding Org");
    const locations: string[] = [];
    for (let i = 0; i < STORED; i++) {
      const location = (await submit(key, counties(1))).headers.get("location")!;
      await completed(key, location);
      locations.push(location);
    }
    const refused = await submit(key, counties(1));
    expect(refused.status).toBe(409);
    const problem = (await refused.json()) as { type: string; detail: string };
    expect(problem.type).toMatch(/\/batch-jobs-stored$/);
    expect(problem.detail).toMatch(/keeps 3 batch jobs; the limit is 3\. Delete jobs/);

    expect((await send(key, "DELETE", locations[0]!)).status).toBe(204);
    expect((await submit(key, counties(1))).status).toBe(202);
  });
});

describe("deleting a large job answers once it is marked; its purge yields to usage writes and lookups", () => {
  it("DELETE of a 60 MB job answers 204 while its chunks are still stored; they go in the background, while every lookup is answered and every request's usage is written", async () => {
    const name = "Large Org";
    const key = await newKey(name);
    const db = service.store.db;
    const org = await db.selectFrom("organizations").select("id").where("name", "=", name).executeTakeFirstOrThrow();
    const keyId = (await db.selectFrom("api_keys").select("id").where("organization_id", "=", org.id).executeTakeFirstOrThrow()).id;
    // A completed job of 60 chunks of about 1 MB of results each, as a 30,000-row job of long rows stores them.
    const chunks = 60;
    const output = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ row: i + 1, id: `r${i + 1}-${"x".repeat(2_000)}`, result: { kind: "failure" } })));
    const id = "bat_large";
    await insertBatchJob(
      db,
      { id, organizationId: org.id, apiKeyId: keyId, requestId: "req_large", format: "ndjson", today: "2026-11-01", total: chunks * 500, chunks: Array.from({ length: chunks }, (_, seq) => ({ firstRow: seq * 500 + 1, rowCount: 500, input: "[]" })) },
      new Date(),
    );
    for (let seq = 0; seq < chunks; seq++) await db.updateTable("batch_chunks").set({ status: "done", output }).where("job_id", "=", id).where("seq", "=", seq).execute();
    await db.updateTable("batch_jobs").set({ status: "completed", done: chunks * 500, chunks_done: chunks, completed_at: new Date().toISOString() }).where("id", "=", id).execute();
    await service.context.usage!.flush();

    // County lookups with the same key throughout, each counted once in its usage.
    let requests = 0;
    let lookingUp = true;
    const statuses: number[] = [];
    const lookups = (async () => {
      while (lookingUp) {
        requests++;
        const res = await send(key, "GET", "/api/v1/rates?county=franklin&date=2026-06-01");
        statuses.push(res.status);
        await res.arrayBuffer();
      }
    })();
    requests++;
    const deleted = await send(key, "DELETE", `/api/v1/batches/${id}`);
    expect(deleted.status).toBe(204);
    // Answered once marked: the purge, a couple of chunks per transaction with pauses between, has barely begun.
    expect((await rowsOf(id)).chunks).toBeGreaterThan(chunks / 2);
    expect((await send(key, "GET", `/api/v1/batches/${id}`)).status).toBe(404);
    requests++;
    await service.context.lookups.jobs.purgesSettled();
    lookingUp = false;
    await lookups;
    expect(await rowsOf(id)).toEqual({ jobs: 0, chunks: 0 });
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200)).toBe(true);

    await service.context.usage!.flush();
    const usage = await db.selectFrom("api_key_usage").select((eb) => eb.fn.sum<number | string>("count").as("n")).where("key_id", "=", keyId).executeTakeFirstOrThrow();
    expect(Number(usage.n)).toBe(requests);
    expect(logs.filter((entry) => entry.level === "error")).toEqual([]);
  }, 120_000);
});

describe("a usage write is never lost to another writer's lock", () => {
  it("stop() while another connection holds the write lock past busy_timeout (SQLite: another process; PostgreSQL: the table locked): the counts are written once it is released", async () => {
    const { store, close } = await freshStore();
    const logged: Array<Record<string, unknown>> = [];
    try {
      const org = await createOrganization(store.db, "Counted Org");
      await createKey(store.db, org.id, "counted", "live");
      const keyId = (await store.db.selectFrom("api_keys").select("id").where("organization_id", "=", org.id).executeTakeFirstOrThrow()).id;
      const recorder = new UsageRecorder(store.db, { flushIntervalMs: 60_000, log: (entry) => logged.push(entry) });
      for (let i = 0; i < 7; i++) recorder.record(keyId, 200);
      // Longer than SQLite's busy_timeout (5 s): the first write is refused with `database is locked`.
      const { released } = await holdWriteLock(store, 6_500);
      try {
        await recorder.stop();
      } finally {
        await released;
      }
      const usage = await store.db.selectFrom("api_key_usage").select((eb) => eb.fn.sum<number | string>("count").as("n")).where("key_id", "=", keyId).executeTakeFirstOrThrow();
      expect(Number(usage.n)).toBe(7);
      expect(logged.filter((entry) => /lost/.test(String(entry.msg)))).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

describe("a timed usage write never holds the answering thread for another writer's lock", () => {
  it("while another connection holds the write lock, the timed writes give way (the event loop keeps turning) and the counts are written once it is released", async () => {
    const { store, close } = await freshStore();
    const logged: Array<Record<string, unknown>> = [];
    try {
      const org = await createOrganization(store.db, "Busy Org");
      await createKey(store.db, org.id, "busy", "live");
      const keyId = (await store.db.selectFrom("api_keys").select("id").where("organization_id", "=", org.id).executeTakeFirstOrThrow()).id;
      const recorder = new UsageRecorder(store.db, { flushIntervalMs: 50, log: (entry) => logged.push(entry), ...(store.sqlite && { sqlite: store.sqlite }) });
      const { released } = await holdWriteLock(store, 1_500);
      // The longest the loop went without turning while the lock was held elsewhere: a write waiting for it synchronously (better-sqlite3's busy wait) would stop it for the whole 1.5 s.
      let last = performance.now();
      let longestStall = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        longestStall = Math.max(longestStall, now - last);
        last = now;
      }, 5);
      for (let i = 0; i < 7; i++) recorder.record(keyId, 200);
      recorder.start();
      await released;
      clearInterval(ticker);
      const written = async () => Number((await store.db.selectFrom("api_key_usage").select((eb) => eb.fn.sum<number | string>("count").as("n")).where("key_id", "=", keyId).executeTakeFirstOrThrow()).n ?? 0);
      for (let waited = 0; (await written()) < 7 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      await recorder.stop();
      expect(longestStall).toBeLessThan(500);
      expect(await written()).toBe(7);
      expect(logged.filter((entry) => entry.level === "error")).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

/**
 * Another writer holds the lock a usage write needs for `ms`: on SQLite a second process in BEGIN
 * IMMEDIATE (in this process, the service connection's synchronous wait would keep the timer that
 * releases it from running), on PostgreSQL a connection holding api_key_usage locked. Resolves once
 * the lock is held, with a promise of its release.
 */
async function holdWriteLock(store: Store, ms: number): Promise<{ released: Promise<void> }> {
  if (store.sqlite) {
    const script = `const db = new (require("better-sqlite3"))(process.argv[1]); db.exec("begin immediate"); console.log("locked"); setTimeout(() => { db.exec("commit"); db.close(); }, ${ms});`;
    const child = spawn(process.execPath, ["-e", script, store.sqlite.name], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve, reject) => child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`lock holder exited ${code}`)))));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (data: Buffer) => data.toString().includes("locked") && resolve());
      child.on("error", reject);
    });
    return { released: exited };
  }
  const client = await (await store.postgres!()).connect();
  await client.query("begin");
  await client.query("lock table api_key_usage in exclusive mode");
  const released = new Promise<void>((resolve, reject) =>
    setTimeout(() => {
      client
        .query("commit")
        .then(() => resolve(), reject)
        .finally(() => client.release());
    }, ms),
  );
  return { released };
}

const DAY = 86_400_000;
/** A day's stored counts, all of them answered requests. */
const answered = (n: number) => ({ answered: n, clientErrors: 0, rateLimited: 0, serverErrors: 0 });
const ago = (at: Date, days: number) => new Date(at.getTime() - days * DAY).toISOString();

async function count(db: Db, table: "batch_jobs" | "batch_chunks" | "events" | "deliveries" | "delivery_attempts" | "api_key_usage"): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function ids(db: Db, table: "batch_jobs" | "events" | "deliveries"): Promise<string[]> {
  return (await db.selectFrom(table).select("id").orderBy("id").execute()).map((row) => row.id);
}

async function job(db: Db, organizationId: string, keyId: string, id: string, chunks: number, state: { completedDaysAgo?: number; deleted?: boolean }, at: Date) {
  await insertBatchJob(
    db,
    { id, organizationId, apiKeyId: keyId, requestId: "req_x", format: "ndjson", today: "2026-11-01", total: chunks, chunks: Array.from({ length: chunks }, (_, seq) => ({ firstRow: seq + 1, rowCount: 1, input: "[{}]" })) },
    new Date(ago(at, 60)),
  );
  if (state.completedDaysAgo !== undefined) {
    await db.updateTable("batch_jobs").set({ status: "completed", chunks_done: chunks, completed_at: ago(at, state.completedDaysAgo) }).where("id", "=", id).execute();
    await db.updateTable("batch_chunks").set({ status: "done", output: "[]" }).where("job_id", "=", id).execute();
  }
  if (state.deleted) await db.updateTable("batch_jobs").set({ deleted_at: ago(at, 1) }).where("id", "=", id).execute();
}

async function event(db: Db, id: string, createdDaysAgo: number, at: Date, dedupeKey: string | null = null) {
  await db.insertInto("events").values({ id, type: "filing.due", organization_id: null, webhook_id: null, dedupe_key: dedupeKey, payload: "{}", created_at: ago(at, createdDaysAgo) }).execute();
}

async function delivery(db: Db, id: string, eventId: string, status: "pending" | "delivered" | "failed" | "cancelled", changedDaysAgo: number, at: Date, attempts = 0) {
  const changed = ago(at, changedDaysAgo);
  await db
    .insertInto("deliveries")
    .values({ id, event_id: eventId, webhook_id: "wh_x", status, attempts, next_attempt_at: changed, claimed_by: null, claimed_until: null, last_status_code: null, last_error: null, created_at: changed, updated_at: changed, delivered_at: null })
    .execute();
  for (let n = 1; n <= attempts; n++) {
    await db
      .insertInto("delivery_attempts")
      .values({ id: `${id}-a${n}`, delivery_id: id, number: n, attempted_at: changed, status_code: 500, latency_ms: 5, outcome: "retry", error: null, instance: "i" })
      .execute();
  }
}

describe("the retention job deletes what the RETAIN_* settings no longer keep, a few rows per transaction", () => {
  const at = new Date("2027-03-01T08:30:00Z");
  const retention = { batchJobsDays: 7, eventsDays: 30, usageDays: 400 };

  it("old completed jobs (chunks and all) and deleted jobs' leftovers go; recent and unfinished jobs stay. Finished deliveries and events past 30 days go; pending deliveries, their events, recent rows and keyed events under 400 days stay. Usage past 400 days goes", async () => {
    const { store, close } = await freshStore();
    try {
      const db = store.db;
      const org = await createOrganization(db, "Swept Org");
      await createKey(db, org.id, "swept", "live");
      const keyId = (await db.selectFrom("api_keys").select("id").where("organization_id", "=", org.id).executeTakeFirstOrThrow()).id;

      await job(db, org.id, keyId, "bat_old", PURGE_CHUNKS_PER_STEP * 2 + 3, { completedDaysAgo: 8 }, at);
      await job(db, org.id, keyId, "bat_recent", 2, { completedDaysAgo: 6 }, at);
      await job(db, org.id, keyId, "bat_queued", 2, {}, at);
      await job(db, org.id, keyId, "bat_left", 3, { deleted: true }, at);

      await event(db, "evt_delivered", 40, at);
      await delivery(db, "dlv_delivered", "evt_delivered", "delivered", 40, at, 2);
      await event(db, "evt_pending", 40, at);
      await delivery(db, "dlv_pending", "evt_pending", "pending", 40, at, 3);
      await event(db, "evt_redelivered", 40, at);
      await delivery(db, "dlv_failed", "evt_redelivered", "failed", 40, at, 1);
      await delivery(db, "dlv_redelivered", "evt_redelivered", "delivered", 1, at, 1);
      await event(db, "evt_recent", 1, at);
      await event(db, "evt_keyed", 40, at, "filing.due:x");
      await event(db, "evt_keyed_old", 401, at, "filing.due:y");
      await event(db, "evt_plain", 40, at);
      // More cancelled deliveries than one transaction deletes.
      await event(db, "evt_many", 40, at);
      const many = RETENTION_ROWS_PER_TRANSACTION * 2 + 7;
      for (let start = 0; start < many; start += 200) {
        const rows = Array.from({ length: Math.min(200, many - start) }, (_, i) => {
          const changed = ago(at, 35);
          return { id: `dlv_many_${start + i}`, event_id: "evt_many", webhook_id: "wh_x", status: "cancelled" as const, attempts: 0, next_attempt_at: changed, claimed_by: null, claimed_until: null, last_status_code: null, last_error: null, created_at: changed, updated_at: changed, delivered_at: null };
        });
        await db.insertInto("deliveries").values(rows).execute();
      }

      const today = dateInOhio(at);
      const oldDays = RETENTION_ROWS_PER_TRANSACTION + 5;
      await addUsage(db, [
        { keyId, day: addDays(today, -399), ...answered(5) },
        { keyId, day: addDays(today, -400), ...answered(6) },
        ...Array.from({ length: oldDays }, (_, i) => ({ keyId, day: addDays(today, -401 - i), ...answered(1) })),
      ]);

      const report = await sweepRetention(db, retention, at);
      expect(report).toMatchObject({
        batch_jobs: 2,
        batch_chunks: PURGE_CHUNKS_PER_STEP * 2 + 3 + 3,
        deliveries: 2 + many,
        delivery_attempts: 3,
        events: 4,
        usage_counts: oldDays,
      });
      expect(await ids(db, "batch_jobs")).toEqual(["bat_queued", "bat_recent"]);
      expect(await count(db, "batch_chunks")).toBe(4);
      expect(await ids(db, "deliveries")).toEqual(["dlv_pending", "dlv_redelivered"]);
      expect(await count(db, "delivery_attempts")).toBe(4);
      expect(await ids(db, "events")).toEqual(["evt_keyed", "evt_pending", "evt_recent", "evt_redelivered"]);
      const usage = await db.selectFrom("api_key_usage").select("day").orderBy("day").execute();
      expect(usage.map((row) => row.day)).toEqual([addDays(today, -400), addDays(today, -399)]);

      // Run again: nothing left to delete.
      expect(await sweepRetention(db, retention, at)).toMatchObject({ batch_jobs: 0, batch_chunks: 0, deliveries: 0, delivery_attempts: 0, events: 0, usage_counts: 0 });
    } finally {
      await close();
    }
  });
});

describe("the retention job runs on its schedule (SCHEDULE_RETENTION), or not at all when it is off", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api?.close());

  it("runs at 03:30 in Ohio and deletes usage counts past RETAIN_USAGE_DAYS", async () => {
    const { scheduler } = api.service.background;
    const db = api.service.store.db;
    const from = new Date("2027-03-01T12:00:00Z");
    const keyId = (await db.selectFrom("api_keys").select("id").where("organization_id", "=", api.orgId).executeTakeFirstOrThrow()).id;
    await addUsage(db, [
      { keyId, day: "2025-12-01", ...answered(1) },
      { keyId, day: "2027-02-28", ...answered(1) },
    ]);
    scheduler.setCursor(from);
    const ran = (await scheduler.advanceTo(new Date(from.getTime() + DAY))).filter((r) => r.job === "retention");
    expect(ran.map((r) => r.at.toISOString())).toEqual(["2027-03-02T08:30:00.000Z"]);
    expect(ran[0]!.result).toMatchObject({ usage_counts: 1, kept_from: { usage: "2026-01-26" } });
    const days = await db.selectFrom("api_key_usage").select("day").where("key_id", "=", keyId).execute();
    expect(days.map((row) => row.day)).toEqual(["2027-02-28"]);
  });

  it("`buckeye jobs run retention` runs the sweep by hand, against the configured database, and prints what it deleted", async () => {
    const { config, cleanup } = testConfig();
    try {
      const env = { ...process.env, DATABASE_URL: config.databaseUrl, LOG_LEVEL: "silent" };
      const run = spawnSync(process.execPath, ["bin/buckeye.js", "jobs", "run", "retention", "--at", "2027-03-02T03:30:00-05:00", "--json"], { cwd: ROOT, env, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        job: "retention",
        at: "2027-03-02T08:30:00.000Z",
        result: {
          batch_jobs: 0,
          batch_chunks: 0,
          deliveries: 0,
          delivery_attempts: 0,
          events: 0,
          usage_counts: 0,
          kept_from: { batch_jobs: "2027-02-23T08:30:00.000Z", events: "2027-01-31T08:30:00.000Z", usage: "2026-01-26" },
        },
      });
    } finally {
      await cleanup();
    }
  }, 60_000);

  it("SCHEDULE_RETENTION=off leaves it unscheduled", () => {
    expect(loadConfig({ SCHEDULE_RETENTION: "off" }).jobs.schedules.retention).toBeNull();
    expect(api.config.jobs.schedules.retention).toBe("30 3 * * *");
    expect(api.config.jobs.retention).toEqual({ batchJobsDays: 7, eventsDays: 30, usageDays: 400 });
  });
});
