/**
 * Bounded memory on uploads, against a real service on a real socket. The big
 * files are generated in the test's temp folder (synthetic: one column of "1"s) and removed after.
 */
import { appendFileSync, createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService & { url?: string };
const dir = mkdtempSync(join(tmpdir(), "buckeye-upload-"));
beforeAll(async () => {
  api = await startTestService({ WEBHOOK_PRIVATE_TARGETS: "loopback" }, true);
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

/** POSTs over the socket; `body` is a file path (streamed), a string, or null to declare a length and send nothing. */
function send(path: string, headers: Record<string, string>, body: { file: string } | string | null): Promise<Sent> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${api.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${api.liveKey}`, ...headers } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text, ms: performance.now() - started }));
    });
    // The server stops reading once it has refused the upload; the rest of the file is not wanted.
    req.on("error", (error: NodeJS.ErrnoException) => (["EPIPE", "ECONNRESET"].includes(error.code ?? "") ? undefined : reject(error)));
    if (body === null) req.flushHeaders();
    else if (typeof body === "string") req.end(body);
    else createReadStream(body.file).pipe(req);
  });
}

const jobCount = async () => (await api.service.store.db.selectFrom("batch_jobs").select("id").execute()).length;

describe("POST /api/v1/batches stops at row 100,001 while streaming: 413 within a second, memory bounded", () => {
  it("a 64 MB CSV of 33,554,430 one-column rows (inside MAX_JOB_BYTES) is refused within a second, RSS stays within 100 MB of idle, nothing stored", async () => {
    const file = join(dir, "big.csv");
    writeFileSync(file, `id\n${"1\n".repeat(33_554_430)}`);
    // Idle: the worker pool started, a small job done.
    const small = await send("/api/v1/batches", { "content-type": "text/csv" }, "county\nfranklin\n");
    expect(small.status).toBe(202);
    const before = await jobCount();
    const idle = process.memoryUsage.rss();
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
    try {
      const res = await send("/api/v1/batches", { "content-type": "text/csv" }, { file });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ type: expect.stringMatching(/\/batch-too-large$/), detail: expect.stringMatching(/at least 100001 rows/) });
      expect(res.ms).toBeLessThan(1000);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage.rss());
    expect((peak - idle) / 1e6).toBeLessThan(100);
    expect(await jobCount()).toBe(before);
  });

  it("NDJSON is counted the same way, and 100,000 rows exactly are accepted", async () => {
    const over = await send("/api/v1/batches", { "content-type": "application/x-ndjson" }, '{"county":"adams"}\n'.repeat(100_001));
    expect(over.status).toBe(413);
    const exactly = await send("/api/v1/batches", { "content-type": "text/csv" }, `county\n${"adams\n".repeat(100_000)}`);
    expect(exactly.status).toBe(202);
    expect(JSON.parse(exactly.body).total).toBe(100_000);
  });

  it("a quoted line break does not end a CSV row", async () => {
    const res = await send("/api/v1/batches", { "content-type": "text/csv" }, `id,county\n"a\nb",adams\n`);
    expect(res.status).toBe(202);
    expect(JSON.parse(res.body).total).toBe(1);
  });

  it("a declared Content-Length over 64 MiB is refused before any byte is read", async () => {
    const res = await send("/api/v1/batches", { "content-type": "text/csv", "content-length": String(64 * 1024 * 1024 + 1) }, null);
    expect(res.status).toBe(413);
  });
});

describe("webhook and certificate bodies: application/json only, refused by Content-Length before reading", () => {
  it.each(["/api/v1/webhooks", "/api/v1/certificates"])("%s: a declared 10 MB body is 413 body-too-large at once", async (path) => {
    const res = await send(path, { "content-type": "application/json", "content-length": "10000000" }, null);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).type).toMatch(/\/body-too-large$/);
  });

  it.each(["/api/v1/webhooks", "/api/v1/certificates"])("%s: a body over 64 KiB without Content-Length is 413 too", async (path) => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = request(`${api.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "application/json", "transfer-encoding": "chunked" } }, (r) => {
        r.resume();
        resolve(r.statusCode!);
      });
      req.on("error", (error: NodeJS.ErrnoException) => (["EPIPE", "ECONNRESET"].includes(error.code ?? "") ? undefined : reject(error)));
      req.end(`{"url":"${"a".repeat(70_000)}"}`);
    });
    expect(res).toBe(413);
  });

  it.each([
    ["application/json-seq", "/api/v1/webhooks"],
    ["text/plain", "/api/v1/webhooks"],
    ["application/x-www-form-urlencoded", "/api/v1/certificates"],
    ["", "/api/v1/certificates"],
    ["application/json-seq", "/api/v1/rates/batch"],
  ])("Content-Type %j on %s is 415 and stores nothing", async (type, path) => {
    const webhooks = async () => (await api.service.store.db.selectFrom("webhooks").select("id").execute()).length;
    const before = await webhooks();
    const body = path.endsWith("webhooks") ? JSON.stringify({ url: "https://93.184.216.34/hooks", events: ["*"] }) : "{}";
    const res = await send(path, type ? { "content-type": type } : {}, body);
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body).type).toMatch(/\/unsupported-media-type$/);
    expect(await webhooks()).toBe(before);
  });
});

