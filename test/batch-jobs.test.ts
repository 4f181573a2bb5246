/**
 * Asynchronous batch jobs (/api/v1/batches): upload, progress, results by Accept, organization
 * scoping, and a restart in the middle of a job that neither loses nor doubles a row. Real
 * worker threads; the geocoder is a FAKE UPSTREAM (test/fake-census-geocoder.ts).
 */
import { TestClock } from "./_clock.ts";
import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { csvLine } from "../src/batch/result-lines.ts";
import { createService, type Service } from "../src/service.ts";
import { claimChunk, completeChunk, findBatchJob, insertBatchJob } from "../src/batch/batch-jobs.repository.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { packResults, unpackResults } from "../src/batch/packed-results.ts";
import type { RowResult } from "../src/lookup/item-result.ts";
import { benchPlace, FAKE_ADDRESSES, oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startRequestActors, startTestService, testConfig, startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

let fake: FakeCensusGeocoder;
let api: GeocodedTestService;
beforeAll(async () => {
  api = await startTestServiceWithFakeGeocoder({ BATCH_CHUNK_ROWS: "4", BATCH_POLL_MS: "20" });
  fake = api.fake;
});
afterAll(async () => {
  await api?.close();
});

function call(service: Service, key: string, path: string, init: { method?: string; body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> } = {}) {
  return service.app.fetch(new Request(`http://buckeye.test${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } }));
}

async function submit(service: Service, key: string, body: string, contentType: string) {
  const res = await call(service, key, "/api/v1/batches", { method: "POST", body, headers: { "content-type": contentType } });
  return { res, body: (await res.json()) as Record<string, any> };
}

/** Polls the job's status until it is completed (a wait, not a timed assertion). */
async function completed(service: Service, key: string, location: string): Promise<Record<string, any>> {
  for (;;) {
    const job = (await (await call(service, key, location)).json()) as Record<string, any>;
    if (job.status === "completed") return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const CSV = [
  "id,address,zip,county,lat,lon,date",
  `r1,"${oneLine("reynoldsburgInLicking")}",,,,,2026-06-01`,
  "r2,,43402,,,,2026-06-01",
  "r3,,,Franklin,,,",
  `r4,,,,${FAKE_ADDRESSES.rossford.lat},${FAKE_ADDRESSES.rossford.lon},2026-06-01`,
  "r5,,4321,,,,",
  'r6,"1 Nowhere Ln, Dublin, OH 43017",,,,,',
  "r7,somewhere unknown,,,,,",
].join("\n");

describe("POST /api/v1/batches accepts a CSV or NDJSON file and answers 202 with Location", () => {
  let location: string;

  it("answers 202, a Location, and the job's status", async () => {
    const { res, body } = await submit(api.service, api.liveKey, CSV, "text/csv");
    expect(res.status).toBe(202);
    location = res.headers.get("location")!;
    expect(location).toMatch(/^\/api\/v1\/batches\/bat_/);
    expect(body).toMatchObject({ id: location.split("/").pop(), total: 7, format: "csv", links: { self: location, results: `${location}/results` } });
    expect(["queued", "running", "completed"]).toContain(body.status);
  });

  it("GET /api/v1/batches/{id} reports total, done, failed and timestamps once completed", async () => {
    const job = await completed(api.service, api.liveKey, location);
    expect(job).toMatchObject({ total: 7, done: 7, failed: 2, started_at: expect.any(String), completed_at: expect.any(String), created_at: expect.any(String) });
  });

  it("GET …/results gives CSV for Accept: text/csv, one line per row in input order", async () => {
    const res = await call(api.service, api.liveKey, `${location}/results`, { headers: { accept: "text/csv" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toMatch(/^row,id,status,county,fips,combined_rate,/);
    expect(lines.slice(1).map((line) => line.split(",").slice(0, 4).join(","))).toEqual([
      "1,r1,200,Licking", "2,r2,200,Wood", "3,r3,200,Franklin", "4,r4,200,Wood", "5,r5,400,", "6,r6,200,", "7,r7,422,",
    ]);
    expect(lines[1]).toContain("inside,address_geocoding");
    expect(lines[5]).toContain("/bad-request");
    expect(lines[6]).toContain("39049 39041 39159");
  });

  it("the CSV's column ambiguous, after the columns it had before, is true only on the row whose ZIP spans counties (status 200, no rate), as buckeye batch writes it", async () => {
    const csv = await (await call(api.service, api.liveKey, `${location}/results`, { headers: { accept: "text/csv" } })).text();
    const [header, ...rows] = parse(csv) as string[][];
    const at = header!.indexOf("ambiguous");
    expect(header![at - 1]).toBe("boundary_line");
    expect(rows.map((row) => [row[0], row[2], row[at]])).toEqual([
      ["1", "200", "false"], ["2", "200", "false"], ["3", "200", "false"], ["4", "200", "false"], ["5", "400", "false"], ["6", "200", "true"], ["7", "422", "false"],
    ]);
    expect(rows[5]![header!.indexOf("combined_rate")]).toBe("");
  });

  it("GET …/results gives NDJSON for Accept: application/x-ndjson, with full records and problem objects", async () => {
    const res = await call(api.service, api.liveKey, `${location}/results`, { headers: { accept: "application/x-ndjson" } });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const rows = (await res.text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(rows[0].body).toMatchObject({ county: "Licking", resolved_by: "address_geocoding", combined_rate: 0.0825 });
    expect(rows[3].body).toMatchObject({ resolved_by: "coordinates" });
    expect(rows[6]).toMatchObject({ id: "r7", status: 422, body: { type: expect.stringMatching(/\/address-not-resolved$/), status: 422 } });
  });

  it("406 not-acceptable for a results format it does not make", async () => {
    const res = await call(api.service, api.liveKey, `${location}/results`, { headers: { accept: "application/pdf" } });
    expect(res.status).toBe(406);
  });

  it("reads NDJSON uploads, and a line that is not JSON fails only that row", async () => {
    const ndjson = [JSON.stringify({ id: "n1", zip: "43215" }), "{not json", JSON.stringify({ id: "n3", county: "wood" })].join("\n");
    const { res } = await submit(api.service, api.liveKey, ndjson, "application/x-ndjson");
    const job = await completed(api.service, api.liveKey, res.headers.get("location")!);
    expect(job).toMatchObject({ total: 3, done: 3, failed: 1, format: "ndjson" });
    const results = await call(api.service, api.liveKey, `${job.links.results}`);
    const rows = (await results.text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(rows.map((r) => r.status)).toEqual([200, 400, 200]);
  });
});

describe("CSV results escape cells a spreadsheet would run as a formula (OWASP CSV injection)", () => {
  it("a text cell beginning with =, +, -, @, tab or CR gets a leading apostrophe; plain signed numbers and our figures are left as they are", async () => {
    const ids = ["=cmd|'/c calc'!A1", "+1+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1", "-42", "+15551234567", "a;=1+1", "plain"];
    const ndjson = ids.map((id) => JSON.stringify({ id, county: "Franklin", date: "2026-06-01" })).join("\n");
    const { res } = await submit(api.service, api.liveKey, ndjson, "application/x-ndjson");
    expect(res.status).toBe(202);
    const location = res.headers.get("location")!;
    await completed(api.service, api.liveKey, location);
    const csv = await (await call(api.service, api.liveKey, `${location}/results`, { headers: { accept: "text/csv" } })).text();
    const [header, ...rows] = parse(csv) as string[][];
    const column = (name: string) => rows.map((row) => row[header!.indexOf(name)]!);
    expect(column("id")).toEqual(["'=cmd|'/c calc'!A1", "'+1+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0", "'=1+1", "'=1+1", "-42", "+15551234567", "a;=1+1", "plain"]);
    expect(csv).toContain('"a;=1+1"');
    expect(new Set(column("combined_rate"))).toEqual(new Set(["0.08"]));
    for (const row of rows) for (const value of row) expect(/^[=+\-@\t\r]/.test(value) && !/^[+-]\d+$/.test(value), value).toBe(false);
  });

  it("ids are trimmed before they reach the CSV; a cell that still begins with a tab or CR is escaped too", () => {
    expect(csvLine(["\t=1+1", "\r=1+1", 0.0575, -1])).toBe(`'\t=1+1,"'\r=1+1",0.0575,-1\n`);
  });
});

