/**
 * Deleting a running job stops its Census batch request in flight: Buckeye closes the connection of
 * the request the FAKE UPSTREAM (test/fake-census-geocoder.ts) holds, and stores nothing of the job.
 * Deleted through the instance running it, the request stops at once; deleted through another
 * instance on the same database, at the runner's next lease heartbeat (a third of BATCH_LEASE_MS).
 * Real worker threads, the suite's database (SQLite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createService, type Service } from "../src/service.ts";
import { oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestService, testConfig, type TestService } from "./_setup.ts";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const ENV = { BATCH_CHUNK_ROWS: "4", BATCH_POLL_MS: "20", BATCH_LEASE_MS: "3000" };

function call(service: Service, key: string, method: string, path: string, body?: string) {
  return service.app.fetch(
    new Request(`http://buckeye.test${path}`, { method, ...(body !== undefined && { body }), headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" } }),
  );
}

async function waitFor(what: string, ok: () => boolean, withinMs: number): Promise<number> {
  const started = performance.now();
  while (!ok()) {
    if (performance.now() - started > withinMs) throw new Error(`${what} did not happen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

/** A service on the fake upstream, which holds every request; a job of two addresses only the geocoder can place, its request held. */
async function heldJob(): Promise<{ api: TestService; fake: FakeCensusGeocoder; location: string }> {
  const fake = await startFakeCensusGeocoder();
  closing.push(() => fake.close());
  const api = await startTestService({ ...ENV, CENSUS_GEOCODER_URL: fake.url });
  closing.push(() => api.close());
  fake.setMode("hold");
  const body = [JSON.stringify({ id: "a", address: oneLine("carroll") }), JSON.stringify({ id: "b", address: oneLine("rossford") })].join("\n");
  const res = await call(api.service, api.liveKey, "POST", "/api/v1/batches", body);
  expect(res.status).toBe(202);
  await waitFor("the job's batch request reaching the upstream", () => fake.batchesInFlight === 1, 120_000);
  return { api, fake, location: res.headers.get("location")! };
}

async function storedResults(api: TestService, jobId: string): Promise<number> {
  const rows = await api.service.store.db.selectFrom("batch_chunks").select("seq").where("job_id", "=", jobId).where("status", "=", "done").execute();
  return rows.length;
}

describe("DELETE /api/v1/batches/{id} of a running job stops its Census batch request", { timeout: 180_000 }, () => {
  it("deleted through the instance running it, the held request's connection is closed within 2 s and nothing of the job is stored", async () => {
    const { api, fake, location } = await heldJob();
    const deleted = await call(api.service, api.liveKey, "DELETE", location);
    expect(deleted.status).toBe(204);
    await waitFor("the held request being closed by Buckeye", () => fake.batchRequests[0]!.abandoned, 2000);
    expect(fake.batchesInFlight).toBe(0);
    // Let the upstream answer now: a request still open would be answered and its results stored.
    fake.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await storedResults(api, location.split("/").at(-1)!)).toBe(0);
    expect(fake.batchRequests).toHaveLength(1);
    expect((await call(api.service, api.liveKey, "GET", location)).status).toBe(404);
  });

  it("deleted through another instance on the same database, the request is closed at the runner's next heartbeat (within a third of BATCH_LEASE_MS, 1 s, and a margin)", async () => {
    const { api, fake, location } = await heldJob();
    // A second instance on the same database; its own runner stays stopped, so the job stays with the first.
    const { config, cleanup } = testConfig({ ...ENV, DATABASE_URL: api.config.databaseUrl, CENSUS_GEOCODER_URL: fake.url });
    closing.push(cleanup);
    const other = await createService(config);
    closing.push(() => other.close());
    const deleted = await call(other, api.liveKey, "DELETE", location);
    expect(deleted.status).toBe(204);
    await waitFor("the held request being closed by the first instance", () => fake.batchRequests[0]!.abandoned, 3000);
    fake.release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await storedResults(api, location.split("/").at(-1)!)).toBe(0);
    expect(fake.batchRequests).toHaveLength(1);
  });
});
