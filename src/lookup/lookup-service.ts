/**
 * The lookup service: every way a rate is asked for, with one precedence rule (lookup-item.ts
 * `strategyOf`), one ladder (ladder.ts) and one mapping to answers (resolve-item.ts). GET /rates,
 * POST /rates/batch, the batch job runner and `buckeye batch` are thin callers.
 *
 * - answerOne: a single lookup of any kind (GET /rates, behind its body cache), on the answering thread (a thread
 *   round trip would cost more than the microseconds it takes), with the interactive lane of the
 *   pool for point-in-polygon and the single-address geocoder behind its shared queue;
 * - answerMany: an inline list; a short one as answerOne does, a longer one in the batch lane;
 * - resolveChunks: a job's chunks in the batch lane, with the Census batch endpoint (I/O) here (while a
 *   failed request waits to be retried, the caller is told: a stored job's rows say so);
 *   every request to that endpoint, a job's or an inline list's, is made from this thread, so one
 *   queue here (GEOCODER_BATCH_CONCURRENCY) caps them for the whole process;
 *
 * Jobs as stored (admission, submit, find, delete, results) are the batch job service's
 * (src/batch/job-service.ts).
 *
 * So the thread that answers HTTP never parses, probes or evaluates a batch: a long job and a
 * single lookup do not share a thread (docs/guides/address-resolution.md, "Batch jobs").
 */
import PQueue from "p-queue";
import type { BoundaryIndex, ZipSummary } from "../boundaries/boundary-index.interface.ts";
import type { Config } from "../config.ts";
import { errorFields } from "../error-fields.ts";
import { findPolygonFiles } from "../geo/polygon-files.ts";
import { BatchGeocoderUnavailableError, censusBatchOptions, geocodeBatch, type BatchAddress, type BatchGeocode, type BatchRetry, type BatchSlots } from "../geo/census-batch-geocoder.ts";
import { CensusGeocoder } from "../geo/census-geocoder.ts";
import { GeocoderUnavailableError, type GeocodeOutcome } from "../geo/geocoder.ts";
import type { IsoDate } from "../rates/calendar.ts";
import type { RatesOverlay } from "../rates/overlay-periods.ts";
import type { RecordContext } from "../rates/records.ts";
import type { BatchStep, BatchWorkerData, ChunkDone, ChunkWork, Geocoded } from "./chunk-work.ts";
import type { ItemResult, RowResult } from "./item-result.ts";
import { batchOutcomes, complete, settle, type Entry, type LadderParts } from "./ladder.ts";
import { readLookups, type LookupItem } from "./lookup-item.ts";
import { countAnswers } from "./lookup-metrics.ts";
import { batchRows, geocoderRequests, geocoderSeconds } from "../metrics.ts";
import type { ResolverData } from "./resolver-inputs.ts";
import { GeoPool } from "./worker-pool.ts";

export type LookupsConfig = Pick<Config, "geoDataDir" | "workerThreads" | "batchThreads" | "batchThreadHeapMb" | "geocoder">;

/** A job's chunks (those stored, without rows coming back) counted here as the batch lane returns them: a thread's own counters are never scraped. */
function countJobRows(chunks: ChunkDone[]): ChunkDone[] {
  for (const chunk of chunks) {
    if (chunk.output !== undefined) continue;
    batchRows.inc({ outcome: "answered" }, chunk.done - chunk.failed);
    batchRows.inc({ outcome: "failed" }, chunk.failed);
  }
  return chunks;
}

/**
 * Inline lists up to this many lookups are answered on the answering thread, like single ones:
 * a few milliseconds at most. Longer lists go to the batch lane.
 */
export const INLINE_ON_THREAD = 25;

/**
 * Further attempts of an inline list's failed batch request, within GEOCODER_INLINE_BATCH_TIMEOUT_MS
 * (none when GEOCODER_BATCH_RETRIES is 0): one, so a dropped connection or a passing 5xx does not
 * fail a list a client waits on, while a second backoff (4 s or more) would rarely fit and the
 * client has `Retry-After` to try again.
 */