describe("a field holding control characters fails its own row and is never stored as its text", () => {
  it("a CSV of control-character fields is stored no larger than it was uploaded; each such row is a 400 naming the field, the others are answered", async () => {
    // 100 chunks of this file's 4 rows: a 1 MB file.
    const cell = "\x01".repeat(2_500);
    const rows = 400;
    const csv = `id,address,county\n${Array.from({ length: rows }, (_, i) => (i % 100 === 0 ? `ok${i},,Franklin` : `r${i},${cell},Franklin`)).join("\n")}\n`;
    const { res } = await submit(api.service, api.liveKey, csv, "text/csv");
    expect(res.status).toBe(202);
    const location = res.headers.get("location")!;
    const job = await completed(api.service, api.liveKey, location);
    expect(job).toMatchObject({ total: rows, done: rows, failed: rows - rows / 100 });
    const stored = await api.service.store.db
      .selectFrom("batch_chunks")
      .select(sql<number | string>`sum(length(input))`.as("chars"))
      .where("job_id", "=", job.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.chars)).toBeLessThanOrEqual(Buffer.byteLength(csv));
    const lines = (await (await call(api.service, api.liveKey, `${location}/results`, { headers: { accept: "application/x-ndjson" } })).text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(rows);
    expect(lines[0]).toMatchObject({ id: "ok0", status: 200, body: { county: "Franklin" } });
    expect(lines[1]).toMatchObject({
      id: "r1",
      status: 400,
      body: { type: expect.stringMatching(/\/bad-request$/), invalid_params: [{ name: "address", reason: "must not contain control characters" }] },
    });
    expect(lines.filter((line) => line.status === 400)).toHaveLength(rows - rows / 100);
  });
});

