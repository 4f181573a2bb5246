/**
 * Every body the service reads is counted as it arrives (src/web/read-body.ts), whatever it
 * declares: on a real socket, a chunked body (no Content-Length) far over the limit is streamed
 * until the answer comes. The 413 must come while the client is still sending, and the process
 * must not grow by the body's size.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService & { url?: string };
beforeAll(async () => {
  api = await startTestService({}, true);
  // Each route's first answer loads what it needs (the dashboard's pages, the problem table): done here, so
  // that what is measured below is what a refused body holds, not a route's start-up.
  for (const [path, headers] of [
    ["/dashboard/sign-in", { "content-type": "application/x-www-form-urlencoded" }],
    ["/api/v1/webhooks", { "content-type": "application/json", authorization: `Bearer ${api.liveKey}` }],
    ["/api/v1/rates/batch", { "content-type": "application/json", authorization: `Bearer ${api.liveKey}` }],
  ] as const) {
    await (await fetch(`${api.url}${path}`, { method: "POST", headers, body: "x" })).arrayBuffer();
  }
});
afterAll(() => api.close());

/** What the body would be in all: far over every limit, and more than the process may grow by. */
const BODY_BYTES = 256 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, "a");

interface Refusal {
  status: number;
  contentType: string;
  /** Bytes the client had written when the answer's headers arrived. */
  sentBeforeAnswer: number;
  /** The process's resident memory at its highest while sending, over what it was before, in MB. */
  grewMb: number;
}

/** POSTs a chunked body of BODY_BYTES (written as the socket takes it) and stops writing once the answer arrives. */
function sendChunked(path: string, headers: Record<string, string>): Promise<Refusal> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  return new Promise<Refusal>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(`${api.url}${path}`, { method: "POST", headers: { "transfer-encoding": "chunked", ...headers } }, (res) => {
      answered = true;
      const sentBeforeAnswer = sent;
      res.resume();
      res.on("end", () => {
        clearInterval(sampler);
        req.destroy();
        resolve({ status: res.statusCode!, contentType: String(res.headers["content-type"]), sentBeforeAnswer, grewMb: (peak - before) / 1e6 });
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!answered) reject(error);
    });
    const write = () => {
      while (!answered && sent < BODY_BYTES) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once("drain", write);
      }
      if (!answered) req.end();
    };
    write();
  });
}

describe("a body is counted as it arrives: a chunked body far over its limit is refused while it is still being sent, holding nothing", () => {
  it("a dashboard form (32 KiB at most): the error page with 413, before 16 MB of 256 MB were sent, the process under 64 MB larger", async () => {
    const refusal = await sendChunked("/dashboard/sign-in", { "content-type": "application/x-www-form-urlencoded" });
    expect(refusal.status).toBe(413);
    expect(refusal.contentType).toMatch(/^text\/html/);
    expect(refusal.sentBeforeAnswer).toBeLessThan(16 * 1024 * 1024);
    expect(refusal.grewMb).toBeLessThan(64);
  });

  it("a JSON resource body (64 KiB at most): 413 problem+json, before 16 MB of 256 MB were sent, the process under 64 MB larger", async () => {
    const refusal = await sendChunked("/api/v1/webhooks", { "content-type": "application/json", authorization: `Bearer ${api.liveKey}` });
    expect(refusal.status).toBe(413);
    expect(refusal.contentType).toBe("application/problem+json");
    expect(refusal.sentBeforeAnswer).toBeLessThan(16 * 1024 * 1024);
    expect(refusal.grewMb).toBeLessThan(64);
  });

  it("an inline batch (POST /api/v1/rates/batch): 413 problem+json, before 16 MB of 256 MB were sent, the process under 64 MB larger", async () => {
    const refusal = await sendChunked("/api/v1/rates/batch", { "content-type": "application/json", authorization: `Bearer ${api.liveKey}` });
    expect(refusal.status).toBe(413);
    expect(refusal.contentType).toBe("application/problem+json");
    expect(refusal.sentBeforeAnswer).toBeLessThan(16 * 1024 * 1024);
    expect(refusal.grewMb).toBeLessThan(64);
  });

  it("after a refused form the service answers the next request at once", async () => {
    const started = performance.now();
    const res = await fetch(`${api.url}/healthz`);
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
