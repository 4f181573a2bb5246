/**
 * A results download cut short (the job deleted by its organization, or by the retention sweep,
 * while the client reads) fails as a transfer: the connection is cut before the chunked body's end,
 * so no client takes a short file for a whole one. Real service on a real socket, real threads, the
 * real database (SQLite, or PostgreSQL under TEST_DATABASE_URL).
 */
import { request, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepRetention } from "../src/scheduled/retention.ts";
import { startTestService, type TestService } from "./_setup.ts";

const ROWS = 20_000;
let api: TestService & { url?: string };

beforeAll(async () => {
  api = await startTestService({ BATCH_CHUNK_ROWS: "500", BATCH_POLL_MS: "20" }, true);
}, 120_000);
afterAll(async () => {
  await api?.close();
});

function send(method: string, path: string, body?: string): Promise<Response> {
  return fetch(new URL(path, api.url), {
    method,
    headers: { authorization: `Bearer ${api.liveKey}`, ...(body !== undefined && { "content-type": "text/csv" }) },
    ...(body !== undefined && { body }),
  });
}

/** A completed job of ROWS county lookups (no geocoder needed): its NDJSON results are many megabytes, more than the sockets' buffers hold. */
async function completedJob(): Promise<string> {
  const csv = `id,county,date\n${Array.from({ length: ROWS }, (_, i) => `r${i + 1},Franklin,2026-06-01`).join("\n")}\n`;
  const location = (await send("POST", "/api/v1/batches", csv)).headers.get("location")!;
  for (;;) {
    const job = (await (await send("GET", location)).json()) as { status: string };
    if (job.status === "completed") return location;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts the download and reads only its first bytes, so the server is held back by the client (as
 * a slow one holds it); `cut` runs then, and reading resumes. Says how the transfer ended and how
 * many rows came.
 */
function downloadCutBy(location: string, cut: () => Promise<void>): Promise<{ status: number; ending: "end" | "aborted"; rows: number }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(`${location}/results`, api.url), { headers: { authorization: `Bearer ${api.liveKey}`, accept: "application/x-ndjson" } }, (res: IncomingMessage) => {
      let rows = 0;
      let started = false;
      let ended = false;
      const finish = (ending: "end" | "aborted") => {
        if (ended) return;
        ended = true;
        resolve({ status: res.statusCode!, ending, rows });
      };
      res.on("data", (chunk: Buffer) => {
        for (const byte of chunk) if (byte === 0x0a) rows++;
        if (started) return;
        started = true;
        res.pause();
        cut().then(() => res.resume(), reject);
      });
      res.on("end", () => finish("end"));
      res.on("aborted", () => finish("aborted"));
      res.on("error", () => finish("aborted"));
      res.on("close", () => finish(res.complete ? "end" : "aborted"));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a results download cut by the job's deletion fails as a transfer, never as a clean end", () => {
  it("a download whole: every row, and a clean end", async () => {
    const location = await completedJob();
    const whole = await downloadCutBy(location, async () => {});
    expect(whole).toEqual({ status: 200, ending: "end", rows: ROWS });
  }, 120_000);

  it("DELETE while the client reads: the transfer is aborted with fewer rows than the job has", async () => {
    const location = await completedJob();
    const cut = await downloadCutBy(location, async () => {
      expect((await send("DELETE", location)).status).toBe(204);
    });
    expect(cut.status).toBe(200);
    expect(cut.ending).toBe("aborted");
    expect(cut.rows).toBeLessThan(ROWS);
  }, 120_000);

  it("the retention sweep deleting the job while the client reads: the transfer is aborted the same way", async () => {
    const location = await completedJob();
    const { db } = api.service.store;
    const cut = await downloadCutBy(location, async () => {
      // A sweep a year on: the job completed long before what RETAIN_BATCH_JOBS_DAYS keeps.
      await sweepRetention(db, api.config.jobs.retention, new Date(Date.now() + 365 * 24 * 3600 * 1000));
    });
    expect(cut.status).toBe(200);
    expect(cut.ending).toBe("aborted");
    expect(cut.rows).toBeLessThan(ROWS);
  }, 120_000);
});
