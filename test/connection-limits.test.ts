/**
 * The listening socket's limits (src/http/server-limits.ts, src/http/slow-clients.ts), on a real
 * service on a real socket: a client that trickles or stops its headers, or trickles its body, is
 * answered 408 and closed within twice its setting; near HTTP_MAX_CONNECTIONS a new client gets in
 * by closing one that keeps the service waiting; and past the cap, when every connection is being
 * answered, new connections are closed at once with a warning in the log.
 */
import { get } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { startService, type RunningService } from "../src/service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { testConfig } from "./_setup.ts";
import { oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";

const MAX_CONNECTIONS = 6;
const HEADERS_TIMEOUT_MS = 1000;
const BODY_TIMEOUT_MS = 1000;
let service: RunningService;
let key: string;
let census: FakeCensusGeocoder;
let cleanup: () => Promise<void>;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  census = await startFakeCensusGeocoder();
  const made = testConfig({
    CENSUS_GEOCODER_URL: census.url,
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    HTTP_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    // Far under the 2,500 bytes a second the steady body below sends, and far over the slow ones' 5, so a
    // test process starved by a busy machine (writes a second apart) still keeps the rate.
    HTTP_BODY_MIN_BYTES_PER_SECOND: "256",
    HTTP_REQUEST_TIMEOUT_MS: "60000",
    HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  });
  cleanup = made.cleanup;
  service = await startService(made.config, { log: (entry) => logged.push(entry) });
  const org = await createOrganization(service.store.db, "Connections Co");
  key = (await createKey(service.store.db, org.id, "connections", "live")).key;
});
afterAll(async () => {
  await service.close();
  await census.close();
  await cleanup();
});

function open(): Promise<Socket> {
  const { port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Resolves with what the server sent once it closes the connection, or with null if it is still open after `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<string | null> {
  return new Promise((resolve) => {
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("error", () => {});
    const timer = setTimeout(() => resolve(null), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

/** Writes `piece` every `everyMs` while the socket is open. */
function trickle(socket: Socket, piece: string, everyMs: number): () => void {
  const timer = setInterval(() => socket.writable && socket.write(piece), everyMs);
  socket.once("close", () => clearInterval(timer));
  return () => clearInterval(timer);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A GET on a connection of its own (a pooled one may be one the service closed for room): its status and how long it took. */
function getOnNewConnection(path: string, headers: Record<string, string> = {}): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(`${service.url}${path}`, { agent: false, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
    }).on("error", reject);
  });
}

/** A webhook registration's headers, declaring a 10,000-byte body (under the route's 64 KiB). */
const SLOW_BODY_HEADERS = () =>
  `POST /api/v1/webhooks HTTP/1.1\r\nHost: buckeye.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n`;

describe("HTTP_HEADERS_TIMEOUT_MS: a client must send its headers in time, and is closed within twice the setting", () => {
  it("a client that sends one header line every 300 ms is answered 408 and closed within 2 × HTTP_HEADERS_TIMEOUT_MS", async () => {
    const socket = await open();
    const started = performance.now();
    socket.write("GET /healthz HTTP/1.1\r\nHost: buckeye.test\r\n");
    trickle(socket, "X-Slow: 1\r\n", 300);
    const sent = await closedWithin(socket, 10_000);
    expect(sent).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(2 * HEADERS_TIMEOUT_MS);
  });

  it("a client that sends a request line and one header, then nothing, is closed within 2 × HTTP_HEADERS_TIMEOUT_MS", async () => {
    const socket = await open();
    const started = performance.now();
    socket.write("GET /healthz HTTP/1.1\r\nHost: buckeye.test\r\n");
    expect(await closedWithin(socket, 10_000)).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(2 * HEADERS_TIMEOUT_MS);
  });

  it("on a kept-alive connection the next request's headers are timed from their first byte", async () => {
    const socket = await open();
    socket.write("GET /healthz HTTP/1.1\r\nHost: buckeye.test\r\n\r\n");
    await sleep(300);
    const started = performance.now();
    socket.write("GET /healthz HTTP/1.1\r\n");
    trickle(socket, "X-Slow: 1\r\n", 300);
    const sent = await closedWithin(socket, 10_000);
    expect(sent).toMatch(/^HTTP\/1\.1 200[\s\S]*HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(2 * HEADERS_TIMEOUT_MS);
  });
});

describe("HTTP_BODY_TIMEOUT_MS and HTTP_BODY_MIN_BYTES_PER_SECOND: a body must keep a minimum rate", () => {
  it("a body of 1 byte every 200 ms (declared 10,000 bytes) is answered 408 and closed within 2 × HTTP_BODY_TIMEOUT_MS", async () => {
    const socket = await open();
    socket.write(SLOW_BODY_HEADERS());
    const started = performance.now();
    trickle(socket, " ", 200);
    expect(await closedWithin(socket, 10_000)).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(2 * BODY_TIMEOUT_MS);
  });

  it("a slow body the route does not read (POST /healthz) is closed the same way", async () => {
    const socket = await open();
    socket.write("POST /healthz HTTP/1.1\r\nHost: buckeye.test\r\nContent-Length: 100000\r\n\r\n");
    const started = performance.now();
    trickle(socket, " ", 200);
    expect(await closedWithin(socket, 10_000)).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(2 * BODY_TIMEOUT_MS);
  });

  it("a body that keeps above the minimum rate is read whole, however long past HTTP_BODY_TIMEOUT_MS it takes", async () => {
    const body = JSON.stringify({ url: "https://example.com/hooks", events: ["rate.changed"] }).padEnd(6000, " ");
    const socket = await open();
    socket.write(`POST /api/v1/webhooks HTTP/1.1\r\nHost: buckeye.test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    const started = performance.now();
    for (let at = 0; at < body.length; at += 500) {
      socket.write(body.slice(at, at + 500));
      await sleep(200);
    }
    const sent = await closedWithin(socket, 10_000);
    expect(performance.now() - started).toBeGreaterThan(2 * BODY_TIMEOUT_MS);
    // Read whole and judged: created, or refused for what it says, never cut off.
    expect(sent).toMatch(/^HTTP\/1\.1 (201|422) /);
  });
});

