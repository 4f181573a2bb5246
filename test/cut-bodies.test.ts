/**
 * A client that closes its connection before its body is whole (src/web/read-body.ts): on a real
 * socket, every route that reads a body answers it as the client's doing (400 `body-incomplete`, which
 * the client never reads), never as a fault of ours: no error logged, no stack, no 5xx counted in the
 * request metrics the server-errors alert reads (docs/operations/prometheus-alerts.yml).
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { startService, type RunningService } from "../src/service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { testConfig } from "./_setup.ts";

let service: RunningService;
let key: string;
let cleanup: () => Promise<void>;
const logged: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const made = testConfig({ METRICS_PORT: "0" });
  cleanup = made.cleanup;
  service = await startService(made.config, { log: (entry) => logged.push(entry) });
  const org = await createOrganization(service.store.db, "Cut Bodies Co");
  key = (await createKey(service.store.db, org.id, "cut bodies", "live")).key;
});
afterAll(async () => {
  await service.close();
  await cleanup();
});

/** The request metrics' count of answers for one route and method, by status. */
async function answered(route: string, method: string): Promise<Record<string, number>> {
  const text = await (await fetch(service.metricsUrl!)).text();
  const counts: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const match = /^buckeye_http_requests_total\{route="([^"]*)",method="([^"]*)",status="(\d+)"\} (\d+)/.exec(line);
    if (match && match[1] === route && match[2] === method) counts[match[3]!] = Number(match[4]);
  }
  return counts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the headers (declaring 10,000 bytes) and the first 100 bytes of the body, then closes the connection. */
async function cutShort(path: string, headers: Record<string, string>): Promise<void> {
  const { port } = new URL(service.url);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.on("error", () => {});
  const lines = Object.entries({ host: "buckeye.test", "content-length": "10000", ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`POST ${path} HTTP/1.1\r\n${lines.join("")}\r\n`);
  socket.write("a".repeat(100));
  // Time for the route to start reading before the client goes.
  await sleep(300);
  socket.destroy();
}

async function total(route: string, method: string): Promise<number> {
  return Object.values(await answered(route, method)).reduce((a, b) => a + b, 0);
}

async function cutAndCount(route: string, path: string, headers: Record<string, string>): Promise<Record<string, number>> {
  const before = await total(route, "POST");
  await cutShort(path, headers);
  for (let i = 0; i < 50 && (await total(route, "POST")) === before; i++) await sleep(100);
  return answered(route, "POST");
}

describe("a body the client cuts short is the client's outcome: 400-class, never a logged 500", () => {
  const cases: Array<[string, string, () => Record<string, string>]> = [
    ["a JSON resource body (POST /api/v1/webhooks)", "/api/v1/webhooks", () => ({ authorization: `Bearer ${key}`, "content-type": "application/json" })],
    ["an inline batch (POST /api/v1/rates/batch)", "/api/v1/rates/batch", () => ({ authorization: `Bearer ${key}`, "content-type": "application/json" })],
    ["a job upload (POST /api/v1/batches)", "/api/v1/batches", () => ({ authorization: `Bearer ${key}`, "content-type": "text/csv" })],
    ["the unauthenticated sign-in form (POST /dashboard/sign-in)", "/dashboard/sign-in", () => ({ "content-type": "application/x-www-form-urlencoded" })],
  ];
  for (const [what, path, headers] of cases) {
    it(`${what}: counted as a 4xx answer, with no error logged`, async () => {
      const loggedBefore = logged.length;
      const counts = await cutAndCount(path, path, headers());
      expect(Object.keys(counts).filter((status) => status.startsWith("5"))).toEqual([]);
      expect(Object.keys(counts).some((status) => status.startsWith("4"))).toBe(true);
      expect(logged.slice(loggedBefore).filter((entry) => entry.level === "error")).toEqual([]);
    });
  }
});
