/**
 * The case as an operator meets it: a service on a fresh SQLite database with the default
 * HTTP_HEADERS_TIMEOUT_MS (10 s), answering; one connection sends `GET /healthz HTTP/1.1`, a Host
 * line and nothing more, and its client never reads. The service must let go of it within twice
 * the setting, holding no descriptor for it, and the 408 must be there for the client to read.
 *
 * A client that neither reads nor closes keeps its own end in CLOSE-WAIT, and the kernel keeps the
 * service's end in FIN-WAIT-2 (no process, no descriptor) for up to `tcp_fin_timeout` (60 s): `ss`
 * lists the pair all that while, which looks like a connection still open (docs/operations/README.md,
 * "Connections").
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../src/service.ts";
import { testConfig } from "./_setup.ts";

let service: RunningService;
let cleanup: () => Promise<void>;
let headersTimeoutMs: number;

beforeAll(async () => {
  const made = testConfig({});
  cleanup = made.cleanup;
  headersTimeoutMs = made.config.server.headersTimeoutMs;
  service = await startService(made.config);
});
afterAll(async () => {
  await service.close();
  await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const connections = () => new Promise<number>((resolve, reject) => service.listener.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

describe("HTTP_HEADERS_TIMEOUT_MS on a fresh service: headers never finished are let go of", () => {
  it("a request line and a Host line, then nothing, from a client that never reads: the service holds no connection for it within 2 × 10 s, and its 408 waits to be read", async () => {
    expect(headersTimeoutMs).toBe(10_000);
    expect((await fetch(`${service.url}/api/v1/counties`, { headers: { connection: "close" } })).status).toBe(401);
    for (let waited = 0; (await connections()) > 0 && waited < 5_000; waited += 50) await sleep(50);
    const { port } = new URL(service.url);
    const socket = connect({ port: Number(port), host: "127.0.0.1", allowHalfOpen: true });
    await new Promise((resolve) => socket.once("connect", resolve));
    // Nothing is read until the end: the kernel keeps what the service sends.
    socket.pause();
    const started = performance.now();
    socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    await sleep(200);
    expect(await connections()).toBe(1);
    while ((await connections()) > 0 && performance.now() - started < 20_000) await sleep(100);
    expect(await connections()).toBe(0);
    expect(performance.now() - started).toBeLessThan(20_000);
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    await new Promise((resolve) => {
      socket.once("end", resolve);
      socket.resume();
    });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    socket.destroy();
  }, 40_000);
});
