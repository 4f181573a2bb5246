import { createApp } from "../src/http/app.ts";
import type { ApiContext } from "../src/http/context.ts";
import { errorFields } from "../src/error-fields.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService({ ERRORS_URL: "https://docs.example.test/problems/" });
});
afterAll(() => api.close());

async function problem(path: string, headers?: Record<string, string>) {
  const res = await api.get(path, headers);
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("problem details (RFC 9457)", () => {
  it("every error is application/problem+json with type, title, status, detail and request_id", async () => {
    const { res, body } = await problem("/api/v1/rates");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(body).toMatchObject({
      type: "https://docs.example.test/problems/bad-request",
      title: "Invalid Parameters",
      status: 400,
      detail: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    });
    expect(res.headers.get("x-request-id")).toBe(body.request_id);
  });

  it("errors_url is configurable (ERRORS_URL), trailing slash or not", async () => {
    const { body } = await problem("/api/v1/rates?county=nowhere");
    expect(body.type).toBe("https://docs.example.test/problems/county-not-found");
  });

  it("none of county, zip, address is 400 bad-request", async () => {
    const { body } = await problem("/api/v1/rates?date=2026-01-01");
    expect(body.type).toMatch(/\/bad-request$/);
  });

  it("wrong parameters are listed in invalid_params, all at once", async () => {
    const { res, body } = await problem("/api/v1/rates?zip=4321&date=2026-13-01&cuonty=x");
    expect(res.status).toBe(400);
    expect(body.invalid_params.map((p: any) => p.name).sort()).toEqual(["cuonty", "date", "zip"]);
    for (const param of body.invalid_params) expect(param.reason.length).toBeGreaterThan(5);
  });

  it("a repeated parameter is 400 rather than a guess at which one was meant", async () => {
    const { res, body } = await problem("/api/v1/rates?county=adams&county=franklin");
    expect(res.status).toBe(400);
    expect(body.invalid_params).toEqual([{ name: "county", reason: "given more than once" }]);
  });

  it("an unknown path is a 404 problem, not an HTML page", async () => {
    const { res, body } = await problem("/api/v2/rates");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(body.type).toMatch(/\/not-found$/);
  });

  it("a server fault is 500 internal-error with no stack trace or internal message", async () => {
    // The same service's parts, with the rate freshness failing: an app over them answers the fault.
    const faulty = createApp({
      ...api.service.context,
      freshness: () => {
        throw new Error("secret internal detail at /srv/app/db.ts:42");
      },
    });
    const res = await faulty.fetch(new Request("http://buckeye.test/api/v1/rates?county=adams", { headers: { authorization: `Bearer ${api.liveKey}` } }));
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = JSON.parse(text);
    expect(body).toMatchObject({ type: expect.stringMatching(/\/internal-error$/), title: "Internal Server Error", status: 500 });
    expect(text).not.toContain("secret");
    expect(text).not.toContain("db.ts");
    expect(body.stack).toBeUndefined();
  });
});

describe("errors are logged with their cause's message and code, never [object Object]", () => {
  function capturingApp(parts: Partial<ApiContext> = {}) {
    const logs: Array<Record<string, unknown>> = [];
    const app = createApp({ ...api.service.context, ...parts }, (entry) => logs.push(entry));
    const get = (path: string) => app.fetch(new Request(`http://buckeye.test${path}`, { headers: { authorization: `Bearer ${api.liveKey}` } }));
    return { logs, get };
  }

  it("a 503 geocoder-unavailable is logged (level warn) with its detail", async () => {
    const { logs, get } = capturingApp();
    // The test config points the geocoder at a port that refuses connections, and this address has no ZIP to fall back on.
    const res = await get(`/api/v1/rates?address=${encodeURIComponent("2 Other St, Somewhere")}`);
    expect(res.status).toBe(503);
    const entry = logs.find((e) => e.problem === "geocoder-unavailable");
    expect(entry).toMatchObject({ level: "warn", error: expect.stringMatching(/geocod/i) });
    expect(JSON.stringify(logs)).not.toContain("[object Object]");
  });

  it("an address whose ZIP is outside Ohio is 422 outside-ohio even with the geocoder down, as coordinates outside Ohio are", async () => {
    const { get } = capturingApp();
    for (const query of [`address=${encodeURIComponent("1600 Pennsylvania Ave NW, Washington, DC 20500")}`, `address=${encodeURIComponent("2 Other St, Somewhere")}&zip=90210`]) {
      const res = await get(`/api/v1/rates?${query}&date=2026-06-01`);
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status, query).toBe(422);
      expect(body, query).toMatchObject({ type: expect.stringMatching(/\/outside-ohio$/), detail: expect.stringMatching(/^ZIP \d{5} \(Ohio's begin 430 to 459\) is outside Ohio/) });
    }
  });

  it("a fault is logged with its message, its cause's message and the first error code", async () => {
    const { logs, get } = capturingApp({
      freshness: () => {
        throw new Error("reading the reconciliation log failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }) });
      },
    });
    expect((await get("/api/v1/rates?county=adams")).status).toBe(500);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: "error",
        error: "reading the reconciliation log failed: connect ECONNREFUSED 127.0.0.1:5432",
        code: "ECONNREFUSED",
        stack: expect.stringContaining("ECONNREFUSED"),
      }),
    );
  });

  it("errorFields names non-Error throws and error classes, and follows AggregateError", () => {
    expect(errorFields({ status: 503, message: "the geocoder is down" })).toEqual({ error: "the geocoder is down" });
    expect(errorFields("plain text")).toEqual({ error: "plain text" });
    expect(errorFields({})).toEqual({ error: "[object Object]" });
    expect(errorFields(new TypeError("x is not a function")).error).toBe("TypeError: x is not a function");
    const aggregate = new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:6379"), { code: "ECONNREFUSED" })], "all attempts failed");
    expect(errorFields(aggregate).error).toBe("AggregateError: all attempts failed: connect ECONNREFUSED ::1:6379");
  });
});

describe("a known path with the wrong method is 405 with Allow, not 404", () => {
  it.each([
    ["DELETE", "/api/v1/rates", "GET, HEAD"],
    ["POST", "/api/v1/counties", "GET, HEAD"],
    ["PUT", "/api/v1/webhooks/wh_01jz0000000000000000000000", "GET, HEAD, PATCH, DELETE"],
    ["GET", "/api/v1/rates/batch", "POST"],
    ["DELETE", "/healthz", "GET, HEAD"],
  ])("%s %s → 405, Allow: %s", async (method, path, allow) => {
    const res = await api.service.app.fetch(new Request(`http://buckeye.test${path}`, { method, headers: { authorization: `Bearer ${api.liveKey}` } }));
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("allow")).toBe(allow);
    const body = await res.json();
    expect(body).toMatchObject({ type: expect.stringMatching(/\/method-not-allowed$/), title: "Method Not Allowed", status: 405 });
    expect(body.detail).toContain(allow);
  });

  it("an unknown path is still 404, and HEAD still answers a GET route", async () => {
    expect((await api.service.app.fetch(new Request("http://buckeye.test/api/v1/ratez", { method: "DELETE" }))).status).toBe(404);
    expect((await api.service.app.fetch(new Request("http://buckeye.test/healthz", { method: "HEAD" }))).status).toBe(200);
  });
});
