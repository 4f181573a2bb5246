/**
 * The organization's request limit (docs/api/README.md, "Rate limits"): every key keeps its own
 * bucket, and the keys of one organization also draw together from the organization's bucket, so
 * creating more keys does not multiply what an organization may send. Over real sockets, in one
 * process (buckets in memory) and with the buckets in Redis; several instances sharing the
 * organization's bucket are in test/multi-instance.test.ts.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { startTestService, type TestService } from "./_setup.ts";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PER_KEY = 10;
const PER_ORG = 30;
/**
 * The load tests' limits: low, so that the clients' first requests alone (two per key, sent at once)
 * are more than the organization's burst, however slowly a loaded machine answers the rest.
 */
const LOAD = { perKey: 4, perOrg: 8, keys: 8 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function rates(url: string, key: string): Promise<Response> {
  const res = await fetch(`${url}/api/v1/rates?county=franklin&date=2025-04-01`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res;
}

/**
 * Two clients per key, each sending as soon as its previous request is answered, for `seconds`:
 * every 200 they got, the window's real length (timers fire late on a loaded machine) and the
 * problem types of the 429s.
 */
async function sendFlatOut(url: string, keys: string[], seconds: number): Promise<{ accepted: number; elapsed: number; refusals: Set<string> }> {
  let done = false;
  let accepted = 0;
  const refusals = new Set<string>();
  const started = performance.now();
  const clients = [...keys, ...keys].map(async (key) => {
    while (!done) {
      const res = await fetch(`${url}/api/v1/rates?county=franklin&date=2025-04-01`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status === 200) accepted += 1;
      else if (res.status === 429) refusals.add(String(((await res.json()) as { type: string }).type.split("/").at(-1)));
      else throw new Error(`unexpected status ${res.status}`);
      if (!res.bodyUsed) await res.arrayBuffer();
    }
  });
  await sleep(seconds * 1000);
  done = true;
  await Promise.all(clients);
  return { accepted, elapsed: (performance.now() - started) / 1000, refusals };
}

for (const mode of ["in memory", "in Redis"] as const) {
  describe(`the organization's limit holds across its keys (buckets ${mode})`, () => {
    let api: TestService & { url?: string };
    let keys: string[];
    beforeAll(async () => {
      api = await startTestService(
        {
          RATE_LIMIT_PER_SECOND: String(LOAD.perKey),
          RATE_LIMIT_PER_SECOND_PER_ORG: String(LOAD.perOrg),
          ...(mode === "in Redis" && { REDIS_URL: REDIS, REDIS_KEY_PREFIX: `buckeye-test:${randomBytes(6).toString("hex")}:`, REDIS_TIMEOUT_MS: "5000" }),
        },
        true,
      );
      keys = await Promise.all(Array.from({ length: LOAD.keys }, async (_, i) => (await createKey(api.service.store.db, api.orgId, `key ${i}`, "live")).key));
    });
    afterAll(() => api.close());

    it(`${LOAD.keys} keys of one organization sending flat out get no more than the organization's ${LOAD.perOrg} per second between them, not ${LOAD.keys} × ${LOAD.perKey}`, async () => {
      const { accepted, elapsed, refusals } = await sendFlatOut(api.url!, keys, 3);
      // A bucket admits its burst and then its rate: at most 8 + 8 per second of the window (5 % slack for the
      // window's ends). The organization's bucket did refuse, so the clients did send past it.
      expect(accepted).toBeLessThanOrEqual(LOAD.perOrg * (1 + elapsed) * 1.05);
      expect(refusals.has("organization-rate-limit-exceeded")).toBe(true);
    });
  });
}

describe("a request past the organization's limit", () => {
  let api: TestService & { url?: string };
  let keys: string[];
  let clock = Date.parse("2026-01-05T15:00:00Z");
  beforeAll(async () => {
    api = await startTestService({ RATE_LIMIT_PER_SECOND: String(PER_KEY), RATE_LIMIT_PER_SECOND_PER_ORG: String(PER_ORG) }, true);
    // The in-process buckets refill from the service's clock: held still, nothing refills unless the test moves it.
    api.clock.set(() => new Date(clock));
    keys = await Promise.all(Array.from({ length: 4 }, async (_, i) => (await createKey(api.service.store.db, api.orgId, `key ${i}`, "live")).key));
  });
  afterAll(() => api.close());

  it("is 429 organization-rate-limit-exceeded, with the organization's RateLimit headers and Retry-After, and spends none of its key's tokens", async () => {
    // Three keys spend the organization's 30 between them, each within its own 10.
    for (const key of keys.slice(0, 3)) for (let i = 0; i < PER_KEY; i++) expect((await rates(api.url!, key)).status).toBe(200);
    const fourth = keys[3]!;
    for (let i = 0; i < 12; i++) {
      const refused = await rates(api.url!, fourth);
      expect(refused.status).toBe(429);
      if (i > 0) continue;
      const body = (await (await fetch(`${api.url}/api/v1/rates?county=franklin`, { headers: { authorization: `Bearer ${fourth}` } })).json()) as Record<string, unknown>;
      expect(body).toMatchObject({ type: expect.stringMatching(/\/organization-rate-limit-exceeded$/), status: 429, detail: expect.stringContaining(`${PER_ORG} requests per second`) });
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.headers.get("ratelimit-limit")).toBe(String(PER_ORG));
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    }
    // 200 ms later the organization has 6 tokens again and the fourth key all 10 of its own: its refusals took none.
    clock += 200;
    const next = await rates(api.url!, fourth);
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit-limit")).toBe(String(PER_KEY));
    expect(next.headers.get("ratelimit-remaining")).toBe(String(PER_KEY - 1));
  });

  it("a key past its own limit is still 429 rate-limit-exceeded, with its key's headers", async () => {
    clock += 1000;
    const key = keys[0]!;
    for (let i = 0; i < PER_KEY; i++) expect((await rates(api.url!, key)).status).toBe(200);
    const refused = await fetch(`${api.url}/api/v1/rates?county=franklin`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { type: string }).type).toMatch(/\/rate-limit-exceeded$/);
    expect(refused.headers.get("ratelimit-limit")).toBe(String(PER_KEY));
  });
});
