/**
 * The batch lane's threads have a heap ceiling of their own (BATCH_THREAD_MAX_HEAP_MB): an upload
 * that blows one up loses only that task, answered as a clear 413, while the interactive lane keeps
 * answering another organization's coordinate lookups, and the replaced thread is counted in the
 * metrics the listener serves. Real service on a real socket, real threads;
 * the ceiling is set low here so a legal 60 MB file is enough to reach it (a 60 MB file of 100,000
 * full-length lookups was read within 128 MB, measured).
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import type { RunningService } from "../src/service.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService & { url?: string };
let otherKey: string;
beforeAll(async () => {
  api = await startTestService({ BATCH_THREAD_MAX_HEAP_MB: "64", BATCH_THREADS: "1", METRICS_PORT: "0" }, true);
  const other = await createOrganization(api.service.store.db, "Other Org");
  otherKey = (await createKey(api.service.store.db, other.id, "other", "live")).key;
  // Both lanes started (polygons indexed, the batch thread up), so the test sees the refusal, not the start-up.
  expect((await lookup()).status).toBe(200);
  expect((await post("/api/v1/batches", "text/csv", "county\nadams\n")).status).toBe(202);
}, 180_000);
afterAll(async () => {
  await api.close();
});

function post(path: string, type: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${api.liveKey}`, "content-type": type } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The lane's count of threads replaced after running out of heap, as the metrics listener serves it (docs/operations/metrics.md). */
async function threadsOutOfMemory(lane: string): Promise<number> {
  const text = await (await fetch((api.service as RunningService).metricsUrl!)).text();
  const sample = new RegExp(`^buckeye_pool_threads_out_of_memory_total\\{lane="${lane}"\\} (\\d+)$`, "m").exec(text);
  expect(sample, `no ${lane} sample in the scrape`).not.toBeNull();
  return Number(sample![1]);
}

function lookup(): Promise<Response> {
  return fetch(`${api.url}/api/v1/rates?lat=39.9612&lon=-82.9988`, { headers: { authorization: `Bearer ${otherKey}` } });
}

describe("an upload that exhausts a batch thread's heap loses only its own task", () => {
  it("a 60 MB file of 64,000-byte lines is a 413 batch-too-large naming the ceiling, not a 500; coordinate lookups of another organization answer 200 throughout; the lane takes the next upload", async () => {
    expect(await threadsOutOfMemory("batch")).toBe(0);
    const line = `{"id":"${"x".repeat(63_990)}"}\n`;
    const upload = post("/api/v1/batches", "application/x-ndjson", line.repeat(940));
    let settled = false;
    void upload.finally(() => (settled = true));
    const statuses: number[] = [];
    do {
      const res = await lookup();
      statuses.push(res.status);
      await res.arrayBuffer();
    } while (!settled);
    const refused = await upload;
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({
      type: expect.stringMatching(/\/batch-too-large$/),
      detail: expect.stringMatching(/more than the 64 MB a batch thread may use/),
    });
    expect(refused.body).not.toMatch(/ERR_WORKER|at .*\.ts/);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const next = await post("/api/v1/batches", "text/csv", "county\nadams\n");
    expect(next.status).toBe(202);
    // The replaced thread is counted once, in its lane, where an operator scrapes it.
    expect(await threadsOutOfMemory("batch")).toBe(1);
    expect(await threadsOutOfMemory("interactive")).toBe(0);
    // Generous: reading 60 MB in a thread and its heap running out take tens of seconds on a loaded 2-core machine.
  }, 180_000);
});