describe("a file that is not UTF-8 is refused with 400, naming the row and byte offset, and nothing is stored", () => {
  it("a CSV of 0xFF bytes (each would be stored as U+FFFD, three bytes) answers 400 problem+json and stores no job", async () => {
    const jobsBefore = await api.service.store.db.selectFrom("batch_jobs").select(sql<number | string>`count(*)`.as("n")).executeTakeFirstOrThrow();
    const body = new Uint8Array([...new TextEncoder().encode("id,address\nr1,"), ...new Uint8Array(10_000).fill(0xff), 0x0a]);
    const res = await call(api.service, api.liveKey, "/api/v1/batches", { method: "POST", body, headers: { "content-type": "text/csv" } });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { type: string; detail: string })).toMatchObject({
      type: expect.stringMatching(/\/bad-request$/),
      detail: expect.stringMatching(/^The file is not UTF-8: byte 0xFF at byte offset 14 \(line 2, row 1\)/),
    });
    const jobsAfter = await api.service.store.db.selectFrom("batch_jobs").select(sql<number | string>`count(*)`.as("n")).executeTakeFirstOrThrow();
    expect(Number(jobsAfter.n)).toBe(Number(jobsBefore.n));
  });
});

describe("batch jobs belong to the organization that submitted them", () => {
  it("another organization's key gets 404 batch-not-found for the job and its results", async () => {
    const { res } = await submit(api.service, api.liveKey, "zip\n43215\n", "text/csv");
    const location = res.headers.get("location")!;
    const other = await createOrganization(api.service.store.db, "Other Org");
    const otherKey = (await createKey(api.service.store.db, other.id, "other", "live")).key;
    for (const path of [location, `${location}/results`]) {
      const answer = await call(api.service, otherKey, path);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as any).type).toMatch(/\/batch-not-found$/);
    }
  });
});

