/**
 * `Expect: 100-continue` (RFC 9110, 10.1.1) on a real socket: a client that asks before sending its
 * body (curl does for any body over 1 MB) is told 100 Continue only once the request has passed what
 * can be judged without the body: the key, the limits, the declared size and the upload caps. A
 * refusal comes instead of the 100, so the client never sends a body that would be thrown away.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService & { url?: string };
beforeAll(async () => {
  api = await startTestService({ RATE_LIMIT_PER_SECOND: "1", RATE_LIMIT_PER_SECOND_PER_ORG: "1000" }, true);
});
afterAll(() => api.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the headers only, then collects what the server sends until it closes or `ms` pass. */
async function ask(path: string, headers: Record<string, string>, ms = 3000): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { port } = new URL(api.url!);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let received = "";
  socket.on("data", (chunk) => (received += chunk.toString()));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  const lines = Object.entries({ host: "buckeye.test", expect: "100-continue", ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`POST ${path} HTTP/1.1\r\n${lines.join("")}\r\n`);
  // Until the first status line is complete.
  for (let waited = 0; !/\r\n\r\n/.test(received) && waited < ms; waited += 20) await sleep(20);
  return { socket, received: () => received, closed };
}

/** A key of its own for each request, so the slow rate set above refuses only the test that spends its key on purpose. */
const freshKey = async () => (await createKey(api.service.store.db, api.orgId, "expect continue", "live")).key;

const SIXTY_FOUR_MIB = String(64 * 1024 * 1024);

describe("Expect: 100-continue: the request is checked first, then 100 Continue or the refusal", () => {
  it("no key: 401 comes instead of 100 Continue, and the connection is closed, since the client may still send the body it announced", async () => {
    const { socket, received, closed } = await ask("/api/v1/batches", { "content-type": "text/csv", "content-length": SIXTY_FOUR_MIB });
    expect(received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(received()).not.toContain("100 Continue");
    expect(await Promise.race([closed.then(() => "closed"), sleep(5_000).then(() => "open")])).toBe("closed");
    socket.destroy();
  });

  it("a declared size over the route's limit: 413 comes instead of 100 Continue", async () => {
    const { socket, received } = await ask("/api/v1/webhooks", { authorization: `Bearer ${await freshKey()}`, "content-type": "application/json", "content-length": "1000000" });
    expect(received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(received()).not.toContain("100 Continue");
    socket.destroy();
  });

  it("an upload over a job's 64 MiB: 413 comes instead of 100 Continue", async () => {
    const { socket, received } = await ask("/api/v1/batches", { authorization: `Bearer ${await freshKey()}`, "content-type": "text/csv", "content-length": String(64 * 1024 * 1024 + 1) });
    expect(received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(received()).not.toContain("100 Continue");
    socket.destroy();
  });

  it("a key past its requests per second: 429 comes instead of 100 Continue", async () => {
    // The key's bucket (RATE_LIMIT_PER_SECOND 1) is spent by the requests just before.
    const spent = await freshKey();
    await Promise.all(Array.from({ length: 5 }, () => api.get("/api/v1/counties", { authorization: `Bearer ${spent}` })));
    const { socket, received } = await ask("/api/v1/batches", { authorization: `Bearer ${spent}`, "content-type": "text/csv", "content-length": SIXTY_FOUR_MIB });
    expect(received()).toMatch(/^HTTP\/1\.1 429 /);
    expect(received()).not.toContain("100 Continue");
    socket.destroy();
  });

  it("a request that passes: 100 Continue, then the body is read and answered", async () => {
    const body = JSON.stringify({ url: "https://93.184.216.34/hooks", events: ["rate.changed"] });
    const { socket, received } = await ask("/api/v1/webhooks", { authorization: `Bearer ${await freshKey()}`, "content-type": "application/json", "content-length": String(body.length), connection: "close" });
    expect(received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/);
    socket.write(body);
    for (let waited = 0; !/HTTP\/1\.1 201/.test(received()) && waited < 10_000; waited += 50) await sleep(50);
    expect(received().slice(0, 400)).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    socket.destroy();
  });
});
