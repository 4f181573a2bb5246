/**
 * The Census batch endpoint as inline lists (POST /api/v1/rates/batch) and jobs share it: one
 * process-wide cap on requests in flight (GEOCODER_BATCH_CONCURRENCY), a short deadline for a list a
 * client waits on (GEOCODER_INLINE_BATCH_TIMEOUT_MS), and the upstream request stopped when that
 * client goes away. A real service on a real socket (SQLite, or PostgreSQL when TEST_DATABASE_URL
 * names it) and a FAKE UPSTREAM (test/fake-census-geocoder.ts) that counts the requests it holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_ADDRESSES, type FakeBatchRequest, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

const bowlingGreen = FAKE_ADDRESSES.bowlingGreen;
const statehouse = FAKE_ADDRESSES.statehouse;

/** Enough for every request of a test (the rate limit is not what is tested here). */
const BASE_ENV = { RATE_LIMIT_PER_SECOND: "1000", BATCH_POLL_MS: "20", BATCH_THREADS: "2" };

type Row = { id: string | null; status: number; body: Record<string, any> };

/** Waits (without a timed assertion) until `done` holds; fails after `ms` so a test never hangs. */
async function until(done: () => boolean, ms = 20_000): Promise<void> {
  const giveUpAt = Date.now() + ms;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error(`still waiting after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Street addresses only the geocoder can place (the test service has no boundary file): `count` of them, distinct per `tag`. */
function addresses(tag: number, count: number): Array<{ id: string; address: string }> {
  return Array.from({ length: count }, (_, i) => ({ id: `${tag}-${i}`, address: `${tag * 1000 + i} Bench St, Columbus, OH 43215` }));
}

function postList(api: GeocodedTestService, lookups: unknown[], signal?: AbortSignal): Promise<Response> {
  return fetch(`${api.url}/api/v1/rates/batch`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "application/json" },
    body: JSON.stringify({ lookups }),
    ...(signal && { signal }),
  });
}

async function answeredRows(res: Response): Promise<Row[]> {
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Row[] }).results;
}

function submitJob(api: GeocodedTestService, csv: string): Promise<Response> {
  return fetch(`${api.url}/api/v1/batches`, { method: "POST", headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "text/csv" }, body: csv });
}

async function jobStatus(api: GeocodedTestService, location: string): Promise<Record<string, any>> {
  return (await (await fetch(`${api.url}${location}`, { headers: { authorization: `Bearer ${api.liveKey}` } })).json()) as Record<string, any>;
}

/** The fake's next batch request once it has read the whole upload (a `hang` answers nothing after that). */
async function nextBatchRequest(fake: FakeCensusGeocoder, seen: number): Promise<FakeBatchRequest> {
  await until(() => fake.batchRequests.length > seen && fake.batchRequests[seen]!.rows.length > 0);
  return fake.batchRequests[seen]!;
}

describe("GEOCODER_BATCH_CONCURRENCY caps the Census batch requests in flight across the whole process", { timeout: 120_000 }, () => {
  let api: GeocodedTestService;
  beforeAll(async () => {
    api = await startTestServiceWithFakeGeocoder({ ...BASE_ENV, GEOCODER_BATCH_CONCURRENCY: "2", GEOCODER_BATCH_ROWS: "30", BATCH_CHUNK_ROWS: "10" }, true);
  });
  afterAll(async () => {
    await api?.close();
  });

  it("20 concurrent inline lists (short ones on the answering thread, long ones in the batch lane) never have more than 2 requests at the upstream", async () => {
    api.fake.setMode("hold");
    const lists = Array.from({ length: 20 }, (_, n) => (n % 2 === 0 ? addresses(n, 1) : addresses(n, 30)));
    const answers = lists.map((list) => postList(api, list));
    await until(() => api.fake.batchesInFlight >= 2);
    // The other lists have had their turn to reach the upstream by now; they wait for a permit instead.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(api.fake.batchesInFlight).toBe(2);
    api.fake.release();
    for (const [n, res] of (await Promise.all(answers)).entries()) {
      const rows = await answeredRows(res);
      expect(rows).toHaveLength(lists[n]!.length);
      for (const row of rows) expect(row).toMatchObject({ status: 200, body: { resolved_by: "address_geocoding" } });
    }
    expect(api.fake.peakBatchesInFlight).toBe(2);
  });

  it("a job's requests and inline lists' share the same 2 permits", async () => {
    api.fake.setMode("hold");
    // Two groups of 30 rows (GEOCODER_BATCH_ROWS): two runner loops each ask the upstream for one, which could take both permits.
    const job = ["id,address", ...addresses(900, 60).map(({ id, address }) => `${id},"${address}"`)].join("\n");
    const submitted = await submitJob(api, job);
    expect(submitted.status).toBe(202);
    const location = submitted.headers.get("location")!;
    await until(() => api.fake.batchesInFlight >= 2);
    const lists = Array.from({ length: 6 }, (_, n) => postList(api, addresses(950 + n, n % 2 === 0 ? 1 : 30)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(api.fake.batchesInFlight).toBe(2);
    api.fake.release();
    for (const res of await Promise.all(lists)) for (const row of await answeredRows(res)) expect(row.status).toBe(200);
    let status: Record<string, any>;
    for (;;) {
      status = await jobStatus(api, location);
      if (status.status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toMatchObject({ total: 60, done: 60, failed: 0 });
    expect(api.fake.peakBatchesInFlight).toBe(2);
  });
});

describe("a client that goes away stops its list's upstream request", { timeout: 120_000 }, () => {
  let api: GeocodedTestService;
  beforeAll(async () => {
    // One permit: a request left open after its client went away would hold the next list back.
    api = await startTestServiceWithFakeGeocoder({ ...BASE_ENV, GEOCODER_BATCH_CONCURRENCY: "1" }, true);
  });
  afterAll(async () => {
    await api?.close();
  });

  it.each([
    ["a short list (the answering thread)", 1],
    ["a long list (the batch lane)", 30],
  ])("%s: the upstream sees its connection closed within 2 s, and the next list is answered", async (_, count) => {
    const sent = api.fake.batchRequests.length;
    api.fake.failBatches(1, "hang");
    const client = new AbortController();
    const abandoned = postList(api, addresses(count, count), client.signal).catch((error: unknown) => error);
    const upstream = await nextBatchRequest(api.fake, sent);
    client.abort();
    expect(await abandoned).toMatchObject({ name: "AbortError" });
    await until(() => upstream.abandoned, 2_000);
    expect(api.fake.batchesInFlight).toBe(0);
    const rows = await answeredRows(await postList(api, addresses(500 + count, count)));
    for (const row of rows) expect(row).toMatchObject({ status: 200, body: { resolved_by: "address_geocoding" } });
  });
});

describe("GEOCODER_INLINE_BATCH_TIMEOUT_MS bounds an inline list's wait for the upstream; a job keeps GEOCODER_BATCH_TIMEOUT_MS", { timeout: 120_000 }, () => {
  let api: GeocodedTestService;
  beforeAll(async () => {
    api = await startTestServiceWithFakeGeocoder({ ...BASE_ENV, GEOCODER_INLINE_BATCH_TIMEOUT_MS: "1000", GEOCODER_BATCH_TIMEOUT_MS: "600000" }, true);
    // Both lanes' threads started, so the time measured below is the wait for the upstream, not a thread's start.
    await answeredRows(await postList(api, addresses(1, 1)));
    await answeredRows(await postList(api, addresses(2, 30)));
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const mixed = [
    { id: "with-zip", address: `${bowlingGreen.street}, ${bowlingGreen.city}, OH ${bowlingGreen.zip}` },
    { id: "without-zip", address: `${statehouse.street}, ${statehouse.city}, OH` },
    { id: "county-only", county: "Franklin" },
  ];

  it.each([
    ["a short list (the answering thread)", mixed],
    ["a long list (the batch lane)", [...mixed, ...Array.from({ length: 30 }, (_, i) => ({ id: `county-${i}`, county: "Franklin" }))]],
  ])("%s against a hanging upstream answers 200 with each row's fallback or geocoder-unavailable", async (_, list) => {
    const sent = api.fake.batchRequests.length;
    api.fake.failBatches(1, "hang");
    const started = Date.now();
    const rows = await answeredRows(await postList(api, list));
    // The rule is 1 s; the slack is for a loaded machine, and still a tenth of the job's 10 minutes.
    expect(Date.now() - started).toBeLessThan(60_000);
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId["with-zip"]).toMatchObject({ status: 200, body: { county: "Wood", resolved_by: "zip_fallback", note: expect.stringMatching(/within 1000 ms/) } });
    expect(byId["without-zip"]).toMatchObject({ status: 503, body: { type: expect.stringMatching(/\/geocoder-unavailable$/), detail: expect.stringMatching(/within 1000 ms/) } });
    expect(byId["county-only"]).toMatchObject({ status: 200, body: { county: "Franklin" } });
    // A hang spends the whole deadline: no retry is started after it.
    expect(api.fake.batchRequests.slice(sent).map((r) => r.answer)).toEqual(["hang"]);
    await until(() => api.fake.batchesInFlight === 0, 2_000);
  });

  it("a job's request to a hanging upstream is still open after several inline timeouts", async () => {
    const sent = api.fake.batchRequests.length;
    api.fake.failBatches(1, "hang");
    const submitted = await submitJob(api, ["id,address", `without-zip,"${statehouse.street}, ${statehouse.city}, OH"`].join("\n"));
    expect(submitted.status).toBe(202);
    const upstream = await nextBatchRequest(api.fake, sent);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(upstream.abandoned).toBe(false);
    expect(api.fake.batchesInFlight).toBe(1);
    expect(await jobStatus(api, submitted.headers.get("location")!)).toMatchObject({ done: 0 });
  });
});
