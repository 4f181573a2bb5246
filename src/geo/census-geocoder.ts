/**
 * The `census` geocoder provider: the US Census Bureau's Geocoder
 * (https://geocoding.geo.census.gov/geocoder/Geocoding_Services_API.html), asked for geographies
 * so one call returns the coordinates and the Bureau's current county and incorporated place.
 *
 * Around the HTTP call: a timeout, one retry on a network error or a 5xx, an LRU cache keyed by
 * the normalised address, and a circuit breaker, so an outage costs nothing per request while
 * it lasts. Runs on the main thread: the call is I/O, which the worker pool would not speed up.
 */
import http from "node:http";
import https from "node:https";
import { LRUCache } from "lru-cache";
import type { ParsedAddress } from "./address.ts";
import { geocoderRequests, geocoderSeconds } from "../metrics.ts";
import { CircuitBreaker } from "./circuit-breaker.ts";
import type { GeocodeOutcome, GeocodedArea, Geocoder } from "./geocoder.ts";

export interface CensusGeocoderOptions {
  baseUrl: string;
  timeoutMs: number;
  cacheSize: number;
  failureThreshold: number;
  cooldownMs: number;
  /** Open connections kept to the upstream; the batch pipeline's concurrency is a good value. */
  maxSockets?: number;
  /** Replaces the HTTP client (tests inject failures through it). */
  fetch?: typeof fetch;
  now?: () => number;
}

interface UpstreamResponse {
  status: number;
  text: string;
}

type HttpGet = (url: string, signal: AbortSignal) => Promise<UpstreamResponse>;

/**
 * GET over node:http(s) with keep-alive connections. A batch makes thousands of calls, and each
 * costs less CPU this way than through the built-in fetch (still so on Node 24).
 */
function keepAliveGet(maxSockets: number): HttpGet {
  const agents = { "http:": new http.Agent({ keepAlive: true, maxSockets }), "https:": new https.Agent({ keepAlive: true, maxSockets }) };
  return (url, signal) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const client = target.protocol === "https:" ? https : http;
      const request = client.get(target, { agent: agents[target.protocol as "http:" | "https:"], signal, headers: { accept: "application/json" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      });
      request.on("error", reject);
    });
}

function fetchGet(fetchImpl: typeof fetch): HttpGet {
  return async (url, signal) => {
    const response = await fetchImpl(url, { headers: { accept: "application/json" }, signal });
    return { status: response.status, text: await response.text() };
  };
}

/** The benchmark and vintage the issue names: current address ranges, current boundaries. */
export const CENSUS_QUERY = {
  benchmark: "Public_AR_Current",
  vintage: "Current_Current",
  layers: "Counties,Incorporated Places",
  format: "json",
} as const;