const INLINE_BATCH_RETRIES = 1;

export interface LookupServiceOptions {
  config: LookupsConfig;
  /** Where the batch lane's threads read the state's boundary file; null: no store (no file). */
  databaseUrl: string | null;
  /** The live rate table and ZIP index, and what the table lays over the shipped one: read per call (reconciliation swaps the table). */
  rates: () => ResolverData & { overlay: RatesOverlay };
  /** The shipped table and ZIP index, copied once into each batch thread. */
  shipped: ResolverData;
  /** The state's boundary file, as the answering thread reads it. */
  boundaries: BoundaryIndex | null;
  now: () => Date;
  /** The Census batch slots every instance shares (redis-batch-slots.ts, with REDIS_URL); absent: the permits here cap alone. */
  batchSlots?: BatchSlots;
  log: (entry: Record<string, unknown>) => void;
}

/** What a geocoding step's retries are told to as they come, and that the step is over (a stored job's: src/batch/job-waiting-for.ts). */
export interface GeocoderWaits {
  onRetry(retry: BatchRetry): void;
  clear(): Promise<void>;
}

export interface Answer {
  id: string | null;
  result: ItemResult;
}

export function createGeocoder(config: LookupsConfig): CensusGeocoder {
  return new CensusGeocoder({
    baseUrl: config.geocoder.censusUrl,
    timeoutMs: config.geocoder.timeoutMs,
    cacheSize: config.geocoder.cacheSize,
    failureThreshold: config.geocoder.failureThreshold,
    cooldownMs: config.geocoder.cooldownMs,
    maxSockets: config.geocoder.concurrency,
  });
}

export class LookupService {
  readonly pool: GeoPool;
  readonly geocoder: CensusGeocoder;
  readonly #options: LookupServiceOptions;
  /** Shared by every caller, so the upstream sees at most GEOCODER_CONCURRENCY single calls at once. */
  readonly #geocodeQueue: PQueue;
  readonly #batchOptions: ReturnType<typeof censusBatchOptions>;
  /** Every Census batch request of the process, jobs' and inline lists' alike, holds one of these while in flight. */
  readonly #batchPermits: PQueue;
  #geocoderRetry: BatchRetry | null = null;

  constructor(options: LookupServiceOptions) {
    this.#options = options;
    const { config, log } = options;
    const onError = (error: unknown): void => log({ level: "warn", msg: "worker pool error outside any lookup", ...errorFields(error) });
    const batch: BatchWorkerData = { databaseUrl: options.databaseUrl, shipped: options.shipped };
    this.pool = new GeoPool({
      threads: config.workerThreads,
      batchThreads: config.batchThreads,
      batchHeapMb: config.batchThreadHeapMb,
      batch,
      polygonFiles: findPolygonFiles(config.geoDataDir),
      onError,
    });
    this.geocoder = createGeocoder(config);
    this.#geocodeQueue = new PQueue({ concurrency: config.geocoder.concurrency });
    this.#batchOptions = censusBatchOptions(config.geocoder);
    this.#batchPermits = new PQueue({ concurrency: config.geocoder.batch.concurrency });
  }

  /** The state's boundary file version single lookups answer from now, or null when none is active (or there is no store). */
  boundaryVersion(): Promise<string | null> {
    return this.#options.boundaries?.version() ?? Promise.resolve(null);
  }

  /** What the active boundary file says of a whole ZIP on a date, or null when no file covers it (resolve-zip-file.ts). */
  zipSummary(zip5: string, date: IsoDate): Promise<ZipSummary | null> {
    return this.#options.boundaries?.zipSummary(zip5, date) ?? Promise.resolve(null);
  }