describe("one line, one field or one deep value cannot take the pool: refused while the upload streams", () => {
  /** A 60 MB file in the temp folder, written in 1 MB pieces so the test itself stays small. */
  function bigFile(name: string, head: string, fill: string, tail: string): string {
    const file = join(dir, name);
    const piece = fill.repeat(Math.ceil(1_048_576 / fill.length));
    writeFileSync(file, head);
    for (let written = 0; written < 60_000_000; written += piece.length) appendFileSync(file, piece);
    appendFileSync(file, tail);
    return file;
  }

  /** Sends the file and samples this process's resident memory (the service runs in it) while it is answered. */
  async function sendMeasured(type: string, file: string): Promise<Sent & { grewMb: number }> {
    const idle = process.memoryUsage.rss();
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
    try {
      const res = await send("/api/v1/batches", { "content-type": type }, { file });
      return { ...res, grewMb: (Math.max(peak, process.memoryUsage.rss()) - idle) / 1e6 };
    } finally {
      clearInterval(sampler);
    }
  }

  it("a 60 MB NDJSON line of [[[[… is refused 400 at its fourth bracket (the rule: within a second; 5 s allowed here), RSS grows under 200 MB, nothing stored", async () => {
    const file = bigFile("deep.ndjson", "", "[", "\n");
    const before = await jobCount();
    const res = await sendMeasured("application/x-ndjson", file);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ type: expect.stringMatching(/\/bad-request$/), detail: expect.stringMatching(/^Line 1 nests JSON deeper than 3 levels/) });
    expect(res.ms).toBeLessThan(5000);
    expect(res.grewMb).toBeLessThan(200);
    expect(await jobCount()).toBe(before);
  });

  it("a 60 MB address in one NDJSON line is refused 413 batch-line-too-long once the line passes 64 KiB, RSS grows under 200 MB, nothing stored", async () => {
    const file = bigFile("long.ndjson", '{"county":"adams"}\n{"address":"', "1 Main St ", '"}\n');
    const before = await jobCount();
    const res = await sendMeasured("application/x-ndjson", file);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ type: expect.stringMatching(/\/batch-line-too-long$/), detail: expect.stringMatching(/^Line 2 is longer than 65536 bytes/) });
    expect(res.ms).toBeLessThan(5000);
    expect(res.grewMb).toBeLessThan(200);
    expect(await jobCount()).toBe(before);
  });

  it("a CSV record with a 60 MB quoted address (line breaks inside the quotes) is refused 413 the same way", async () => {
    const file = bigFile("long.csv", 'id,address\nr1,"', "1 Main St\n", '"\n');
    const res = await sendMeasured("text/csv", file);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ type: expect.stringMatching(/\/batch-line-too-long$/), detail: expect.stringMatching(/^Line 2 is longer than 65536 bytes/) });
    expect(res.ms).toBeLessThan(5000);
  });

  it("a lookup nested deeper than 3 levels is a 400 for the whole upload; brackets inside strings do not count, and 3 levels are read (that row fails alone)", async () => {
    const deep = await send("/api/v1/batches", { "content-type": "application/x-ndjson" }, '{"county":"adams"}\n{"county":[[["adams"]]]}\n');
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.body).detail).toMatch(/^Line 2 nests JSON deeper than 3 levels/);
    const quoted = await send("/api/v1/batches", { "content-type": "application/x-ndjson" }, '{"id":"[[[[{{{{\\"[[[[","county":"adams"}\n{"county":[["adams"]]}\n');
    expect(quoted.status).toBe(202);
    expect(JSON.parse(quoted.body).total).toBe(2);
  });

  it("POST /rates/batch: a body nested deeper than a list of lookups (5 levels) is 400; an item's field over its documented length fails that item alone, naming the field", async () => {
    const deep = await send("/api/v1/rates/batch", { "content-type": "application/json" }, `{"lookups":[{"county":${"[".repeat(500_000)}${"]".repeat(500_000)}}]}`);
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.body).detail).toMatch(/nests JSON deeper than 5 levels/);
    const long = await send("/api/v1/rates/batch", { "content-type": "application/json" }, JSON.stringify({ lookups: [{ id: "a", address: "1".repeat(301) }, { id: "b", county: "adams" }] }));
    expect(long.status).toBe(200);
    const { results } = JSON.parse(long.body);
    expect(results[0]).toMatchObject({ id: "a", status: 400, body: { invalid_params: [{ name: "address", reason: "must be at most 300 characters" }] } });
    expect(results[1]).toMatchObject({ id: "b", status: 200 });
  });
});
