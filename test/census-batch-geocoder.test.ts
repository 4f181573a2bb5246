/**
 * The Census batch geocoder client (src/geo/census-batch-geocoder.ts): the answer's wire format
 * (SYNTHETIC answers written from the documented format, test/fixtures/census/synthetic-answers.ts),
 * requests of at most 10,000 rows, bounded concurrency, retries with backoff, and the typed
 * "unavailable" error. Upstream calls go to the FAKE UPSTREAM (test/fake-census-geocoder.ts) or
 * to an injected fetch in front of it. Hand-written answer rows below are labelled synthetic.
 */
import PQueue from "p-queue";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import {
  BatchGeocoderUnavailableError,
  censusBatchOptions,
  geocodeBatch,
  MalformedBatchAnswer,
  readCensusBatchAnswer,
  type BatchAddress,
  type CensusBatchOptions,
} from "../src/geo/census-batch-geocoder.ts";
import { GeocoderUnavailableError } from "../src/geo/geocoder.ts";
import { FAKE_ADDRESSES, startFakeCensusGeocoder, type FakeAddressName, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { BATCH_GEOGRAPHIES_ANSWER, SYNTHETIC_MATCH } from "./fixtures/census/synthetic-answers.ts";

const fakes: FakeCensusGeocoder[] = [];
async function fake(): Promise<FakeCensusGeocoder> {
  const started = await startFakeCensusGeocoder();
  fakes.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const options = (upstream: FakeCensusGeocoder, more: Partial<CensusBatchOptions> = {}): CensusBatchOptions => ({
  baseUrl: upstream.url,
  timeoutMs: 10_000,
  retryDelayMs: 10,
  ...more,
});

function known(name: FakeAddressName, id: string = name): BatchAddress {
  const a = FAKE_ADDRESSES[name];
  return { id, street: a.street, city: a.city, state: "OH", zip: a.zip };
}

/** Distinct addresses the fake matches ("<n> BENCH ST"), as many as asked. */
const benchAddresses = (count: number): BatchAddress[] =>
  Array.from({ length: count }, (_, n) => ({ id: `row-${n}`, street: `${n} Bench St`, city: "Columbus", state: "OH", zip: "43215" }));

describe("reading the batch answer: Match, No_Match, Tie; Exact/Non_Exact; \"lon,lat\"; state and county FIPS", () => {
  it("reads an answer in the documented format (rows in another order than sent, quoted fields with commas; synthetic)", () => {
    const answers = readCensusBatchAnswer(BATCH_GEOGRAPHIES_ANSWER, new Set(["1", "2", "3"]));
    expect(Object.fromEntries(answers)).toEqual({
      "3": { status: "match", exact: true, lon: SYNTHETIC_MATCH.lon, lat: SYNTHETIC_MATCH.lat, countyFips: "39049", matchedAddress: SYNTHETIC_MATCH.matchedAddress },
      "2": { status: "no_match" },
      "1": { status: "no_match" },
    });
  });

  it("reads Tie, Non_Exact, a quote inside a field, and a match the service gave no geography for (synthetic rows)", () => {
    const synthetic = [
      `"a","100 Main St, , OH, ","Tie"`,
      `"b","1 Sandusky St, Delaware, OH, 43015","Match","Non_Exact","1 N SANDUSKY ST, DELAWARE, OH, 43015","-83.0921,40.31855","1","R","39","041","010100","2001"`,
      `"c","1 ""Capitol"" Sq, Columbus, OH, 43215","Match","Exact","1 CAPITOL SQ, COLUMBUS, OH, 43215","-82.9988,39.9612","2","L","",""`,
    ].join("\r\n");
    expect(Object.fromEntries(readCensusBatchAnswer(synthetic, new Set(["a", "b", "c"])))).toEqual({
      a: { status: "tie" },
      b: { status: "match", exact: false, lon: -83.0921, lat: 40.31855, countyFips: "39041", matchedAddress: "1 N SANDUSKY ST, DELAWARE, OH, 43015" },
      c: { status: "match", exact: true, lon: -82.9988, lat: 39.9612, countyFips: null, matchedAddress: "1 CAPITOL SQ, COLUMBUS, OH, 43215" },
    });
  });

  it.each([
    ["not CSV (an unclosed quote)", `"1","1 A St, X, OH, 43215","No_Match`, /not CSV/],
    ["an unknown status", `"1","1 A St","Maybe"`, /status "Maybe"/],
    ["an id that was not sent", `"9","1 A St","No_Match"`, /id "9" was not sent/],
    ["an id answered twice", `"1","1 A St","No_Match"\n"1","1 A St","No_Match"`, /answered twice/],
    ["a row missing", ``, /1 of the 1 rows sent are not answered/],
    ["coordinates that are not \"lon,lat\"", `"1","1 A St","Match","Exact","1 A ST","-82.9988","1","L","39","049"`, /not "lon,lat"/],
    ["a match type that is neither Exact nor Non_Exact", `"1","1 A St","Match","Close","1 A ST","-82.9,39.9","1","L","39","049"`, /neither Exact/],
    ["a county FIPS that is not 3 digits", `"1","1 A St","Match","Exact","1 A ST","-82.9,39.9","1","L","39","49"`, /FIPS/],
    ["an HTML error page", `<html><body>An error has occurred</body></html>`, /was not sent/],
  ])("refuses an answer with %s (synthetic)", (_, text, message) => {
    expect(() => readCensusBatchAnswer(text, new Set(["1"]))).toThrow(MalformedBatchAnswer);
    expect(() => readCensusBatchAnswer(text, new Set(["1"]))).toThrow(message);
  });
});

describe("requests: at most 10,000 rows each, one row per distinct address, bounded concurrency", () => {
  it("sends 25,000 distinct addresses as 10,000 + 10,000 + 5,000 rows, and answers every id", async () => {
    const upstream = await fake();
    const addresses = benchAddresses(25_000);
    const answers = await geocodeBatch(addresses, options(upstream));
    expect(upstream.batchRequests.map((r) => r.rows.length)).toEqual([10_000, 10_000, 5_000]);
    expect(answers.size).toBe(25_000);
    expect([...answers.values()].every((a) => a.status === "match" && a.countyFips?.startsWith("39"))).toBe(true);
  });

  it("sends each distinct address once, however many ids ask for it", async () => {
    const upstream = await fake();
    const addresses = [known("statehouse", "a"), { ...known("statehouse", "b"), street: " 1  capitol sq " }, known("carroll", "c"), known("statehouse", "d")];
    const answers = await geocodeBatch(addresses, options(upstream));
    expect(upstream.batchRequests).toHaveLength(1);
    expect(upstream.batchRequests[0]!.rows).toHaveLength(2);
    expect(answers.get("b")).toEqual(answers.get("a"));
    expect(answers.get("d")).toEqual(answers.get("a"));
    expect(answers.get("c")).toMatchObject({ status: "match", countyFips: "39045" });
  });

  it("makes no request for no addresses", async () => {
    const upstream = await fake();
    expect((await geocodeBatch([], options(upstream))).size).toBe(0);
    expect(upstream.requests).toHaveLength(0);
  });

  it("honours a smaller rowsPerRequest, refuses one above 10,000 and a concurrency of 0", async () => {
    const upstream = await fake();
    await geocodeBatch(benchAddresses(2_500), options(upstream, { rowsPerRequest: 1_000 }));
    expect(upstream.batchRequests.map((r) => r.rows.length)).toEqual([1_000, 1_000, 500]);
    await expect(geocodeBatch(benchAddresses(1), options(upstream, { rowsPerRequest: 10_001 }))).rejects.toThrow(RangeError);
    await expect(geocodeBatch(benchAddresses(1), options(upstream, { concurrency: 0 }))).rejects.toThrow(/concurrency must be/);
  });

  it("has at most `concurrency` requests in flight", async () => {
    const upstream = await fake();
    upstream.setMode("hold");
    const pending = geocodeBatch(benchAddresses(50), options(upstream, { rowsPerRequest: 10, concurrency: 2 }));
    await expect.poll(() => upstream.requests.length).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(upstream.requests).toHaveLength(2);
    upstream.release();
    expect((await pending).size).toBe(50);
    expect(upstream.batchRequests).toHaveLength(5);
  });

  it("calls sharing `permits` have at most its concurrency in flight together, a higher `priority` first in line", async () => {
    const upstream = await fake();
    upstream.setMode("hold");
    const permits = new PQueue({ concurrency: 2 });
    const jobs = [0, 1, 2].map((n) => geocodeBatch(benchAddresses(20).map((a) => ({ ...a, street: `${n}0${a.street}` })), options(upstream, { rowsPerRequest: 10, concurrency: 2, permits })));
    await expect.poll(() => upstream.batchesInFlight).toBe(2);
    const inline = geocodeBatch([known("statehouse")], options(upstream, { permits, priority: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(upstream.batchesInFlight).toBe(2);
    upstream.release();
    await Promise.all([...jobs, inline]);
    expect(upstream.peakBatchesInFlight).toBe(2);
    // The two held requests were answered first; the one-row call went with the next two, before the last three of the jobs.
    expect(upstream.batchRequests.findIndex((request) => request.rows.length === 1)).toBeLessThan(4);
  });

  it("`deadlineMs` covers the wait for a permit: the call gives up with what it has, the queued request never sent", async () => {
    const upstream = await fake();
    upstream.failBatches(1, "hang");
    const permits = new PQueue({ concurrency: 1 });
    const hanging = geocodeBatch(benchAddresses(1), options(upstream, { permits, retries: 0 }));
    await expect.poll(() => upstream.batchesInFlight).toBe(1);
    const failure = await geocodeBatch([known("statehouse")], options(upstream, { permits, deadlineMs: 200 })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchGeocoderUnavailableError);
    expect((failure as BatchGeocoderUnavailableError).reason).toBe("the geocoder did not answer 1 of 1 addresses within 200 ms");
    expect(upstream.batchRequests).toHaveLength(1);
    expect(permits.size).toBe(0);
    await upstream.close();
    await hanging.catch(() => {});
  });

  it("`deadlineMs` stops a request in flight, and a retry whose backoff would pass it is not tried", async () => {
    const upstream = await fake();
    upstream.failBatches(1, "hang");
    const hung = await geocodeBatch(benchAddresses(3), options(upstream, { deadlineMs: 300, retries: 1 })).catch((error: unknown) => error);
    expect(hung).toBeInstanceOf(BatchGeocoderUnavailableError);
    await expect.poll(() => upstream.batchRequests[0]!.abandoned).toBe(true);
    upstream.failBatches(1, "http-500");
    const refused = await geocodeBatch(benchAddresses(3), options(upstream, { deadlineMs: 1_000, retryDelayMs: 5_000, retries: 1 })).catch((error: unknown) => error);
    expect((refused as BatchGeocoderUnavailableError).reason).toBe("the geocoder answered a batch request with HTTP 500 (1 attempt)");
    expect(upstream.batchRequests).toHaveLength(2);
  });

  it("refuses an id given twice", async () => {
    const upstream = await fake();
    await expect(geocodeBatch([known("statehouse", "x"), known("carroll", "x")], options(upstream))).rejects.toThrow(/given twice/);
  });
});

describe("through the wire: the fake upstream's Match / No_Match / Tie, coordinates in the right order", () => {
  it("answers Exact and Non_Exact matches with lat/lon from \"lon,lat\", ties, and no-matches", async () => {
    const upstream = await fake();
    const answers = await geocodeBatch(
      [
        known("statehouse"),
        { id: "non-exact", street: "100 Main St", city: "Pataskala", state: "OH", zip: "43062" },
        { id: "tie", street: "100 Main St", state: "OH" },
        { id: "unknown", street: "1 Nowhere Ln", city: "Columbus", state: "OH", zip: "43215" },
      ],
      options(upstream),
    );
    const statehouse = FAKE_ADDRESSES.statehouse;
    expect(answers.get("statehouse")).toEqual({
      status: "match", exact: true, lat: statehouse.lat, lon: statehouse.lon, countyFips: "39049", matchedAddress: "1 CAPITOL SQ, COLUMBUS, OH, 43215",
    });
    expect(answers.get("non-exact")).toEqual({
      status: "match", exact: false, lat: FAKE_ADDRESSES.pataskala.lat, lon: FAKE_ADDRESSES.pataskala.lon, countyFips: "39089", matchedAddress: "100 S MAIN ST, PATASKALA, OH, 43062",
    });
    expect(answers.get("tie")).toEqual({ status: "tie" });
    expect(answers.get("unknown")).toEqual({ status: "no_match" });
  });

  it("uploads commas and quotes inside a field intact, with the documented benchmark and vintage", async () => {
    const upstream = await fake();
    const seen: FormData[] = [];
    // The upload goes out as bytes with its multipart content type; read back, it is the form the service expects.
    const spy: typeof fetch = async (input, init) => {
      seen.push(await new Request(input, init).formData());
      return fetch(input, init);
    };
    const street = `1 Capitol Sq, "Suite 5"`;
    const answers = await geocodeBatch([{ id: "q", street, city: "Columbus", state: "OH", zip: "43215" }], options(upstream, { fetch: spy }));
    expect(upstream.batchRequests[0]!.rows).toEqual([["0", street, "Columbus", "OH", "43215"]]);
    expect(answers.get("q")).toEqual({ status: "no_match" });
    expect(seen[0]!.get("benchmark")).toBe("Public_AR_Current");
    expect(seen[0]!.get("vintage")).toBe("Current_Current");
  });
});

describe("retries: a failed request (network error, timeout, 5xx, malformed answer) is sent again with backoff", () => {
  it.each(["http-500", "disconnect", "malformed"] as const)("retries after %s and succeeds", async (how) => {
    const upstream = await fake();
    upstream.failBatches(2, how);
    const answers = await geocodeBatch([known("statehouse"), known("rossford")], options(upstream));
    expect(upstream.batchRequests.map((r) => r.answer)).toEqual([how, how, "csv"]);
    expect(answers.get("rossford")).toMatchObject({ status: "match", countyFips: "39173" });
  });

  it("retries a request that gets no answer within the timeout", async () => {
    const upstream = await fake();
    upstream.failBatches(1, "hang");
    const answers = await geocodeBatch([known("carroll")], options(upstream, { timeoutMs: 300 }));
    expect(upstream.batchRequests.map((r) => r.answer)).toEqual(["hang", "csv"]);
    expect(answers.get("carroll")).toMatchObject({ status: "match" });
  });

  it("waits longer before each retry (the delay doubles)", async () => {
    const upstream = await fake();
    upstream.failBatches(3);
    const started = performance.now();
    await geocodeBatch([known("carroll")], options(upstream, { retryDelayMs: 100, retries: 3 }));
    // Jittered waits of at least 50, 100 and 200 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(350);
    expect(upstream.batchRequests).toHaveLength(4);
  });

  it("waits as long as the upstream's Retry-After says when that is longer", async () => {
    const upstream = await fake();
    let calls = 0;
    const busyOnce: typeof fetch = async (input, init) => (++calls === 1 ? new Response("busy", { status: 503, headers: { "retry-after": "1" } }) : fetch(input, init));
    const started = performance.now();
    await geocodeBatch([known("carroll")], options(upstream, { fetch: busyOnce }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
    expect(calls).toBe(2);
  });

  it("does not retry a refusal of the request itself (HTTP 4xx)", async () => {
    const upstream = await fake();
    const failure = await geocodeBatch([known("carroll")], options(upstream, { benchmark: "" })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GeocoderUnavailableError);
    expect((failure as GeocoderUnavailableError).reason).toMatch(/refused a batch request with HTTP 400: benchmark required \(1 attempt\)/);
    expect(upstream.batchRequests.map((r) => r.answer)).toEqual(["refused"]);
  });
});

describe("upstream down: a GeocoderUnavailableError after the retries, the other requests stopped", () => {
  it("throws the typed unavailable error after 1 + `retries` attempts of HTTP 500", async () => {
    const upstream = await fake();
    upstream.setMode("error");
    const failure = await geocodeBatch([known("carroll")], options(upstream, { retries: 2 })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchGeocoderUnavailableError);
    expect(failure).toBeInstanceOf(GeocoderUnavailableError);
    expect(failure).toMatchObject({ reason: "the geocoder answered a batch request with HTTP 500 (3 attempts)", retryAfterSeconds: 30 });
    expect(upstream.batchRequests).toHaveLength(3);
  });

  it("names the network error when the upstream cannot be reached", async () => {
    const upstream = await fake();
    const closedUrl = upstream.url;
    await upstream.close();
    fakes.splice(0);
    await expect(geocodeBatch([{ id: "1", street: "1 A St" }], { baseUrl: closedUrl, timeoutMs: 1000, retries: 1, retryDelayMs: 10 })).rejects.toMatchObject({
      reason: "the geocoder could not be reached (ECONNREFUSED) (2 attempts)",
    });
  });

  it("keeps a malformed answer out of the results and reports it when it persists", async () => {
    const upstream = await fake();
    upstream.failBatches(2, "malformed");
    const failure = await geocodeBatch([known("carroll")], options(upstream, { retries: 1 })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchGeocoderUnavailableError);
    expect((failure as GeocoderUnavailableError).reason).toMatch(/^the geocoder's batch answer is malformed: row 1: id "<html>.*" was not sent \(2 attempts\)$/);
    expect((failure as BatchGeocoderUnavailableError).partial.size).toBe(0);
  });

  it("stops sending the remaining requests and hands back what was answered before", async () => {
    const upstream = await fake();
    let calls = 0;
    const downAfterFirst: typeof fetch = async (input, init) => {
      calls++;
      if (calls > 1) throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
      return fetch(input, init);
    };
    const failure = await geocodeBatch(benchAddresses(30), options(upstream, { fetch: downAfterFirst, rowsPerRequest: 10, concurrency: 1, retries: 2 })).catch((error: unknown) => error);
    expect(failure).toMatchObject({ reason: "the geocoder could not be reached (ECONNRESET) (3 attempts)" });
    // The first request, then the second three times; the third is never sent.
    expect(calls).toBe(4);
    const partial = (failure as BatchGeocoderUnavailableError).partial;
    expect([...partial.keys()].sort()).toEqual(benchAddresses(10).map((a) => a.id).sort());
  });

  it("rejects with the caller's abort reason, not as unavailable, when the caller gives up", async () => {
    const upstream = await fake();
    upstream.setMode("hold");
    const controller = new AbortController();
    const pending = geocodeBatch([known("carroll")], options(upstream, { signal: controller.signal }));
    await expect.poll(() => upstream.requests.length).toBe(1);
    controller.abort(new Error("job cancelled"));
    await expect(pending).rejects.toThrow("job cancelled");
  });
});

describe("configuration: GEOCODER_BATCH_* with CENSUS_GEOCODER_URL", () => {
  it("defaults to 10,000 rows a request, 4 in flight, 10 minutes each, 3 retries", () => {
    expect(censusBatchOptions(loadConfig({}).geocoder)).toEqual({
      baseUrl: "https://geocoding.geo.census.gov", rowsPerRequest: 10_000, concurrency: 4, timeoutMs: 600_000, retries: 3,
    });
  });

  it("refuses more than 10,000 rows a request", () => {
    expect(() => loadConfig({ GEOCODER_BATCH_ROWS: "10001" })).toThrow(/GEOCODER_BATCH_ROWS/);
  });
});