describe("POST /api/v1/batches refuses what it cannot run", () => {
  it("415 for a content type other than CSV or NDJSON", async () => {
    const { res } = await submit(api.service, api.liveKey, "{}", "application/json");
    expect(res.status).toBe(415);
  });

  it("400 for a CSV with a column named twice, or no rows", async () => {
    const twice = await submit(api.service, api.liveKey, "zip,zip\n43215,43215\n", "text/csv");
    expect(twice.res.status).toBe(400);
    expect(twice.body.detail).toMatch(/named twice/);
    expect((await submit(api.service, api.liveKey, "zip\n", "text/csv")).res.status).toBe(400);
  });

  it("a column Buckeye does not read is accepted, and the job lists it as polled", async () => {
    const { res, body } = await submit(api.service, api.liveKey, "zip,colour\n43215,blue\n", "text/csv");
    expect(res.status).toBe(202);
    expect(body.ignored_columns).toEqual(["colour"]);
    expect(await completed(api.service, api.liveKey, res.headers.get("location")!)).toMatchObject({ ignored_columns: ["colour"], failed: 0 });
  });

  it("413 batch-too-large at row 100,001 of a Finder file, which has no header row", async () => {
    const line = "INV-1,1 Main St,,Columbus,OH,43215,,01/02/2026\n";
    const res = await call(api.service, api.liveKey, "/api/v1/batches?format=finder", { method: "POST", body: line.repeat(100_001), headers: { "content-type": "text/csv" } });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/100001 rows/);
  });

  it("413 batch-too-large over 100,000 rows", async () => {
    const { res, body } = await submit(api.service, api.liveKey, `zip\n${"43215\n".repeat(100_001)}`, "text/csv");
    expect(res.status).toBe(413);
    expect(body.detail).toMatch(/100001 rows/);
  });

  it("409 batch-not-finished for results asked for before the job is done", async () => {
    fake.setMode("hold");
    try {
      const { res } = await submit(api.service, api.liveKey, `address\n"${oneLine("carroll").replace("10 ", "12 ")}"\n`, "text/csv");
      const early = await call(api.service, api.liveKey, `${res.headers.get("location")}/results`);
      expect(early.status).toBe(409);
      expect(early.headers.get("retry-after")).toBe("2");
    } finally {
      fake.release();
    }
  });
});

