/**
 * The listening socket's limits (src/http/server-limits.ts), on a real service on a real socket: a
 * client that trickles its headers is closed, and past HTTP_MAX_CONNECTIONS new connections are
 * closed at once with a warning in the log, while the service answers again once they end.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../src/service.ts";
import { testConfig } from "./_setup.ts";

const MAX_CONNECTIONS = 6;
let service: RunningService;
let cleanup: () => Promise<void>;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const made = testConfig({ HTTP_HEADERS_TIMEOUT_MS: "1000", HTTP_REQUEST_TIMEOUT_MS: "2000", HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS) });
  cleanup = made.cleanup;
  service = await startService(made.config, { log: (entry) => logged.push(entry) });
});
afterAll(async () => {
  await service.close();
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

describe("HTTP_HEADERS_TIMEOUT_MS: a client must send its headers in time", () => {
  // Node checks its timeouts every 30 s, so a slow client is closed between 1 s and about 31 s here; Node's own 60 s default would keep it past the wait.
  it("a client that sends one header line every 300 ms is answered 408 and closed", async () => {
    const socket = await open();
    socket.write("GET /healthz HTTP/1.1\r\nHost: buckeye.test\r\n");
    const trickle = setInterval(() => socket.writable && socket.write("X-Slow: 1\r\n"), 300);
    const sent = await closedWithin(socket, 40_000);
    clearInterval(trickle);
    expect(sent).not.toBeNull();
    expect(sent).toMatch(/^HTTP\/1\.1 408/);
  }, 45_000);
});

describe("HTTP_MAX_CONNECTIONS: past the cap new connections are closed at once, and the log says so", () => {
  it("the connection over the cap is closed without an answer, a warning is logged, and requests work again once the others end", async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, open));
    const extra = await open();
    extra.write("GET /healthz HTTP/1.1\r\nHost: buckeye.test\r\n\r\n");
    expect(await closedWithin(extra, 5_000)).toBe("");
    const warning = logged.find((entry) => entry.level === "warn" && String(entry.msg).startsWith("connection limit reached"));
    expect(warning).toMatchObject({ max_connections: MAX_CONNECTIONS });
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const res = await fetch(`${service.url}/healthz`);
    expect(res.status).toBe(200);
  });
});
