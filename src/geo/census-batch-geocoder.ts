/**
 * The Census Geocoder's batch endpoint (`POST /geocoder/geographies/addressbatch`): a CSV of up to
 * 10,000 addresses uploaded as multipart/form-data, answered by a CSV with one row per address.
 * Used for the batch rows the state's boundary file cannot resolve, so 100,000 addresses cost ten
 * upstream requests instead of 100,000 calls.
 *
 * Wire format (the fake in test/fake-census-geocoder.ts answers the same way):
 * - request rows `id,street,city,state,zip`, no header; fields `addressFile` (the file), `benchmark`, `vintage`;
 * - answer rows, every field quoted, in any order: `id, input, Match|No_Match|Tie`, and for a match
 *   `Exact|Non_Exact, matched address, "lon,lat", TIGER line id, side, state FIPS, county FIPS, tract, block`.
 *
 * Identical addresses are sent once. Each request is retried with exponential backoff on a network
 * error, a timeout, HTTP 429 or 5xx, or an answer that is not that CSV; when one request still fails,
 * the others are stopped and a GeocoderUnavailableError carries what was already geocoded.
 *
 * Every attempt holds one of the process's permits while it is in flight (`permits`, one queue of
 * GEOCODER_BATCH_CONCURRENCY shared by jobs and inline lists), so the number of callers never
 * multiplies the requests the upstream sees; with Redis it also holds one of the slots all instances
 * share (`slots`), so neither does the number of instances. A caller with a client waiting sets a `deadlineMs`
 * over the whole call, the wait for a permit included.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { parse } from "csv-parse/sync";
import type PQueue from "p-queue";
import type { GeocoderConfig } from "../config.ts";
import { CENSUS_QUERY } from "./census-geocoder.ts";
import { GeocoderUnavailableError } from "./geocoder.ts";

/** The documented upper limit of records in one batch file. */
export const CENSUS_BATCH_MAX_ROWS = 10_000;

export const CENSUS_BATCH_PATH = "/geocoder/geographies/addressbatch";

/** One address to geocode; `id` names it in the answer. Without `state` the service searches every state. */
export interface BatchAddress {
  readonly id: string;
  readonly street: string;
  readonly city?: string;
  readonly state?: string;
  readonly zip?: string;
}

export type BatchGeocode =
  | {
      readonly status: "match";
      readonly lat: number;
      readonly lon: number;
      /** State + county FIPS ("39049") from the answer's geography columns; null when the service gave none. */
      readonly countyFips: string | null;
      readonly matchedAddress: string;
      /** false for the service's `Non_Exact`: it matched after changing part of the address. */
      readonly exact: boolean;
    }
  | { readonly status: "no_match" | "tie" };

export interface CensusBatchOptions {
  /** The service root, as for the single-address client (CENSUS_GEOCODER_URL). */
  readonly baseUrl: string;
  /** How long one request may take before it counts as failed (a 10,000-row request takes the real service minutes). */
  readonly timeoutMs: number;
  /** Rows per request, at most CENSUS_BATCH_MAX_ROWS. */
  readonly rowsPerRequest?: number;
  /** Requests of this call in flight at once. */
  readonly concurrency?: number;
  /**
   * Shared by every call in the process: each attempt runs as one of its tasks, so its concurrency
   * caps the requests in flight across calls. Without it only `concurrency` caps this call's.
   */
  readonly permits?: PQueue;
  /**
   * Shared with other instances (redis-batch-slots.ts): an attempt that has its permit also waits
   * for one of these before it is sent, and gives it back when done. Without it the permits alone cap.
   */
  readonly slots?: BatchSlots;
  /** Where this call's attempts queue among others for a permit: higher goes first. */
  readonly priority?: number;
  /**
   * The whole call, waits for a permit and backoffs included: when it passes, the requests still in
   * flight are stopped and the call gives up as after a failed request (what was answered is kept).
   */
  readonly deadlineMs?: number;
  /** Further attempts of a failed request. */
  readonly retries?: number;
  /** The first backoff; it doubles with each retry (with jitter), or follows the upstream's Retry-After when longer. */
  readonly retryDelayMs?: number;
  readonly benchmark?: string;
  readonly vintage?: string;
  /** Stops all requests; geocodeBatch then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Replaces the HTTP client (tests inject failures through it). */
  readonly fetch?: typeof fetch;
  /** Told before each backoff, so whoever waits on the call can say what it is waiting for. */
  readonly onRetry?: (retry: BatchRetry) => void;
}