describe("a job interrupted by a restart resumes without losing or doubling a row", () => {
  it("finishes on a new service over the same database after the first stopped mid-job", async () => {
    const upstream = await startFakeCensusGeocoder();
    // Groups of two 20-row chunks, one Census batch request each, so the job is mid-way for a while.
    const { config, cleanup } = testConfig({ CENSUS_GEOCODER_URL: upstream.url, BATCH_CHUNK_ROWS: "20", GEOCODER_BATCH_ROWS: "40", BATCH_POLL_MS: "20", WORKER_THREADS: "1", GEOCODER_CONCURRENCY: "4" });
    const first = await createService(config);
    startRequestActors(first);
    const later = new TestClock();
    let second: Service | undefined;
    try {
      const org = await createOrganization(first.store.db, "Restart Org");
      const key = (await createKey(first.store.db, org.id, "restart", "live")).key;
      const rows = 300;
      const ndjson = Array.from({ length: rows }, (_, i) => JSON.stringify({ id: `r${i + 1}`, address: `${i + 1} Bench St, Columbus, OH 43215`, date: "2026-06-01" })).join("\n");
      const { res } = await submit(first, key, ndjson, "application/x-ndjson");
      const location = res.headers.get("location")!;
      const jobId = location.split("/").pop()!;

      // Let some chunks finish, then hold the upstream so others are caught mid-flight, and stop.
      for (;;) {
        const job = await findBatchJob(first.store.db, org.id, jobId);
        if (job!.done >= 60) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      upstream.setMode("hold");
      const heldAt = upstream.requests.length;
      while (upstream.requests.length === heldAt) await new Promise((resolve) => setTimeout(resolve, 10));
      await first.close();
      second = await createService(config, { clock: later });
      startRequestActors(second);
      // The upstream is still held, so the new service cannot have moved the job on yet.
      const halfway = (await findBatchJob(second.store.db, org.id, jobId))!;
      expect(halfway.status).toBe("running");
      expect(halfway.done).toBeGreaterThanOrEqual(60);
      expect(halfway.done).toBeLessThan(rows);
      upstream.release();

      // The old process's leases run for BATCH_LEASE_MS (60 s); the new one's clock is past them.
      later.set(() => new Date(Date.now() + 5 * 60_000));
      const job = await completed(second, key, location);
      expect(job).toMatchObject({ total: rows, done: rows, failed: 0 });

      const results = await call(second, key, `${location}/results`);
      const lines = (await results.text()).trim().split("\n").map((line) => JSON.parse(line));
      expect(lines).toHaveLength(rows);
      expect(lines.map((l) => l.row)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
      expect(lines.map((l) => l.id)).toEqual(Array.from({ length: rows }, (_, i) => `r${i + 1}`));
      expect(lines.every((l) => l.status === 200 && l.body.resolved_by === "address_geocoding")).toBe(true);
      const redone = await second.store.db.selectFrom("batch_chunks").select("seq").where("job_id", "=", jobId).where("attempts", ">", 1).execute();
      expect(redone.length).toBeGreaterThan(0);
    } finally {
      await second?.close();
      await upstream.close();
      await cleanup();
    }
  }, 120_000);
});

describe("GET /api/v1/batches/{id} says what a running job waits for (waiting_for), on every instance", () => {
  it("while the Census geocoder fails and the request waits to be retried, another instance over the same database shows the wait; once the geocoder is back it clears and the job completes", async () => {
    const upstream = await startFakeCensusGeocoder();
    const { config, cleanup } = testConfig({ CENSUS_GEOCODER_URL: upstream.url, BATCH_POLL_MS: "20", GEOCODER_BATCH_RETRIES: "3" });
    const running = await createService(config);
    startRequestActors(running);
    // A second instance that runs no job: it only answers, from the job's row.
    const answering = await createService(config);
    try {
      const org = await createOrganization(running.store.db, "Waiting Org");
      const key = (await createKey(running.store.db, org.id, "waiting", "live")).key;
      upstream.setMode("error");
      const { res, body: accepted } = await submit(running, key, JSON.stringify({ id: "w1", address: oneLine("carroll") }), "application/x-ndjson");
      expect(res.status).toBe(202);
      expect(accepted.waiting_for).toBeNull();
      const location = res.headers.get("location")!;

      let job: Record<string, any>;
      do {
        await new Promise((resolve) => setTimeout(resolve, 20));
        job = (await (await call(answering, key, location)).json()) as Record<string, any>;
      } while (job.waiting_for === null && job.status !== "completed");
      expect(job).toMatchObject({
        status: "running",
        done: 0,
        waiting_for: {
          reason: "geocoder-retry",
          detail: expect.stringMatching(/^Waiting for the Census geocoder \(the geocoder answered a batch request with HTTP 500\): retry [1-3] of 3 at /),
          retry_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        },
      });
      expect(Date.parse(job.waiting_for.retry_at)).toBeGreaterThan(Date.now() - 60_000);

      upstream.setMode("normal");
      const done = await completed(answering, key, location);
      expect(done).toMatchObject({ total: 1, done: 1, failed: 0, waiting_for: null });
      // Cleared on the row by the runner once the retry answered, not only hidden because the job completed.
      expect((await findBatchJob(answering.store.db, org.id, location.split("/").pop()!))!.waiting_for).toBeNull();
      const line = JSON.parse((await (await call(answering, key, `${location}/results`)).text()).trim());
      expect(line).toMatchObject({ id: "w1", status: 200, body: { resolved_by: "address_geocoding" } });
    } finally {
      await answering.close();
      await running.close();
      await upstream.close();
      await cleanup();
    }
  }, 60_000);
});

describe("chunk leases: a worker that lost its lease cannot write", () => {
  it("keeps the results of the worker that holds the lease, and counts the rows once", async () => {
    const own = await startTestService();
    try {
      // The service's own runner is stopped first, so only the two owners below ever hold this chunk.
      await own.service.context.lookups.runner.stop();
      const { db, dialect } = own.service.store;
      const id = "bat_lease_test";
      await insertBatchJob(db, { id, organizationId: own.orgId, apiKeyId: "key_x", requestId: "req_x", format: "csv", today: "2026-06-01", total: 2, chunks: [{ firstRow: 1, rowCount: 2, input: JSON.stringify([{ zip: "43215" }, { zip: "43402" }]) }] }, new Date());
      const t0 = new Date("2030-01-01T00:00:00Z");
      const a = await claimChunk(db, dialect, "owner-a", t0, 1000, 2);
      expect(a).toMatchObject({ jobId: id, seq: 0 });
      expect(await claimChunk(db, dialect, "owner-b", new Date(t0.getTime() + 500), 1000, 2)).toBeNull();
      const b = await claimChunk(db, dialect, "owner-b", new Date(t0.getTime() + 2000), 1000, 2);
      expect(b).toMatchObject({ jobId: id, seq: 0 });
      expect(await completeChunk(db, a!, "owner-a", [], { done: 2, failed: 0 }, t0)).toBe(false);
      expect(await completeChunk(db, b!, "owner-b", [], { done: 2, failed: 0 }, t0)).toBe(true);
      expect(await findBatchJob(db, own.orgId, id)).toMatchObject({ done: 2, status: "completed" });
    } finally {
      await own.close();
    }
  });
});

describe("a chunk group is settled in slices of whole chunks; the rows left for the geocoder still go in one request", () => {
  let own: GeocodedTestService;
  beforeAll(async () => {
    // One group of 5,000 rows (50 chunks of 100), so it is settled in three slices of 2,000 rows or fewer.
    own = await startTestServiceWithFakeGeocoder({ BATCH_CHUNK_ROWS: "100", GEOCODER_BATCH_ROWS: "5000", BATCH_POLL_MS: "20" });
  });
  afterAll(async () => {
    await own?.close();
  });

  it("addresses in the first and last slices and ZIPs between them: one Census request of every address, and each row its own answer, in input order", async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => (i < 2000 || i >= 4000 ? { id: `a${i}`, address: `${i} Bench St, Columbus, OH 43215`, date: "2026-06-01" } : { id: `z${i}`, zip: "43215", date: "2026-06-01" }));
    const { res } = await submit(own.service, own.liveKey, rows.map((row) => JSON.stringify(row)).join("\n"), "application/x-ndjson");
    expect(res.status).toBe(202);
    const location = res.headers.get("location")!;
    expect(await completed(own.service, own.liveKey, location)).toMatchObject({ total: 5000, done: 5000, failed: 0 });
    expect(own.fake.batchRequests.map((request) => request.rows.length)).toEqual([3000]);
    const lines = (await (await call(own.service, own.liveKey, `${location}/results`, { headers: { accept: "application/x-ndjson" } })).text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual(rows.map((row) => row.id));
    lines.forEach((line, i) => {
      if (i < 2000 || i >= 4000) expect({ i, fips: line.body.fips, by: line.body.resolved_by }).toEqual({ i, fips: benchPlace(i).county.geoid, by: "address_geocoding" });
      else expect({ i, fips: line.body.fips, by: line.body.resolved_by }).toEqual({ i, fips: "39049", by: "zip_unambiguous" });
    });
  }, 120_000);
});

describe("a job's results are stored deflated (src/batch/packed-results.ts)", () => {
  let own: GeocodedTestService;
  beforeAll(async () => {
    own = await startTestServiceWithFakeGeocoder({ BATCH_POLL_MS: "20" });
  });
  afterAll(async () => {
    await own?.close();
  });

  it("the stored results of chunks of 500 rows are under a tenth of the NDJSON download, and a chunk stored as JSON text before packing existed downloads the same", async () => {
    const ndjson = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ id: `p${i}`, zip: i % 2 === 0 ? "43215" : "43402" })).join("\n");
    const { res } = await submit(own.service, own.liveKey, ndjson, "application/x-ndjson");
    const location = res.headers.get("location")!;
    const jobId = location.split("/").pop()!;
    await completed(own.service, own.liveKey, location);
    const download = async () => (await call(own.service, own.liveKey, `${location}/results`, { headers: { accept: "application/x-ndjson" } })).text();
    const before = await download();
    const { db } = own.service.store;
    const stored = await db.selectFrom("batch_chunks").select(["seq", "output", "packed_output"]).where("job_id", "=", jobId).orderBy("seq").execute();
    expect(stored.every((chunk) => chunk.output === null && chunk.packed_output !== null)).toBe(true);
    const packedBytes = stored.reduce((sum, chunk) => sum + chunk.packed_output!.byteLength, 0);
    expect(packedBytes).toBeLessThan(Buffer.byteLength(before) / 10);

    const first = stored[0]!;
    await db.updateTable("batch_chunks").set({ output: JSON.stringify(unpackResults(first)), packed_output: null }).where("job_id", "=", jobId).where("seq", "=", first.seq).execute();
    expect(await download()).toBe(before);
  });

  it("a chunk packed a row at a time unpacks to the rows, also past the encoding buffer's first megabyte and with any characters", () => {
    const rows = (n: number): RowResult[] =>
      Array.from({ length: n }, (_, i) => ({ row: i + 1, id: `r${i}`, result: { kind: "failure", status: 422, body: { type: "x", title: "ü ½ 🚌 \u2028 \"quoted\"", status: 422, detail: "é".repeat(1000 + i) } } }) as unknown as RowResult);
    for (const n of [0, 1, 500, 2000]) {
      const packed = packResults(rows(n));
      expect(unpackResults({ packed_output: packed, output: null })).toEqual(rows(n));
    }
  });
});
