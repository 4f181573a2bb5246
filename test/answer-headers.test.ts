/**
 * Every answer carries x-request-id and, on /api/v1 once the key is known, the RateLimit
 * fields — whichever way the answer is built (src/http/answer-headers.ts): a cached
 * lookup body, a plain object, a problem, a page of the dashboard.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService({ RATE_LIMIT_PER_SECOND: "1000" });
});
afterAll(() => api.close());

function expectRateLimitFields(res: Response) {
  expect(res.headers.get("ratelimit-limit")).toBe("1000");
  expect(Number(res.headers.get("ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
  expect(res.headers.get("ratelimit-reset")).toMatch(/^\d+$/);
}

describe("answer headers: x-request-id and RateLimit on every answer", () => {
  it("a county lookup (a cached body) carries its request id, the RateLimit fields and a JSON content type", async () => {
    const first = await api.get("/api/v1/rates?county=adams&date=2026-01-01");
    const second = await api.get("/api/v1/rates?county=adams&date=2026-01-01");
    for (const res of [first, second]) {
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json;charset=UTF-8");
      expect(res.headers.get("x-request-id")).toBe(body.request_id);
      expectRateLimitFields(res);
    }
    expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"));
  });

  it("HEAD on a lookup answers the same headers with no body", async () => {
    const res = await api.service.app.fetch(new Request("http://buckeye.test/api/v1/rates?county=adams", { method: "HEAD", headers: { authorization: `Bearer ${api.liveKey}` } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expectRateLimitFields(res);
    expect(await res.text()).toBe("");
  });

  it("an answer built from an object (GET /api/v1/counties) carries them too", async () => {
    const res = await api.get("/api/v1/counties");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expectRateLimitFields(res);
  });

  it("a problem after the key was checked carries the body's request id and the RateLimit fields", async () => {
    const res = await api.get("/api/v1/rates?county=nowhere");
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-request-id")).toBe(body.request_id);
    expectRateLimitFields(res);
  });

  it("a request without a key gets a request id and no RateLimit fields (no bucket was drawn from)", async () => {
    const res = await api.get("/api/v1/rates?county=adams", {});
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(401);
    expect(res.headers.get("x-request-id")).toBe(body.request_id);
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });

  it("a header a route sets itself is kept (Location on a created webhook) beside the request id", async () => {
    const res = await api.service.app.fetch(
      new Request("http://buckeye.test/api/v1/webhooks", {
        method: "POST",
        headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: "https://93.184.216.34/hooks/tax", events: ["rate.changed"] }),
      }),
    );
    const body = (await res.json()) as { webhook: { id: string } };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/v1/webhooks/${body.webhook.id}`);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expectRateLimitFields(res);
  });

  it("a dashboard page carries a request id", async () => {
    const res = await api.get("/dashboard/sign-in", {});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
