/**
 * GET /api/v1/rates reads a query string once and keeps what it read (src/http/text-memo.ts): the same text
 * sent again must answer exactly as if read afresh. Real service, real store, in-process requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWERS_KEPT } from "../src/http/body-cache.ts";
import { QUERIES_KEPT } from "../src/http/routes/rates.ts";
import { call, rate } from "./_api.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService();
});
afterAll(() => api.close());

describe("GET /api/v1/rates reads a query string it has seen before as it did the first time", () => {
  it("a lookup without a date is for today in Ohio: the same query string sent after Ohio's midnight answers for the new day", async () => {
    api.clock.set(new Date("2026-07-01T03:59:00Z")); // 23:59 on June 30 in Columbus (EDT)
    expect((await rate(api, "county=franklin")).date_evaluated).toBe("2026-06-30");
    expect((await rate(api, "county=franklin")).date_evaluated).toBe("2026-06-30");
    api.clock.set(new Date("2026-07-01T04:01:00Z")); // 00:01 on July 1 in Columbus
    expect((await rate(api, "county=franklin")).date_evaluated).toBe("2026-07-01");
    api.clock.set(null);
  });

  it("a refused query string is refused again, with the same problem, however often it is sent", async () => {
    for (let i = 0; i < 3; i++) {
      const { res, body } = await call(api, "GET", "/api/v1/rates?county=franklin&dat=2020-01-01");
      expect(res.status).toBe(400);
      expect(body.invalid_params).toEqual([expect.objectContaining({ name: "dat" })]);
    }
  });

  it("each answer to a repeated query string carries its own request id", async () => {
    const [first, second] = [await call(api, "GET", "/api/v1/rates?zip=43215"), await call(api, "GET", "/api/v1/rates?zip=43215")];
    expect(first.body.request_id).not.toBe(second.body.request_id);
    expect({ ...first.body, request_id: null }).toEqual({ ...second.body, request_id: null });
  });

  it("a query's reading is kept as long as the answer it keys: as many query strings are kept as answers", () => {
    // Fewer would make every reuse of a kept answer read and check its query again once more distinct queries
    // than that are in use (docs/operations/benchmarks.md, the single-address figures).
    expect(QUERIES_KEPT).toBeGreaterThanOrEqual(ANSWERS_KEPT);
  });
});
