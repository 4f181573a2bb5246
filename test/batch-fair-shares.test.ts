/**
 * Fair shares between organizations for batch jobs (docs/guides/address-resolution.md, "Fair
 * shares"): claims take turns by organization, each organization has a cap on running jobs, and a
 * chunk that is never stored is given up after its attempts so the job goes on. On SQLite, or on
 * PostgreSQL when TEST_DATABASE_URL names it; the rule with two instances on one PostgreSQL database
 * is in test/multi-instance.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { createService, type Service } from "../src/service.ts";
import { claimChunk, completeChunk, findBatchJob, insertBatchJob, type ClaimedChunk } from "../src/batch/batch-jobs.repository.ts";
import { openStore, type Store } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { TestClock } from "./_clock.ts";
import { oneLine } from "./fake-census-geocoder.ts";
import { freshDatabase, startRequestActors, startTestServiceWithFakeGeocoder, testConfig } from "./_setup.ts";

const dir = mkdtempSync(join(tmpdir(), "buckeye-fair-"));
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

/** A migrated database of its own, so no other test's unfinished chunks take part in the claims. */
async function freshStore(): Promise<Store> {
  const database = freshDatabase(dir, `fair-${drops.length}`);
  const store = openStore(database.url);
  await migrateToLatest(store.db);
  drops.push(async () => {
    await store.close();
    await database.drop();
  });
  return store;
}

const T0 = new Date("2030-01-01T00:00:00Z");
const LEASE_MS = 60_000;
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A job of `chunks` chunks of two county rows each, accepted at `createdAt`. */
async function queueJob(store: Store, organizationId: string, id: string, chunks: number, createdAt: Date): Promise<void> {
  const rows = (seq: number) => JSON.stringify([{ id: `${id}-${seq}a`, county: "Franklin" }, { id: `${id}-${seq}b`, county: "Wood" }]);
  await insertBatchJob(
    store.db,
    { id, organizationId, apiKeyId: "key_x", requestId: `req_${id}`, format: "ndjson", today: "2026-06-01", total: chunks * 2, chunks: Array.from({ length: chunks }, (_, seq) => ({ firstRow: seq * 2 + 1, rowCount: 2, input: rows(seq) })) },
    createdAt,
  );
}

/** `count` claims by one runner at one moment, none stored: "job:seq" each, or null once nothing is claimable. */
async function claims(store: Store, count: number, runningPerOrganization = 2, now = T0): Promise<Array<string | null>> {
  const taken: Array<string | null> = [];
  for (let i = 0; i < count; i++) {
    const chunk = await claimChunk(store.db, store.dialect, "runner-1", now, LEASE_MS, runningPerOrganization);
    taken.push(chunk && `${chunk.jobId}:${chunk.seq}`);
  }
  return taken;
}

const ndjson = (rows: number, prefix: string) => Array.from({ length: rows }, (_, i) => JSON.stringify({ id: `${prefix}${i + 1}`, county: i % 2 ? "Wood" : "Franklin", date: "2026-06-01" })).join("\n");

/** Addresses only the (fake) Census geocoder resolves. */
const addresses = (rows: number, prefix: string) =>
  Array.from({ length: rows }, (_, i) => JSON.stringify({ id: `${prefix}${i + 1}`, address: `${i + 1} Bench St, Columbus, OH 43215`, date: "2026-06-01" })).join("\n");

