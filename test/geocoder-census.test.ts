/**
 * The `census` geocoder provider: wire format (SYNTHETIC answers written from the documented format,
 * test/fixtures/census/synthetic-answers.ts), request parameters, cache, one retry on a
 * network error, timeout and circuit breaker. Upstream calls go to the FAKE UPSTREAM server or
 * to an injected fetch; time is an injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAddress } from "../src/geo/address.ts";
import { CensusGeocoder, censusRequestUrl, readCensusResponse } from "../src/geo/census-geocoder.ts";
import { CircuitBreaker } from "../src/geo/circuit-breaker.ts";
import { oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { addressAnswerWithDefaultLayers, onelineAnswerWithFailedPlaceLayers, SYNTHETIC_MATCH } from "./fixtures/census/synthetic-answers.ts";

let fake: FakeCensusGeocoder;
beforeAll(async () => {
  fake = await startFakeCensusGeocoder();
});
afterAll(() => fake?.close());

function geocoder(options: Partial<ConstructorParameters<typeof CensusGeocoder>[0]> = {}) {
  return new CensusGeocoder({ baseUrl: fake.url, timeoutMs: 2000, cacheSize: 100, failureThreshold: 3, cooldownMs: 30_000, ...options });
}

describe("reading the Census Geocoder's geographies JSON", () => {
  it("takes coordinates and the Counties layer from an answer of the address endpoint with its default layers (no place layer)", () => {
    expect(readCensusResponse(addressAnswerWithDefaultLayers())).toEqual({ kind: "match", ...SYNTHETIC_MATCH, place: undefined });
  });

  it("treats a layer that reports 'Layer query encountered an error' as missing, not as 'no place'", () => {
    const outcome = readCensusResponse(onelineAnswerWithFailedPlaceLayers());
    expect(outcome).toMatchObject({ kind: "match", county: { geoid: "39049" }, place: undefined });
  });

  it("reads an empty addressMatches as no match", () => {
    const body = addressAnswerWithDefaultLayers();
    body.result.addressMatches = [];
    expect(readCensusResponse(body)).toEqual({ kind: "no-match" });
  });

  it("refuses a body without result.addressMatches", () => {
    expect(() => readCensusResponse({ errors: ["nope"] })).toThrow(/addressMatches/);
  });

  it("builds the address request with the documented parameters", () => {
    const url = new URL(censusRequestUrl("https://geocoding.geo.census.gov", parseAddress("1600 Pennsylvania Avenue NW, Washington, DC 20500")));
    expect(url.pathname).toBe("/geocoder/geographies/address");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      street: "1600 Pennsylvania Avenue NW", city: "Washington", state: "DC", zip: "20500",
      benchmark: "Public_AR_Current", vintage: "Current_Current", layers: "Counties,Incorporated Places", format: "json",
    });
  });
});

describe("normalised addresses share one cache entry", () => {
  it("gives equal keys to spellings that differ only in case, punctuation, abbreviations and ZIP+4", () => {
    const a = parseAddress("100 North High Street, Columbus, Ohio 43215");
    const b = parseAddress("  100 n. high st. ,  COLUMBUS , oh 43215-1234 ");
    expect(a.key).toBe(b.key);
    expect(a.zip).toBe("43215");
  });

  it("asks the upstream once for repeated addresses, including ones in flight together", async () => {
    const g = geocoder();
    const before = fake.requests.length;
    const address = parseAddress(oneLine("carroll"));
    const [first, second] = await Promise.all([g.geocode(address), g.geocode(address)]);
    await g.geocode(parseAddress("10 Center Street, Carroll, Ohio 43112"));
    expect(first).toEqual(second);
    expect(first).toMatchObject({ kind: "match", county: { geoid: "39045" }, place: { geoid: "3912252" } });
    expect(fake.requests.length - before).toBe(1);
  });
});

describe("failures: one retry on a network error, a timeout, then the circuit opens", () => {
  it("retries once after a network error and succeeds", async () => {
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      calls++;
      if (calls === 1) throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
      return fetch(input, init);
    };
    const outcome = await geocoder({ fetch: flaky }).geocode(parseAddress(oneLine("rossford")));
    expect(outcome.kind).toBe("match");
    expect(calls).toBe(2);
  });

  it("reports an upstream that does not answer in time as unavailable", async () => {
    const hanging = await startFakeCensusGeocoder();
    hanging.setMode("hang");
    try {
      const outcome = await geocoder({ baseUrl: hanging.url, timeoutMs: 100 }).geocode(parseAddress(oneLine("rossford")));
      expect(outcome).toMatchObject({ kind: "unavailable", reason: "the geocoder did not answer within 100 ms" });
    } finally {
      await hanging.close();
    }
  });

  it("opens after the threshold, refuses at once while open, lets one trial through after the cooldown", async () => {
    let now = 1_000_000;
    let calls = 0;
    let up = false;
    const upstream: typeof fetch = async (input, init) => {
      calls++;
      if (!up) throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
      return fetch(input, init);
    };
    const g = geocoder({ fetch: upstream, failureThreshold: 2, cooldownMs: 30_000, now: () => now });
    for (const street of ["1 A St", "2 B St"]) {
      expect(await g.geocode(parseAddress(`${street}, Carroll, OH 43112`))).toMatchObject({ kind: "unavailable", reason: "the geocoder could not be reached (ECONNREFUSED)" });
    }
    expect(calls).toBe(4);
    expect(g.breaker.state).toBe("open");
    expect(await g.geocode(parseAddress(oneLine("carroll")))).toMatchObject({ kind: "unavailable", retryAfterSeconds: 30 });
    expect(calls).toBe(4);

    now += 30_000;
    up = true;
    expect(g.breaker.state).toBe("half-open");
    expect((await g.geocode(parseAddress(oneLine("carroll")))).kind).toBe("match");
    expect(g.breaker.state).toBe("closed");
  });

  it("a failed trial in half-open state opens the circuit for another cooldown", () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 10_000, now: () => now });
    breaker.failed();
    expect(breaker.tryAcquire()).toBe(false);
    now = 10_000;
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.failed();
    expect(breaker.state).toBe("open");
    expect(breaker.retryAfterSeconds()).toBe(10);
  });

  it("never caches an outage", async () => {
    let calls = 0;
    const g = geocoder({
      fetch: async (input, init) => {
        calls++;
        if (calls <= 2) return new Response("busy", { status: 503 });
        return fetch(input, init);
      },
    });
    expect((await g.geocode(parseAddress(oneLine("pataskala")))).kind).toBe("unavailable");
    expect((await g.geocode(parseAddress(oneLine("pataskala")))).kind).toBe("match");
  });
});