  /** The ladder as the answering thread climbs it: its own boundary index, the interactive lane for points. */
  #parts(): LadderParts {
    const { rates, boundaries } = this.#options;
    const { table, zips } = rates();
    return {
      data: { table, zips },
      boundaries,
      missingPolygons: this.pool.missingPolygons,
      locate: (points) => this.pool.run("locate", points),
    };
  }

  /**
   * One lookup of any kind, counted in the lookup metrics; an answer GET /rates reuses from its body
   * cache is counted there, at each reuse (docs/operations/metrics.md).
   */
  async answerOne(item: LookupItem, context: RecordContext): Promise<ItemResult> {
    const parts = this.#parts();
    const entries: Entry[] = [{ item, context }];
    const settled = await settle(parts, entries);
    if (settled.pending.length === 0) {
      countAnswers([settled.results[0]!], settled);
      return settled.results[0]!;
    }
    const outcomes = await Promise.all(settled.pending.map(async ({ geocode }) => (await this.#geocodeQueue.add(() => this.geocoder.geocode(geocode)))!));
    const [result] = await complete(parts, entries, settled, outcomes);
    countAnswers([result!], settled);
    return result!;
  }

  /**
   * An inline list (POST /rates/batch), in input order, one answer per lookup. `signal`: the client
   * went away; the upstream request is stopped and the call rejects with the signal's reason.
   */
  async answerMany(raws: readonly unknown[], options: { today: IsoDate; context: RecordContext; signal?: AbortSignal }): Promise<Answer[]> {
    if (raws.length > INLINE_ON_THREAD) {
      const [chunk] = await this.rowsOf([{ input: JSON.stringify(raws), firstRow: 1, today: options.today, context: options.context }], options.signal, true);
      return (JSON.parse(chunk!.output) as RowResult[]).map(({ id, result }) => ({ id, result }));
    }
    const read = readLookups(raws, options.today);
    const entries: Entry[] = read.map(({ item }) => ({ item, context: options.context }));
    const parts = this.#parts();
    const settled = await settle(parts, entries);
    const results =
      settled.pending.length === 0
        ? settled.results.map((r) => r!)
        : await complete(parts, entries, settled, batchOutcomes(parts.data, settled.pending, ...(await this.#geocodeList(settled.pending.map((p) => p.row), options.signal, true))));
    countAnswers(results, settled);
    return read.map(({ id }, i) => ({ id, result: results[i]! }));
  }

  /**
   * Stored chunks (or an inline list as one), resolved whole in the batch lane; the geocoder is asked
   * from here. `clientWaits`: an inline list, whose geocoding has the inline deadline and goes first
   * for a permit. Its client's `signal` stops the upstream request and the steps not yet started but
   * not a running step: piscina would end the thread to stop it, and a fresh one costs more than the
   * milliseconds the step has left. `waits`: told of the geocoding step's retries as they come, and
   * when the step is over (a stored job's rows say what they wait for: src/batch/job-waiting-for.ts).
   */
  async resolveChunks(chunks: ChunkWork[], signal?: AbortSignal, clientWaits = false, waits?: GeocoderWaits): Promise<ChunkDone[]> {
    const overlay = this.#options.rates().overlay;
    const options = { ...(signal && !clientWaits && { signal }), clientWaits };
    signal?.throwIfAborted();
    const step = await this.pool.run("resolveChunks", { chunks, overlay, now: this.#options.now().toISOString() }, options);
    if (step.kind === "done") return countJobRows(step.chunks);
    let answers: ReadonlyMap<string, BatchGeocode>;
    let down: Geocoded["down"];
    try {
      [answers, down] = await this.#geocodeList(step.rows, signal, clientWaits, waits?.onRetry);
    } finally {
      await waits?.clear();
    }
    signal?.throwIfAborted();
    const geocoded: Geocoded = { answers: [...answers], down };
    return countJobRows((await this.pool.run("completeChunks", { state: step.state, overlay, geocoded, now: this.#options.now().toISOString() }, options)).chunks);
  }

  /**
   * Another room's batch-lane work in the same two steps as a job's chunks (an orders job's,
   * src/batch/order-tasks.ts): task `first` climbs every rung but the geocoder; when it leaves
   * addresses, they are asked of the Census batch endpoint here, as a job's are, and task `then` folds
   * the answers into its `state`. Both are given `input` with the live rates' overlay and the time.
   */
  async resolveInSteps(tasks: { first: string; then: string }, input: Record<string, unknown>, signal?: AbortSignal, waits?: GeocoderWaits): Promise<ChunkDone[]> {
    const overlay = this.#options.rates().overlay;
    const options = signal ? { signal } : {};
    signal?.throwIfAborted();
    const step = (await this.pool.runInBatchLane(tasks.first, { ...input, overlay, now: this.#options.now().toISOString() }, options)) as BatchStep;
    if (step.kind === "done") return countJobRows(step.chunks);
    let answers: ReadonlyMap<string, BatchGeocode>;
    let down: Geocoded["down"];
    try {
      [answers, down] = await this.#geocodeList(step.rows, signal, false, waits?.onRetry);
    } finally {
      await waits?.clear();
    }
    signal?.throwIfAborted();
    const geocoded: Geocoded = { answers: [...answers], down };
    const done = (await this.pool.runInBatchLane(tasks.then, { ...input, state: step.state, overlay, geocoded, now: this.#options.now().toISOString() }, options)) as Extract<BatchStep, { kind: "done" }>;
    return countJobRows(done.chunks);
  }

  /** Chunks without a lease (an inline list, `buckeye batch`): their rows come back as JSON text. */
  async rowsOf(chunks: Array<Extract<ChunkWork, { input: string }>>, signal?: AbortSignal, clientWaits = false): Promise<Array<ChunkDone & { output: string }>> {
    return (await this.resolveChunks(chunks, signal, clientWaits)).map((chunk) => {
      if (chunk.output === undefined) throw new Error("a chunk without a lease comes back with its rows");
      return { ...chunk, output: chunk.output };
    });
  }

  /**
   * Rung 3 for a list: the Census batch endpoint; an outage answers every row it left unanswered as
   * `unavailable`. A list a client waits on (`clientWaits`) has GEOCODER_INLINE_BATCH_TIMEOUT_MS for
   * the whole step and is queued for a permit before jobs; a job has GEOCODER_BATCH_TIMEOUT_MS per
   * request and GEOCODER_BATCH_RETRIES.
   */
  async #geocodeList(
    rows: readonly BatchAddress[],
    signal: AbortSignal | undefined,
    clientWaits: boolean,
    onJobRetry?: (retry: BatchRetry) => void,
  ): Promise<[ReadonlyMap<string, BatchGeocode>, Extract<GeocodeOutcome, { kind: "unavailable" }> | null]> {
    const { inlineTimeoutMs, retries } = this.#options.config.geocoder.batch;
    const options = clientWaits
      ? { ...this.#batchOptions, timeoutMs: inlineTimeoutMs, deadlineMs: inlineTimeoutMs, retries: Math.min(INLINE_BATCH_RETRIES, retries), priority: 1 }
      : this.#batchOptions;
    const onRetry = (retry: BatchRetry) => {
      this.#geocoderRetry = retry;
      onJobRetry?.(retry);
    };
    const timer = geocoderSeconds.startTimer({ endpoint: "batch" });
    try {
      const slots = this.#options.batchSlots;
      const answers = await geocodeBatch(rows, { ...options, onRetry, permits: this.#batchPermits, ...(slots && { slots }), ...(signal && { signal }) });
      timer();
      geocoderRequests.inc({ endpoint: "batch", outcome: "ok" });
      return [answers, null];
    } catch (error) {
      if (!(error instanceof GeocoderUnavailableError)) throw error;
      timer();
      geocoderRequests.inc({ endpoint: "batch", outcome: "error" });
      const partial = error instanceof BatchGeocoderUnavailableError ? error.partial : new Map<string, BatchGeocode>();
      return [partial, { kind: "unavailable", reason: error.reason, retryAfterSeconds: error.retryAfterSeconds }];
    } finally {
      this.#geocoderRetry = null;
    }
  }

  /** The Census batch request this process is waiting to try again, if any: what a progress line names. */
  geocoderRetry(): BatchRetry | null {
    return this.#geocoderRetry;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