async function call(service: Service, key: string, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const res = await service.app.fetch(new Request(`http://buckeye.test${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } }));
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function submit(service: Service, key: string, body: string): Promise<string> {
  const { status, body: job } = await call(service, key, "/api/v1/batches", { method: "POST", body, headers: { "content-type": "application/x-ndjson" } });
  expect(status).toBe(202);
  return job.links.self as string;
}

/** Polls the job until it is completed (a wait, not a timed assertion). */
async function completed(service: Service, key: string, location: string): Promise<Record<string, any>> {
  for (;;) {
    const { body } = await call(service, key, location);
    if (body.status === "completed") return body;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("organizations take turns: each claim goes to the organization whose turn is oldest, then its oldest job, then that job's lowest chunk", () => {
  it("two organizations' chunks alternate, whatever order their jobs came in; an organization's second job starts when its first has no chunk left to claim", async () => {
    const store = await freshStore();
    const a = await createOrganization(store.db, "A");
    const b = await createOrganization(store.db, "B");
    await queueJob(store, a.id, "a1", 4, at(0));
    await queueJob(store, a.id, "a2", 4, at(1));
    await queueJob(store, b.id, "b1", 3, at(2));
    expect(await claims(store, 12)).toEqual(["a1:0", "b1:0", "a1:1", "b1:1", "a1:2", "b1:2", "a1:3", "a2:0", "a2:1", "a2:2", "a2:3", null]);
  });

  it("an organization never served goes before every organization already served", async () => {
    const store = await freshStore();
    const a = await createOrganization(store.db, "A");
    const b = await createOrganization(store.db, "B");
    const c = await createOrganization(store.db, "C");
    await queueJob(store, a.id, "a1", 6, at(0));
    expect(await claims(store, 2)).toEqual(["a1:0", "a1:1"]);
    await queueJob(store, b.id, "b1", 3, at(10));
    expect(await claims(store, 2)).toEqual(["b1:0", "a1:2"]);
    await queueJob(store, c.id, "c1", 3, at(20));
    expect(await claims(store, 4)).toEqual(["c1:0", "b1:1", "a1:3", "c1:1"]);
  });

  it("a chunk whose lease lapsed is claimed again in its organization's turn, before that job's later chunks", async () => {
    const store = await freshStore();
    const a = await createOrganization(store.db, "A");
    const b = await createOrganization(store.db, "B");
    await queueJob(store, a.id, "a1", 3, at(0));
    await queueJob(store, b.id, "b1", 3, at(1));
    expect(await claims(store, 2)).toEqual(["a1:0", "b1:0"]);
    const later = new Date(T0.getTime() + LEASE_MS + 1);
    expect(await claims(store, 4, 2, later)).toEqual(["a1:0", "b1:0", "a1:1", "b1:1"]);
  });

  it("a small job of a second organization, queued behind two large jobs of the first that are under way, completes before the first of them", async () => {
    // 10-row chunks claimed two at a time: each of A's jobs is 200 chunks, B's job 2.
    const api = await startTestServiceWithFakeGeocoder({ BATCH_CHUNK_ROWS: "10", GEOCODER_BATCH_ROWS: "20", BATCH_POLL_MS: "20" });
    try {
      const other = await createOrganization(api.service.store.db, "Second Org");
      const otherKey = (await createKey(api.service.store.db, other.id, "second", "live")).key;
      // A's rows all go to the upstream, which holds them: A's first job is under way, and every runner
      // loop is busy with it, when B's job arrives. First come, first served would finish A's jobs first.
      api.fake.setMode("hold");
      const first = await submit(api.service, api.liveKey, addresses(2000, "a1-"));
      await submit(api.service, api.liveKey, addresses(2000, "a2-"));
      while (api.fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const small = await submit(api.service, otherKey, ndjson(20, "b-"));
      api.fake.release();

      const done = await completed(api.service, otherKey, small);
      const { body: firstJob } = await call(api.service, api.liveKey, first);
      expect(done).toMatchObject({ total: 20, done: 20, failed: 0 });
      expect(firstJob).toMatchObject({ status: "running", started_at: expect.any(String) });
      expect(firstJob.done).toBeLessThan(2000);
    } finally {
      await api.close();
    }
  });
});

describe("an organization with BATCH_JOBS_RUNNING_PER_ORG jobs running starts no other: its next job stays queued until one completes", () => {
  it("claims pass over the waiting job while the running one's chunks are all leased, other organizations' jobs go on, and the job starts once the first completes", async () => {
    const store = await freshStore();
    const a = await createOrganization(store.db, "A");
    const b = await createOrganization(store.db, "B");
    await queueJob(store, a.id, "a1", 1, at(0));
    await queueJob(store, a.id, "a2", 1, at(1));
    await queueJob(store, b.id, "b1", 2, at(2));
    const first = await claimChunk(store.db, store.dialect, "runner-1", T0, LEASE_MS, 1);
    expect(first).toMatchObject({ jobId: "a1", seq: 0 });
    expect(await claims(store, 3, 1)).toEqual(["b1:0", "b1:1", null]);
    expect(await findBatchJob(store.db, a.id, "a2")).toMatchObject({ status: "queued", started_at: null });

    expect(await completeChunk(store.db, first!, "runner-1", [], { done: 2, failed: 0 }, T0)).toBe(true);
    expect(await claims(store, 1, 1)).toEqual(["a2:0"]);
    expect(await findBatchJob(store.db, a.id, "a2")).toMatchObject({ status: "running" });
  });

  it("GET /api/v1/batches/{id} shows the waiting job as queued and not started while the organization's running job is held, and it runs once that one completes", async () => {
    const api = await startTestServiceWithFakeGeocoder({ BATCH_JOBS_RUNNING_PER_ORG: "1", BATCH_CHUNK_ROWS: "4", BATCH_POLL_MS: "20" });
    try {
      // The first job's one address goes to the upstream, which holds it: that job keeps running.
      api.fake.setMode("hold");
      const held = await submit(api.service, api.liveKey, JSON.stringify({ id: "h1", address: oneLine("carroll") }));
      while (api.fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const waiting = await submit(api.service, api.liveKey, ndjson(8, "w-"));
      // Idle runners poll every 20 ms: a few rounds of polls would have started it were it allowed to start.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { body: view } = await call(api.service, api.liveKey, waiting);
      expect(view).toMatchObject({ status: "queued", done: 0, started_at: null });
      expect((await call(api.service, api.liveKey, held)).body.status).toBe("running");

      api.fake.release();
      expect(await completed(api.service, api.liveKey, waiting)).toMatchObject({ total: 8, done: 8, failed: 0 });
      expect(await completed(api.service, api.liveKey, held)).toMatchObject({ total: 1, done: 1 });
    } finally {
      await api.close();
    }
  });
});

describe("a chunk worked BATCH_CHUNK_MAX_ATTEMPTS times without being stored fails its rows as batch-row-abandoned, and the job goes on", () => {
  it("after two runners died holding it, a new service gives the chunk's rows up (500, with their row numbers and ids), resolves the rest and completes the job", async () => {
    const { config, cleanup } = testConfig({ BATCH_CHUNK_MAX_ATTEMPTS: "2", BATCH_POLL_MS: "20" });
    drops.push(cleanup);
    const store = openStore(config.databaseUrl);
    let service: Service | undefined;
    try {
      await migrateToLatest(store.db);
      const org = await createOrganization(store.db, "Crashing Org");
      const key = (await createKey(store.db, org.id, "crashing", "live")).key;
      await queueJob(store, org.id, "bat_crashing", 3, new Date());
      // Two runners claim chunk 0 in turn and die before storing it: the second after the first's lease lapsed.
      const now = Date.now();
      const dead: Array<ClaimedChunk | null> = [];
      for (const [owner, offset] of [["dead-1", 0], ["dead-2", LEASE_MS + 1]] as const) {
        dead.push(await claimChunk(store.db, store.dialect, owner, new Date(now + offset), LEASE_MS, 2));
      }
      expect(dead).toMatchObject([{ seq: 0, attempts: 1 }, { seq: 0, attempts: 2 }]);
      await store.close();

      const clock = new TestClock();
      clock.set(() => new Date(Date.now() + 5 * LEASE_MS));
      service = await createService(config, { clock });
      startRequestActors(service);
      const job = await completed(service, key, "/api/v1/batches/bat_crashing");
      expect(job).toMatchObject({ total: 6, done: 6, failed: 2 });

      const res = await service.app.fetch(new Request("http://buckeye.test/api/v1/batches/bat_crashing/results", { headers: { authorization: `Bearer ${key}`, accept: "application/x-ndjson" } }));
      const rows = (await res.text()).trim().split("\n").map((line) => JSON.parse(line));
      expect(rows.map((r) => [r.row, r.id, r.status])).toEqual([
        [1, "bat_crashing-0a", 500],
        [2, "bat_crashing-0b", 500],
        [3, "bat_crashing-1a", 200],
        [4, "bat_crashing-1b", 200],
        [5, "bat_crashing-2a", 200],
        [6, "bat_crashing-2b", 200],
      ]);
      expect(rows[0].body).toMatchObject({ type: expect.stringMatching(/\/batch-row-abandoned$/), status: 500, title: "Batch Row Abandoned", detail: expect.stringContaining("Rows 1–2") });
      const attempts = await service.store.db.selectFrom("batch_chunks").select(["seq", "attempts"]).where("job_id", "=", "bat_crashing").orderBy("seq").execute();
      expect(attempts).toEqual([
        { seq: 0, attempts: 3 },
        { seq: 1, attempts: 1 },
        { seq: 2, attempts: 1 },
      ]);
    } finally {
      await service?.close();
    }
  });
});