/** Slots for batch requests that other instances draw from too; `acquire` resolves with the slot's release, or rejects with `signal`'s reason. */
export interface BatchSlots {
  acquire(signal: AbortSignal): Promise<() => Promise<void>>;
}

/** A failed request about to be tried again: why it failed, which retry comes next, and when. */
export interface BatchRetry {
  readonly reason: string;
  readonly retry: number;
  readonly retries: number;
  readonly at: number;
}

/** The options the service configuration gives (GEOCODER_BATCH_* and CENSUS_GEOCODER_URL). */
export function censusBatchOptions(config: GeocoderConfig): CensusBatchOptions {
  return {
    baseUrl: config.censusUrl,
    timeoutMs: config.batch.timeoutMs,
    rowsPerRequest: config.batch.rowsPerRequest,
    concurrency: config.batch.concurrency,
    retries: config.batch.retries,
  };
}

/** The upstream stayed down; `partial` holds the answers of the requests that succeeded before it gave up. */
export class BatchGeocoderUnavailableError extends GeocoderUnavailableError {
  constructor(
    reason: string,
    retryAfterSeconds: number,
    readonly partial: ReadonlyMap<string, BatchGeocode>,
    options?: ErrorOptions,
  ) {
    super(reason, retryAfterSeconds, options);
  }
}

/** One failed attempt; `retryAfterMs` is the upstream's Retry-After, when it sent one. */
class AttemptFailed extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** An answer that is not the batch CSV for the rows sent. */
export class MalformedBatchAnswer extends Error {}

/** Without a Retry-After from the upstream, callers are told to come back after this long (as the single client's default). */
const DEFAULT_RETRY_AFTER_SECONDS = 30;
const MAX_BACKOFF_MS = 5 * 60_000;