describe("HTTP_MAX_CONNECTIONS: near the cap, a new client gets in by closing one that keeps the service waiting", () => {
  it("with the cap held by clients trickling headers, a request on a new connection is answered at once", async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, open));
    for (const socket of held) {
      socket.write("GET /healthz HTTP/1.1\r\nHost: buckeye.test\r\n");
      trickle(socket, "X-Slow: 1\r\n", 200);
    }
    await sleep(200);
    const answer = await getOnNewConnection("/healthz");
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(1000);
    for (const socket of held) socket.destroy();
  });

  it("with the cap held by slow bodies, a request on a new connection is answered at once", async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, open));
    for (const socket of held) {
      socket.write(SLOW_BODY_HEADERS());
      trickle(socket, " ", 200);
    }
    await sleep(200);
    const answer = await getOnNewConnection("/healthz");
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(1000);
    for (const socket of held) socket.destroy();
  });

  it("a warning, at most every 10 s, counts the connections closed for room and for their timeouts", async () => {
    const closedWarning = () => logged.find((entry) => entry.level === "warn" && String(entry.msg).startsWith("closed connections that kept the service waiting"));
    const until = performance.now() + 12_000;
    while (!closedWarning() && performance.now() < until) await sleep(100);
    expect(closedWarning()).toMatchObject({ headers: expect.any(Number), body: expect.any(Number), for_room: expect.any(Number) });
    const counted = logged.filter((entry) => String(entry.msg).startsWith("closed connections that kept the service waiting"));
    expect(counted.reduce((sum, entry) => sum + Number(entry.headers) + Number(entry.body) + Number(entry.for_room), 0)).toBeGreaterThan(0);
  }, 15_000);
});

describe("HTTP_MAX_CONNECTIONS: past the cap, when the service is working on every connection's answer, new connections are closed at once, and the log says so", () => {
  it("the connection over the cap is closed without an answer, a warning is logged, and requests work again once the others end", async () => {
    // Address lookups held by the (fake) geocoder: the service is working on each of these answers, so none is closed for room.
    census.setMode("hold");
    // One after another, so each is being answered (not still sending its headers) when the next arrives.
    const lookups: Array<Promise<number>> = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      lookups.push(getOnNewConnection(`/api/v1/rates?address=${encodeURIComponent(oneLine("statehouse"))}`, { authorization: `Bearer ${key}` }).then((answer) => answer.status));
      await sleep(150);
    }
    const extra = await open();
    extra.write("GET /healthz HTTP/1.1\r\nHost: buckeye.test\r\n\r\n");
    expect(await closedWithin(extra, 5_000)).toBe("");
    const warning = logged.find((entry) => entry.level === "warn" && String(entry.msg).startsWith("connection limit reached"));
    expect(warning).toMatchObject({ max_connections: MAX_CONNECTIONS });
    census.release();
    expect(await Promise.all(lookups)).toEqual(Array(MAX_CONNECTIONS).fill(200));
    const res = await fetch(`${service.url}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe("HTTP_MAX_CONNECTIONS: a client that does not read its answers is closed for room like one that does not send", () => {
  it("with the cap held by clients that pipeline and never read, a request on a new connection is answered at once", async () => {
    const held: Socket[] = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const socket = await open();
      socket.pause();
      socket.on("error", () => {});
      socket.write("GET /api/v1/openapi.json HTTP/1.1\r\nHost: buckeye.test\r\n\r\n".repeat(500));
      held.push(socket);
      await sleep(100);
    }
    const answer = await getOnNewConnection("/healthz");
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(1000);
    for (const socket of held) socket.destroy();
  });
});
