/**
 * Rate limits shared through Redis (docs/operations/several-instances.md): several instances
 * draw from one bucket per key; when Redis cannot be reached each instance keeps limiting on its
 * own and says so in a warning, and the shared buckets return when Redis does. Needs the Redis on
 * 127.0.0.1:6379 that .ci/start-services.sh starts (or REDIS_URL). The outage is made by a
 * labelled fake network: a TCP relay in front of the real Redis that the test cuts and restores.
 */
import { randomBytes } from "node:crypto";
import { createServer, connect, type Server, type Socket } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { RedisRateLimiter } from "../src/http/redis-rate-limiter.ts";
import { revokeApiKey } from "../src/store/api-keys.repository.ts";
import { startTestService } from "./_setup.ts";
import { until } from "./_wait.ts";

const REDIS = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");

/** Fake network between the service and Redis: relays bytes until cut. */
class Relay {
  #server: Server | undefined;
  #sockets = new Set<Socket>();
  port = 0;

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(REDIS.port || 6379), REDIS.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on("error", () => {});
        socket.on("close", () => {
          this.#sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
}

const prefix = () => `buckeye-test:${randomBytes(6).toString("hex")}:`;
const open: RedisRateLimiter[] = [];
function limiter(
  url: string,
  keyPrefix: string,
  log: (entry: Record<string, unknown>) => void = () => {},
  limits = { perKey: 10, perOrganization: 1000 },
): RedisRateLimiter & { keyPrefix: string } {
  const created = Object.assign(new RedisRateLimiter({ redis: url, keyPrefix, limits, log }), { keyPrefix });
  open.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

describe("shared rate limits: REDIS_URL", () => {
  it("two instances draw from one bucket per key: 20 requests at once through both get 10 in total, the rest refused", async () => {
    const keyPrefix = prefix();
    const a = limiter(REDIS.href, keyPrefix);
    const b = limiter(REDIS.href, keyPrefix);
    await until(() => a.shared && b.shared, "both limiters to connect");
    const started = performance.now();
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).consume("key_one", "org_one", Date.now())));
    // One bucket: 10, plus one per 100 ms these took (refill on Redis's clock); two buckets would allow all 20.
    const refill = Math.ceil((performance.now() - started) / 100);
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThanOrEqual(10 + refill);
    const refused = decisions.find((d) => !d.allowed)!;
    expect(refused).toMatchObject({ allowed: false, limit: 10, remaining: 0, retryAfterSeconds: 1 });
    expect((await a.consume("key_two", "org_one", Date.now())).allowed).toBe(true);
  });

  it("requests of one turn share one script call and are served in arrival order: the first 10 admitted, counting down, the rest refused", async () => {
    const a = limiter(REDIS.href, prefix());
    await until(() => a.shared, "the limiter to connect");
    // One turn: all 24 calls are made before the script call starts; two keys, interleaved.
    const decisions = await Promise.all(Array.from({ length: 24 }, (_, i) => a.consume(i % 2 ? "key_odd" : "key_even", "org_one", Date.now())));
    for (const key of [0, 1]) {
      const mine = decisions.filter((_, i) => i % 2 === key);
      expect(mine.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false, false]);
      expect(mine.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
      expect(mine[11]).toMatchObject({ limit: 10, retryAfterSeconds: 1 });
    }
  });

  it("an organization's own rates (an operator's) size its buckets in the same script call as the defaults' of another: 3 per key for one, 10 for the other; a shared bucket keeps each key's own rate", async () => {
    const a = limiter(REDIS.href, prefix(), () => {}, { perKey: 10, perOrganization: 1000 });
    await until(() => a.shared, "the limiter to connect");
    const own = { requestsPerSecondPerKey: 3, requestsPerSecondPerOrganization: null };
    const tight = { requestsPerSecondPerKey: 2, requestsPerSecondPerOrganization: 4 };
    // One turn: an organization with its own rate per key, one on the defaults, and two keys with rates of their own drawing from one organization bucket of 4.
    const decisions = await Promise.all([
      ...Array.from({ length: 5 }, () => a.consume("key_own", "org_own", Date.now(), own)),
      ...Array.from({ length: 12 }, () => a.consume("key_default", "org_default", Date.now())),
      ...Array.from({ length: 3 }, () => a.consume("key_tight_1", "org_tight", Date.now(), tight)),
      ...Array.from({ length: 3 }, () => a.consume("key_tight_2", "org_tight", Date.now(), tight)),
    ]);
    expect(decisions.slice(0, 5).map((d) => [d.allowed, d.limit])).toEqual([...Array(3).fill([true, 3]), ...Array(2).fill([false, 3])]);
    expect(decisions.slice(5, 17).map((d) => d.allowed)).toEqual([...Array(10).fill(true), false, false]);
    expect(decisions[5]).toMatchObject({ limit: 10 });
    // Each key stops at its own 2; together they reach the organization's 4.
    expect(decisions.slice(17).map((d) => d.allowed)).toEqual([true, true, false, true, true, false]);
    expect(decisions[19]).toMatchObject({ scope: "key", limit: 2 });
  });

  it("in one turn a key's requests checked before and after an operator cut its rate are each judged and labelled at the rate they carry: the later ones see 2, not the earlier ones' 10", async () => {
    const a = limiter(REDIS.href, prefix(), () => {}, { perKey: 10, perOrganization: 1000 });
    await until(() => a.shared, "the limiter to connect");
    const cut = { requestsPerSecondPerKey: 2, requestsPerSecondPerOrganization: null };
    const decisions = await Promise.all([
      ...Array.from({ length: 2 }, () => a.consume("key_cut", "org_cut", Date.now())),
      ...Array.from({ length: 3 }, () => a.consume("key_cut", "org_cut", Date.now(), cut)),
    ]);
    expect(decisions.slice(0, 2).map((d) => [d.allowed, d.limit])).toEqual([
      [true, 10],
      [true, 10],
    ]);
    // One bucket: the cut rate's entry finds the 8 tokens the first two left, capped at its size of 2.
    expect(decisions.slice(2).map((d) => [d.allowed, d.limit])).toEqual([
      [true, 2],
      [true, 2],
      [false, 2],
    ]);
  });

  it("two instances: four keys of one organization at once admit its 25 between them (plus refill) and no more, each refusal the organization's; another organization has its own bucket", async () => {
    const a = limiter(REDIS.href, prefix(), () => {}, { perKey: 10, perOrganization: 25 });
    const b = limiter(REDIS.href, a.keyPrefix, () => {}, { perKey: 10, perOrganization: 25 });
    await until(() => a.shared && b.shared, "both limiters to connect");
    // 40 requests at once over four keys of one organization, half through each instance, and one of another organization.
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).consume(`key_${i % 4}`, "org_many", Date.now())));
    const other = await a.consume("key_elsewhere", "org_other", Date.now());
    // 25, plus 2.5 per 100 ms these took (refill on Redis's clock).
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(25);
    expect(allowed).toBeLessThanOrEqual(30);
    const refused = decisions.filter((d) => !d.allowed);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((d) => d.scope === "organization" && d.limit === 25 && d.remaining === 0 && d.retryAfterSeconds === 1)).toBe(true);
    expect(other).toMatchObject({ allowed: true, scope: "key", limit: 10, remaining: 9 });
  });

  it("in one turn a key's requests are served while both its bucket and its organization's hold a token, keys in order; the organization's refusals take none of the key's tokens", async () => {
    const a = limiter(REDIS.href, prefix(), () => {}, { perKey: 10, perOrganization: 25 });
    await until(() => a.shared, "the limiter to connect");
    const decisions = await Promise.all(Array.from({ length: 48 }, (_, i) => a.consume(`key_${i % 4}`, "org_many", Date.now())));
    const admitted = [0, 1, 2, 3].map((k) => decisions.filter((d, i) => i % 4 === k && d.allowed).length);
    expect(admitted).toEqual([10, 10, 5, 0]);
    expect(decisions.filter((d, i) => i % 4 === 0 && !d.allowed).every((d) => d.scope === "key")).toBe(true);
    expect(decisions.filter((d, i) => i % 4 === 3).every((d) => d.scope === "organization" && d.limit === 25)).toBe(true);
    // A tenth of a second later the organization has two tokens again. key_3 was refused 12 times: had that taken
    // its tokens it would have one now, not all ten.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await a.consume("key_3", "org_many", Date.now())).toMatchObject({ allowed: true, scope: "key", remaining: 9 });
  });

  it("when Redis becomes unreachable, each instance limits on its own and logs one warning; the shared bucket returns with Redis", async () => {
    const relay = new Relay();
    await relay.up();
    const logs: Array<Record<string, unknown>> = [];
    const a = limiter(relay.url, prefix(), (entry) => logs.push(entry));
    await until(() => a.shared, "the limiter to connect through the relay");
    expect((await a.consume("key_outage", "org_one", Date.now())).allowed).toBe(true);

    await relay.cut();
    const during = [];
    // The local bucket runs on the caller's clock: one instant, so no refill however slow this is.
    const instant = Date.now();
    for (let i = 0; i < 12; i++) during.push(await a.consume("key_outage", "org_one", instant));
    expect(during.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(during[11]!.allowed).toBe(false);
    const warnings = () => logs.filter((entry) => entry.level === "warn");
    await until(() => warnings().length > 0, "the warning");
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.msg).toMatch(/redis unreachable/);

    await relay.up();
    await until(() => a.shared, "the limiter to reconnect");
    expect(logs.at(-1)).toMatchObject({ level: "info", msg: expect.stringMatching(/redis reachable again/) });
    // Back on the shared bucket, which still holds the 9 tokens left before the outage.
    const after = await a.consume("key_outage", "org_one", Date.now());
    expect(after.allowed).toBe(true);
    await relay.cut();
  });
});