const squash = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** A CSV field, quoted only when it must be (as Python's csv module writes it, which the service reads). */
function csvField(text: string): string {
  return /[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The request file for rows numbered from `firstId`: one line per address, no header. */
export function batchRequestFile(rows: readonly BatchAddress[], firstId: number): string {
  return rows
    .map((row, i) => [String(firstId + i), row.street, row.city, row.state, row.zip].map((field) => csvField(squash(field))).join(",") + "\n")
    .join("");
}

const MATCH_TYPES = { Exact: true, Non_Exact: false } as const;

/** A field quoted for an error message, cut short: a wrong answer may be a whole HTML page in one field. */
const shown = (field: string | undefined) => (field === undefined ? "nothing" : JSON.stringify(field.length > 60 ? `${field.slice(0, 60)}…` : field));

function readMatch(row: string[], line: number): BatchGeocode {
  const [, , , matchType, matchedAddress, coordinates, , , stateFips, countyFips] = row;
  const fail = (why: string) => new MalformedBatchAnswer(`row ${line}: ${why}`);
  if (matchType !== "Exact" && matchType !== "Non_Exact") throw fail(`match type ${shown(matchType)} is neither Exact nor Non_Exact`);
  // The service writes "lon,lat" (x first) in one quoted field.
  const numbers = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(coordinates ?? "");
  const lon = Number(numbers?.[1]);
  const lat = Number(numbers?.[2]);
  if (!numbers || Math.abs(lon) > 180 || Math.abs(lat) > 90) throw fail(`coordinates ${shown(coordinates)} are not "lon,lat"`);
  let county: string | null = null;
  if (stateFips || countyFips) {
    if (!/^\d{2}$/.test(stateFips ?? "") || !/^\d{3}$/.test(countyFips ?? "")) throw fail(`state/county FIPS ${shown(stateFips)} and ${shown(countyFips)} are not 2 and 3 digits`);
    county = `${stateFips}${countyFips}`;
  }
  return { status: "match", lat, lon, countyFips: county, matchedAddress: matchedAddress ?? "", exact: MATCH_TYPES[matchType] };
}

/**
 * Reads a batch answer: one geocode per id in `sentIds`, keyed by id. Anything else (not CSV, an
 * unknown status, bad coordinates, an id that was not sent or is answered twice, a row missing)
 * throws MalformedBatchAnswer: a partly understood answer is not trusted for any row.
 */
export function readCensusBatchAnswer(text: string, sentIds: ReadonlySet<string>): Map<string, BatchGeocode> {
  let rows: string[][];
  try {
    rows = parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true });
  } catch (error) {
    throw new MalformedBatchAnswer(`the answer is not CSV (${(error as Error).message})`);
  }
  const answers = new Map<string, BatchGeocode>();
  rows.forEach((row, index) => {
    const line = index + 1;
    const [id, , status] = row;
    if (id === undefined || !sentIds.has(id)) throw new MalformedBatchAnswer(`row ${line}: id ${shown(id)} was not sent`);
    if (answers.has(id)) throw new MalformedBatchAnswer(`row ${line}: id ${shown(id)} is answered twice`);
    if (status === "Match") answers.set(id, readMatch(row, line));
    else if (status === "No_Match") answers.set(id, { status: "no_match" });
    else if (status === "Tie") answers.set(id, { status: "tie" });
    else throw new MalformedBatchAnswer(`row ${line}: status ${shown(status)} is not Match, No_Match or Tie`);
  });
  if (answers.size !== sentIds.size) throw new MalformedBatchAnswer(`${sentIds.size - answers.size} of the ${sentIds.size} rows sent are not answered`);
  return answers;
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The rows of one upstream request; their wire ids count on from `firstId` across the whole batch. */
interface RequestRows {
  readonly rows: readonly BatchAddress[];
  readonly firstId: number;
}

interface Upstream {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly benchmark: string;
  readonly vintage: string;
  readonly fetch: typeof fetch;
}

/**
 * The multipart upload as bytes, with its content type (boundary included). Handed a FormData,
 * fetch writes the body from a stream that nothing awaits; when the request fails before the
 * body is written (a port fetch refuses, a scheme it does not speak, a redirect to either) and
 * the attempt is then aborted, that writer enqueues into the closed stream and the TypeError
 * ends the process (nodejs/undici#4791, nodejs/undici#5835). Bytes have no writer to outlive the request, and a
 * 307 can send them again.
 */
async function uploadOf(request: RequestRows, upstream: Upstream): Promise<{ body: ArrayBuffer; contentType: string }> {
  const form = new FormData();
  form.append("addressFile", new Blob([batchRequestFile(request.rows, request.firstId)], { type: "text/csv" }), "addresses.csv");
  form.append("benchmark", upstream.benchmark);
  form.append("vintage", upstream.vintage);
  const encoded = new Response(form);
  return { body: await encoded.arrayBuffer(), contentType: encoded.headers.get("content-type")! };
}

async function sendOnce(request: RequestRows, upstream: Upstream, stop: AbortSignal): Promise<Map<string, BatchGeocode>> {
  const { body, contentType } = await uploadOf(request, upstream);
  const timeout = AbortSignal.timeout(upstream.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await upstream.fetch(`${upstream.baseUrl}${CENSUS_BATCH_PATH}`, {
      method: "POST",
      body,
      headers: { "content-type": contentType },
      signal: AbortSignal.any([stop, timeout]),
    });
    text = await response.text();
  } catch (error) {
    if (stop.aborted) throw stop.reason;
    if (timeout.aborted) throw new AttemptFailed(`a batch request of ${request.rows.length} rows got no answer within ${upstream.timeoutMs} ms`, true);
    const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    throw new AttemptFailed(`the geocoder could not be reached${code ? ` (${code})` : ""}`, true);
  }
  if (response.status === 429 || response.status >= 500) {
    throw new AttemptFailed(`the geocoder answered a batch request with HTTP ${response.status}`, true, retryAfterMs(response.headers.get("retry-after")));
  }
  // Any other refusal is about the request itself, which a second try would not change.
  if (response.status < 200 || response.status > 299) throw new AttemptFailed(`the geocoder refused a batch request with HTTP ${response.status}: ${squash(text).slice(0, 200)}`, false);
  const sent = new Set(request.rows.map((_, i) => String(request.firstId + i)));
  try {
    return readCensusBatchAnswer(text, sent);
  } catch (error) {
    if (!(error instanceof MalformedBatchAnswer)) throw error;
    // Treated as a fault of the upstream, like a 5xx: worth another try, and never half-used.
    throw new AttemptFailed(`the geocoder's batch answer is malformed: ${error.message}`, true);
  }
}

/** A request that failed on its last allowed attempt. */
class GaveUp extends Error {
  constructor(
    readonly last: AttemptFailed,
    readonly attempts: number,
  ) {
    super(last.message);
  }
}

/**
 * Geocodes any number of addresses with as few upstream requests as possible (at most
 * `rowsPerRequest` rows each, `concurrency` at a time), answering by id. Throws a
 * BatchGeocoderUnavailableError when a request still fails after its retries; the other
 * requests are stopped at once.
 */
export async function geocodeBatch(addresses: readonly BatchAddress[], options: CensusBatchOptions): Promise<Map<string, BatchGeocode>> {
  const { rowsPerRequest = CENSUS_BATCH_MAX_ROWS, concurrency = 4, retries = 3, retryDelayMs = 2000 } = options;
  const within = (name: string, value: number, min: number, max: number) => {
    if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer from ${min} to ${max}, not ${value}`);
  };
  within("rowsPerRequest", rowsPerRequest, 1, CENSUS_BATCH_MAX_ROWS);
  within("concurrency", concurrency, 1, 1000);
  within("retries", retries, 0, 100);
  const upstream: Upstream = {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    timeoutMs: options.timeoutMs,
    benchmark: options.benchmark ?? CENSUS_QUERY.benchmark,
    vintage: options.vintage ?? CENSUS_QUERY.vintage,
    fetch: options.fetch ?? fetch,
  };

  // One row per distinct address; every id asking for it shares the answer.
  const idsByAddress = new Map<string, string[]>();
  const unique: BatchAddress[] = [];
  const seenIds = new Set<string>();
  for (const address of addresses) {
    if (seenIds.has(address.id)) throw new TypeError(`address id ${JSON.stringify(address.id)} is given twice`);
    seenIds.add(address.id);
    const key = [address.street, address.city, address.state, address.zip].map((field) => squash(field).toUpperCase()).join("|");
    const ids = idsByAddress.get(key);
    if (ids) ids.push(address.id);
    else {
      idsByAddress.set(key, [address.id]);
      unique.push(address);
    }
  }
  const idsOfRow = [...idsByAddress.values()];
  const requests: RequestRows[] = [];
  for (let first = 0; first < unique.length; first += rowsPerRequest) requests.push({ rows: unique.slice(first, first + rowsPerRequest), firstId: first });

  const results = new Map<string, BatchGeocode>();
  const stopping = new AbortController();
  const deadlineAt = options.deadlineMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.deadlineMs;
  const deadline = options.deadlineMs === undefined ? null : AbortSignal.timeout(options.deadlineMs);
  const stop = AbortSignal.any([stopping.signal, ...(options.signal ? [options.signal] : []), ...(deadline ? [deadline] : [])]);
  const { permits, slots, priority = 0 } = options;
  const send = async (request: RequestRows) => {
    if (!slots) return sendOnce(request, upstream, stop);
    const release = await slots.acquire(stop);
    try {
      return await sendOnce(request, upstream, stop);
    } finally {
      await release();
    }
  };

  async function run(request: RequestRows): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answers = permits ? await permits.add(() => send(request), { signal: stop, priority }) : await send(request);
        for (const [wireId, geocode] of answers) for (const id of idsOfRow[Number(wireId)]!) results.set(id, geocode);
        return;
      } catch (error) {
        if (!(error instanceof AttemptFailed)) throw error;
        if (!error.retryable || attempt > retries) throw new GaveUp(error, attempt);
        const backoff = retryDelayMs * 2 ** (attempt - 1);
        const jittered = backoff / 2 + Math.random() * (backoff / 2);
        const wait = Math.min(MAX_BACKOFF_MS, Math.max(jittered, error.retryAfterMs ?? 0));
        // A retry that could only start after the deadline is not waited for.
        if (Date.now() + wait >= deadlineAt) throw new GaveUp(error, attempt);
        options.onRetry?.({ reason: error.message, retry: attempt, retries, at: Date.now() + wait });
        await sleep(wait, undefined, { signal: stop });
      }
    }
  }

  let failure: unknown;
  let next = 0;
  async function runner(): Promise<void> {
    while (next < requests.length && !stop.aborted) {
      const request = requests[next++]!;
      try {
        await run(request);
      } catch (error) {
        // The first failure stops every other request; what they throw then is only its echo.
        if (!stop.aborted) {
          failure = error;
          stopping.abort(error);
        }
        return;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, runner));

  if (options.signal?.aborted) throw options.signal.reason;
  if (failure instanceof GaveUp) {
    const { last, attempts } = failure;
    const retryAfterSeconds = Math.max(1, Math.ceil((last.retryAfterMs ?? DEFAULT_RETRY_AFTER_SECONDS * 1000) / 1000));
    throw new BatchGeocoderUnavailableError(`${last.message} (${attempts} attempt${attempts === 1 ? "" : "s"})`, retryAfterSeconds, results, { cause: last });
  }
  if (failure !== undefined) throw failure;
  if (deadline?.aborted && results.size < seenIds.size) {
    const left = seenIds.size - results.size;
    throw new BatchGeocoderUnavailableError(`the geocoder did not answer ${left} of ${seenIds.size} addresses within ${options.deadlineMs} ms`, DEFAULT_RETRY_AFTER_SECONDS, results);
  }
  return results;
}