class UpstreamError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** The request for an address: the `address` endpoint when street and city or ZIP are known, else one line. */
export function censusRequestUrl(baseUrl: string, address: ParsedAddress): string {
  const params = new URLSearchParams();
  let endpoint: string;
  if (address.street && (address.city || address.zip)) {
    endpoint = "address";
    params.set("street", address.street);
    if (address.city) params.set("city", address.city);
    if (address.state) params.set("state", address.state);
    if (address.zip) params.set("zip", address.zip);
  } else {
    endpoint = "onelineaddress";
    params.set("address", address.oneLine);
  }
  for (const [name, value] of Object.entries(CENSUS_QUERY)) params.set(name, value);
  return `${baseUrl}/geocoder/geographies/${endpoint}?${params}`;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A layer's first feature. Layer names carry vintages in some responses ("2020 Census Blocks"),
 * so they are matched by pattern; a layer that reports `{status: "Layer query encountered an
 * error…"}` instead of features counts as missing, as does a layer that is not there.
 */
function layerArea(geographies: Json, pattern: RegExp): GeocodedArea | null | undefined {
  const name = Object.keys(geographies).find((key) => pattern.test(key));
  const layer = name === undefined ? undefined : geographies[name];
  if (!Array.isArray(layer)) return undefined;
  if (layer.length === 0) return null;
  const feature: unknown = layer[0];
  if (!isObject(feature) || typeof feature["GEOID"] !== "string") return undefined;
  const name_ = typeof feature["NAME"] === "string" ? feature["NAME"] : String(feature["BASENAME"] ?? "");
  return { geoid: feature["GEOID"], name: name_ };
}

/** Reads a geographies response: `result.addressMatches[0]`, or no match when the list is empty. */
export function readCensusResponse(body: unknown): GeocodeOutcome {
  const result = isObject(body) ? body["result"] : undefined;
  const matches = isObject(result) ? result["addressMatches"] : undefined;
  if (!Array.isArray(matches)) throw new UpstreamError("the geocoder answered without result.addressMatches", false);
  const match: unknown = matches[0];
  if (match === undefined) return { kind: "no-match" };
  const coordinates = isObject(match) ? match["coordinates"] : undefined;
  const lon = isObject(coordinates) ? coordinates["x"] : undefined;
  const lat = isObject(coordinates) ? coordinates["y"] : undefined;
  if (!isObject(match) || typeof lon !== "number" || typeof lat !== "number") {
    throw new UpstreamError("the geocoder's match has no coordinates", false);
  }
  const geographies = isObject(match["geographies"]) ? match["geographies"] : {};
  return {
    kind: "match",
    lon,
    lat,
    matchedAddress: String(match["matchedAddress"] ?? ""),
    county: layerArea(geographies, /^Counties$/),
    place: layerArea(geographies, /Incorporated Places$/),
  };
}

export class CensusGeocoder implements Geocoder {
  readonly #options: CensusGeocoderOptions;
  readonly #get: HttpGet;
  readonly #cache: LRUCache<string, GeocodeOutcome>;
  readonly #inFlight = new Map<string, Promise<GeocodeOutcome>>();
  readonly breaker: CircuitBreaker;

  constructor(options: CensusGeocoderOptions) {
    this.#options = options;
    this.#get = options.fetch ? fetchGet(options.fetch) : keepAliveGet(options.maxSockets ?? 64);
    this.#cache = new LRUCache({ max: options.cacheSize });
    this.breaker = new CircuitBreaker({ failureThreshold: options.failureThreshold, cooldownMs: options.cooldownMs, now: options.now });
  }

  async geocode(address: ParsedAddress, signal?: AbortSignal): Promise<GeocodeOutcome> {
    const cached = this.#cache.get(address.key);
    if (cached) return cached;
    // Identical addresses in one batch share a single upstream call.
    const pending = this.#inFlight.get(address.key);
    if (pending) return pending;
    const call = this.#geocodeUncached(address, signal).finally(() => this.#inFlight.delete(address.key));
    this.#inFlight.set(address.key, call);
    return call;
  }

  async #geocodeUncached(address: ParsedAddress, signal?: AbortSignal): Promise<GeocodeOutcome> {
    if (!this.breaker.tryAcquire()) {
      geocoderRequests.inc({ endpoint: "single", outcome: "refused" });
      return { kind: "unavailable", reason: "the geocoder has failed repeatedly; calls are paused", retryAfterSeconds: Math.max(1, this.breaker.retryAfterSeconds()) };
    }
    const url = censusRequestUrl(this.#options.baseUrl, address);
    const timer = geocoderSeconds.startTimer({ endpoint: "single" });
    try {
      let outcome: GeocodeOutcome;
      try {
        outcome = await this.#call(url, signal);
      } catch (error) {
        if (!(error instanceof UpstreamError && error.retryable) || signal?.aborted) throw error;
        outcome = await this.#call(url, signal);
      }
      this.breaker.succeeded();
      timer();
      geocoderRequests.inc({ endpoint: "single", outcome: "ok" });
      this.#cache.set(address.key, outcome);
      return outcome;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      timer();
      geocoderRequests.inc({ endpoint: "single", outcome: "error" });
      this.breaker.failed();
      const reason = error instanceof Error ? error.message : String(error);
      return { kind: "unavailable", reason, retryAfterSeconds: Math.max(1, this.breaker.retryAfterSeconds() || 30) };
    }
  }

  async #call(url: string, signal?: AbortSignal): Promise<GeocodeOutcome> {
    const timeout = AbortSignal.timeout(this.#options.timeoutMs);
    const tooSlow = () => new UpstreamError(`the geocoder did not answer within ${this.#options.timeoutMs} ms`, false);
    let response: UpstreamResponse;
    try {
      response = await this.#get(url, signal ? AbortSignal.any([signal, timeout]) : timeout);
    } catch (error) {
      if (signal?.aborted) throw error;
      if (timeout.aborted) throw tooSlow();
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      throw new UpstreamError(`the geocoder could not be reached${code ? ` (${code})` : ""}`, true);
    }
    if (response.status >= 500) throw new UpstreamError(`the geocoder answered HTTP ${response.status}`, true);
    // The Census Geocoder answers 400 for input it cannot read at all: that address has no match.
    if (response.status === 400) return { kind: "no-match" };
    if (response.status < 200 || response.status > 299) throw new UpstreamError(`the geocoder answered HTTP ${response.status}`, false);
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      throw new UpstreamError("the geocoder answered with something other than JSON", false);
    }
    return readCensusResponse(body);
  }
}