describe("shared rate limits over HTTP while Redis is down", () => {
  const relay = new Relay();
  afterAll(() => relay.cut());

  it("the API answers 200 with RateLimit headers, never 500, and 429 past the per-instance limit", async () => {
    await relay.up();
    const api = await startTestService({ REDIS_URL: relay.url, REDIS_KEY_PREFIX: prefix(), RATE_LIMIT_PER_SECOND: "10" });
    try {
      // The per-instance bucket refills from the service's clock: hold it still, so slow requests cannot refill it.
      const frozen = new Date();
      api.clock.set(frozen);
      await relay.cut();
      const statuses = [];
      for (let i = 0; i < 11; i++) {
        const res = await api.get("/api/v1/rates?county=franklin&date=2025-04-01");
        expect(res.headers.get("ratelimit-limit")).toBe("10");
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);
    } finally {
      await api.close();
    }
  });
});

describe("admission: the key first, then the rate limits, with Redis as without", () => {
  for (const shared of [false, true]) {
    it(`${shared ? "with" : "without"} Redis: a key revoked while its bucket is empty is refused as revoked (401), not as limited (429)`, async () => {
      const api = await startTestService({ RATE_LIMIT_PER_SECOND: "1", ...(shared && { REDIS_URL: REDIS.href, REDIS_KEY_PREFIX: prefix() }) });
      try {
        if (shared) await until(() => (api.service.context.limiter as RedisRateLimiter).shared, "the service to reach Redis");
        // The in-process bucket refills from the service's clock: hold it still.
        api.clock.set(new Date());
        const rates = "/api/v1/rates?county=franklin&date=2025-04-01";
        expect((await api.get(rates)).status).toBe(200);
        // Redis refills on its own clock: on a slow machine a second request may find a token again.
        let status = 0;
        for (let i = 0; i < 5 && status !== 429; i++) status = (await api.get(rates)).status;
        expect(status).toBe(429);
        await revokeApiKey(api.service.store.db, api.liveKey.slice(0, 16));
        await api.service.context.keys.changed();
        const refused = await api.get(rates);
        expect(refused.status).toBe(401);
        expect(((await refused.json()) as { type: string }).type).toMatch(/\/invalid-api-key$/);
      } finally {
        await api.close();
      }
    });
  }
});
