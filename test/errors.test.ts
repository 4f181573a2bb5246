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

describe("problem details (spec §7, RFC 9457)", () => {
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
    const original = api.service.context.currency;
    api.service.context.currency = () => {
      throw new Error("secret internal detail at /srv/app/db.ts:42");
    };
    try {
      const res = await api.get("/api/v1/rates?county=adams");
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const body = JSON.parse(text);
      expect(body).toMatchObject({ type: expect.stringMatching(/\/internal-error$/), title: "Internal Server Error", status: 500 });
      expect(text).not.toContain("secret");
      expect(text).not.toContain("db.ts");
      expect(body.stack).toBeUndefined();
    } finally {
      api.service.context.currency = original;
    }
  });
});
