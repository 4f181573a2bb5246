/**
 * Operations: /healthz says the process is up; /readyz says whether this instance should
 * get traffic (database reachable, rate data loaded, worker pool up); every request can be traced
 * by its request id in one structured access-log line.
 */
import type { H3Event } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logResponse } from "../src/http/access-log.ts";
import { createApp } from "../src/http/app.ts";
import { createService, type Service } from "../src/service.ts";
import { openStore } from "../src/store/connect.ts";
import { startTestService, testConfig, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService({ WORKER_THREADS: "1" });
});
afterAll(() => api?.close());

describe("GET /healthz", () => {
  it("answers 200 {status: ok} without a key", async () => {
    const res = await api.get("/healthz", {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

describe("GET /readyz: database reachable, data loaded, worker pool up; 503 otherwise", () => {
  it("is 200 once the worker threads are up, with each check ok", async () => {
    await api.service.context.lookups.pool.warm();
    // A day within RECONCILE_STALE_AFTER_DAYS of the shipped reconciliation, so the calendar does not decide (stale: test/data-freshness.test.ts).
    api.clock.set(new Date("2026-09-01T12:00:00Z"));
    try {
      const res = await api.get("/readyz", {});
      expect(res.status).toBe(200);
      const body = (await res.json()) as { status: string; checks: Record<string, string> };
      expect(body.status).toBe("ready");
      expect(body.checks.database).toBe("ok");
      expect(body.checks.data).toMatch(/^ok \(88 counties, \d+ ZIP codes\)$/);
      expect(body.checks.boundaries).toMatch(/^ok /);
      expect(body.checks.reconciliation).toMatch(/^ok \(last \d{4}-\d{2}-\d{2}, \d+ days ago; confirmed through \d{4}-\d{2}-\d{2}\)$/);
    } finally {
      api.clock.set(null);
    }
  });

  it("is 503 naming the database when it cannot be reached, while /healthz stays 200", async () => {
    // A real PostgreSQL client pointed at a port where nothing listens, in the same service's parts.
    const unreachable = openStore("postgres://buckeye@127.0.0.1:1/nowhere");
    const app = createApp({ ...api.service.context, db: unreachable.db });
    try {
      const res = await app.fetch(new Request("http://buckeye.test/readyz"));
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; checks: Record<string, string>; reasons: string[] };
      expect(body.status).toBe("not ready");
      expect(body.checks.database).toBe("unreachable");
      expect(body.reasons.join(" ")).toMatch(/^database: /);
      expect((await app.fetch(new Request("http://buckeye.test/healthz"))).status).toBe(200);
    } finally {
      await unreachable.close();
    }
  });
});

describe("access log: one JSON line per request, with its request id", () => {
  let service: Service;
  const lines: Array<Record<string, unknown>> = [];
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const test = testConfig({ LOG_LEVEL: "debug" });
    cleanup = test.cleanup;
    service = await createService(test.config, { log: (entry) => lines.push(entry) });
  });
  afterAll(async () => {
    await service?.close();
    await cleanup?.();
  });

  it("at LOG_LEVEL=debug every request is logged: request id as in X-Request-ID, method, path without the query, status, ms", async () => {
    const res = await service.app.fetch(new Request("http://buckeye.test/api/v1/counties?search=frank"));
    expect(res.status).toBe(401);
    const line = lines.find((l) => l.request_id === res.headers.get("x-request-id"));
    expect(line).toMatchObject({ level: "debug", msg: "request", method: "GET", path: "/api/v1/counties", status: 401 });
    expect(line!.ms).toEqual(expect.any(Number));
    expect(JSON.stringify(line)).not.toContain("frank");
  });

  const event = (startedAgoMs: number) =>
    ({
      context: { requestId: "req_test", startedAt: performance.now() - startedAgoMs },
      req: new Request("http://buckeye.test/api/v1/rates?zip=43215"),
      url: new URL("http://buckeye.test/api/v1/rates?zip=43215"),
    }) as unknown as H3Event;

  it("otherwise only server errors (level error; 503 warn) and requests slower than SLOW_REQUEST_MS (level info) are written", () => {
    const written: Array<Record<string, unknown>> = [];
    const log = logResponse((entry) => written.push(entry), { slowMs: 500, everyRequest: false });
    log(new Response(null, { status: 200 }), event(5));
    log(new Response(null, { status: 429 }), event(5));
    expect(written).toEqual([]);
    log(new Response(null, { status: 200 }), event(800));
    log(new Response(null, { status: 500 }), event(5));
    log(new Response(null, { status: 503 }), event(5));
    expect(written).toMatchObject([
      { level: "info", msg: "slow request", request_id: "req_test", path: "/api/v1/rates", status: 200 },
      { level: "error", msg: "request", status: 500 },
      { level: "warn", msg: "request", status: 503 },
    ]);
  });
});
