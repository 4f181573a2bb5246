import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRateLimiter } from "../src/http/rate-limit.ts";
import { startTestService, type TestService } from "./_setup.ts";

describe("token bucket (10 per second per key)", () => {
  it("allows a burst of 10, refuses the 11th, and refills at 10 per second", () => {
    const limiter = new MemoryRateLimiter({ perKey: 10, perOrganization: 1000 });
    const t0 = 1_000_000;
    const burst = Array.from({ length: 11 }, () => limiter.consume("k", "org", t0));
    expect(burst.filter((d) => d.allowed)).toHaveLength(10);
    expect(burst[10]).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(limiter.consume("k", "org", t0 + 100).allowed).toBe(true);
    expect(limiter.consume("k", "org", t0 + 100).allowed).toBe(false);
    expect(limiter.consume("other", "org", t0).allowed).toBe(true);
  });

  it("holds a sustained rate to the limit: 10 seconds of requests every 10 ms admit about 100 + 10", () => {
    const limiter = new MemoryRateLimiter({ perKey: 10, perOrganization: 1000 });
    let admitted = 0;
    for (let t = 0; t < 10_000; t += 10) if (limiter.consume("k", "org", t).allowed) admitted += 1;
    expect(admitted).toBeGreaterThanOrEqual(105);
    expect(admitted).toBeLessThanOrEqual(110);
  });
});

describe("token bucket per organization, across its keys", () => {
  const limits = { perKey: 10, perOrganization: 25 };

  it("the keys of one organization admit 25 between them at one instant, however many keys; another organization has its own 25", () => {
    const limiter = new MemoryRateLimiter(limits);
    const decisions = Array.from({ length: 50 }, (_, i) => limiter.consume(`k${i % 5}`, "org_a", 0));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(25);
    const refused = decisions.filter((d) => !d.allowed);
    expect(refused.every((d) => d.scope === "organization")).toBe(true);
    expect(refused[0]).toMatchObject({ limit: 25, remaining: 0, retryAfterSeconds: 1 });
    expect(limiter.consume("k0", "org_b", 0)).toMatchObject({ allowed: true, scope: "key", limit: 10 });
  });

  it("a refusal by the organization's bucket spends none of the key's tokens, and one by the key's none of the organization's", () => {
    const limiter = new MemoryRateLimiter(limits);
    for (let i = 0; i < 25; i++) limiter.consume(`k${i % 3}`, "org_a", 0);
    // k9 is refused 20 times by its organization: were each to take one of its own tokens, it would have none left.
    for (let i = 0; i < 20; i++) expect(limiter.consume("k9", "org_a", 0).scope).toBe("organization");
    // 100 ms later the organization has 2.5 tokens, and k9 all 10 of its own.
    expect(limiter.consume("k9", "org_a", 100)).toMatchObject({ allowed: true, scope: "key", remaining: 9 });
    // A key past its own limit is refused as the key's; the organization's tokens stay for the others.
    const other = new MemoryRateLimiter(limits);
    for (let i = 0; i < 10; i++) other.consume("k0", "org_a", 0);
    for (let i = 0; i < 20; i++) expect(other.consume("k0", "org_a", 0)).toMatchObject({ allowed: false, scope: "key", limit: 10 });
    const admitted = Array.from({ length: 20 }, () => other.consume("k1", "org_a", 0)).filter((d) => d.allowed).length;
    expect(admitted).toBe(10);
    expect(other.consume("k2", "org_a", 0)).toMatchObject({ allowed: true, scope: "key" });
  });
});

describe("rate limit over HTTP", () => {
  let api: TestService;
  let clock = Date.parse("2026-01-05T15:00:00Z");
  beforeAll(async () => {
    api = await startTestService({ RATE_LIMIT_PER_SECOND: "10" });
    api.clock.set(() => new Date(clock));
  });
  afterAll(() => api.close());

  it("sends RateLimit-Limit, -Remaining and -Reset on every response", async () => {
    const res = await api.get("/api/v1/rates?county=adams");
    expect(res.headers.get("ratelimit-limit")).toBe("10");
    expect(res.headers.get("ratelimit-remaining")).toBe("9");
    expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(0);
  });

  it("the 11th request within a second is 429 rate-limit-exceeded with Retry-After, and counts are per key", async () => {
    clock += 5_000;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await api.get("/api/v1/rates?county=adams");
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    const body = (await last!.json()) as Record<string, any>;
    expect(body).toMatchObject({ type: expect.stringMatching(/\/rate-limit-exceeded$/), title: "Too Many Requests", status: 429 });
    expect(last!.headers.get("retry-after")).toBe("1");
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect(last!.headers.get("content-type")).toBe("application/problem+json");
    const otherKey = await api.get("/api/v1/rates?county=adams", { authorization: `Bearer ${api.testKey}` });
    expect(otherKey.status).toBe(200);
    clock += 1_000;
    expect((await api.get("/api/v1/rates?county=adams")).status).toBe(200);
  });
});
