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
 *   failed request waits to be retried, the jobs' rows say so: job-waiting-for.ts);
 *   every request to that endpoint, a job's or an inline list's, is made from this thread, so one
 *   queue here (GEOCODER_BATCH_CONCURRENCY) caps them for the whole process;
 * - admitJob, submitJob, findJob, deleteJob, resultText: asynchronous jobs as stored, within
 *   each organization's caps on jobs in flight and stored.
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
import { newId } from "../ids.ts";
import type { IsoDate } from "../rates/calendar.ts";
import type { RatesOverlay } from "../rates/overlay-periods.ts";
import type { RecordContext } from "../rates/records.ts";
import { countBatchJobs, findBatchJob, markBatchJobDeleted, purgeDeletedJob, readChunkOutputs, type BatchJob, type ClaimedChunk } from "../store/batch-jobs.repository.ts";
import type { BatchFileFormat } from "../store/batch-jobs.table.ts";
import type { Db } from "../store/database.ts";
import type { BatchWorkerData, ChunkDone, ChunkLease, ChunkWork, Geocoded } from "./batch-tasks.ts";
import { finderLine, isFinderFile, type FinderFile } from "./finder-results.ts";
import type { ItemResult, RowResult } from "./item-result.ts";
import { JobWaits } from "./job-waiting-for.ts";
import { jobCapRefusal, type JobCaps, type JobRefusal } from "./job-admission.ts";
import { batchOutcomes, complete, settle, type Entry, type LadderParts } from "./ladder.ts";
import { readLookups, strategyOf, type LookupItem } from "./lookup-item.ts";
import { countAnswers } from "./lookup-metrics.ts";
import { batchRows, geocoderRequests, geocoderSeconds } from "../metrics.ts";
import type { ResolverData } from "./resolver-inputs.ts";
import { resultHeader, resultLine, type ProblemOf, type ResultFormat } from "./result-lines.ts";
import { UploadReservations, type Reservation, type UploadBudget } from "./upload-reservations.ts";
import { GeoPool } from "./worker-pool.ts";
import { MAX_JOB_ROWS, type OrganizationLimits } from "../organization-limits.ts";

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

/** The ceiling for one asynchronous job (an organization may have a lower one of its own, src/organization-limits.ts). */
export { MAX_JOB_ROWS };

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

/** Chunks read per page when a job's results are streamed: one page is a few milliseconds of work. */
const RESULT_PAGE_CHUNKS = 2;

export interface LookupServiceOptions {
  config: LookupsConfig;
  /** Where the batch lane's threads read the state's boundary file; null: no store (no file). */
  databaseUrl: string | null;
  /** The store jobs live in; null where there are no jobs. */
  db: Db | null;
  /** The live rate table and ZIP index, and what the table lays over the shipped one: read per call (reconciliation swaps the table). */
  rates: () => ResolverData & { overlay: RatesOverlay };
  /** The shipped table and ZIP index, copied once into each batch thread. */
  shipped: ResolverData;
  /** The state's boundary file, as the answering thread reads it. */
  boundaries: BoundaryIndex | null;
  now: () => Date;
  chunkRows: number;
  /** A job was stored: the runner looks for work now rather than at its next poll. */
  jobSubmitted?: () => void;
  /** A job was deleted: the runner stops its geocoder request in flight, if any, rather than at its next heartbeat. */
  jobDeleted?: (id: string) => void;
  /** The Census batch slots every instance shares (redis-batch-slots.ts, with REDIS_URL); absent: the permits here cap alone. */
  batchSlots?: BatchSlots;
  /** Jobs one organization may have queued or running, and stored at all (BATCH_JOBS_*_PER_ORG); absent: no caps (a store without an API). */
  jobCaps?: JobCaps;
  /** Bytes of uploads being received at once, per organization and in all (BATCH_UPLOAD_BYTES_PER_*); absent: no budget. */
  uploadBudget?: UploadBudget;
  log: (entry: Record<string, unknown>) => void;
}

export interface Answer {
  id: string | null;
  result: ItemResult;
}

export interface Submission {
  /** The id its place was taken under (admitJob's reservation): the job is stored under it. */
  jobId: string;
  /** The upload as received (UTF-8); handed to the batch lane, so the caller gives it up. */
  bytes: Uint8Array;
  format: BatchFileFormat;
  organizationId: string;
  apiKeyId: string;
  requestId: string;
  today: IsoDate;
  /** The organization's own limits (its key's verdict carries them): its caps on jobs and rows in place of the settings'. */
  limits?: OwnJobLimits;
}

/** The limits an operator may set per organization that a job is held to. */
export type OwnJobLimits = Pick<OrganizationLimits, "jobsInFlight" | "jobsStored" | "rowsPerJob">;

export type SubmitOutcome = { ok: true; job: BatchJob } | JobRefusal;

/**
 * A job's results stopped short: the job was deleted while they streamed. The download fails as a
 * transfer (its connection is cut), never as a clean end.
 */
export class ResultsCut extends Error {
  constructor(jobId: string, seq: number) {
    super(`batch job ${jobId} was deleted while its results streamed (at chunk ${seq})`);
  }
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
  /** Deleted jobs' purges, one at a time: each already yields to other writers, and two at once would only take turns at SQLite's lock. */
  readonly #purges = new PQueue({ concurrency: 1 });
  readonly #stopPurges = new AbortController();
  readonly #uploads: UploadReservations;

  constructor(options: LookupServiceOptions) {
    this.#options = options;
    this.#uploads = new UploadReservations(options.uploadBudget ?? { perOrganization: Infinity, perProcess: Infinity });
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

  get chunkRows(): number {
    return this.#options.chunkRows;
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
   * One lookup of any kind. County and ZIP lookups are not counted in the lookup metrics: GET /rates
   * answers them from its body cache, so only its route counts them (docs/operations/metrics.md).
   */
  async answerOne(item: LookupItem, context: RecordContext): Promise<ItemResult> {
    const parts = this.#parts();
    const entries: Entry[] = [{ item, context }];
    const settled = await settle(parts, entries);
    const counted = strategyOf(item) !== "county-or-zip";
    if (settled.pending.length === 0) {
      if (counted) countAnswers([settled.results[0]!], settled);
      return settled.results[0]!;
    }
    const outcomes = await Promise.all(settled.pending.map(async ({ geocode }) => (await this.#geocodeQueue.add(() => this.geocoder.geocode(geocode)))!));
    const [result] = await complete(parts, entries, settled, outcomes);
    if (counted) countAnswers([result!], settled);
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
   * milliseconds the step has left.
   */
  async resolveChunks(chunks: ChunkWork[], signal?: AbortSignal, clientWaits = false): Promise<ChunkDone[]> {
    const overlay = this.#options.rates().overlay;
    const options = { ...(signal && !clientWaits && { signal }), clientWaits };
    signal?.throwIfAborted();
    const step = await this.pool.run("resolveChunks", { chunks, overlay, now: this.#options.now().toISOString() }, options);
    if (step.kind === "done") return countJobRows(step.chunks);
    // A stored job's rows wait on the geocoder here: its row says so while a failed request waits to be tried again.
    const jobIds = [...new Set(chunks.flatMap((chunk) => (chunk.lease ? [chunk.lease.jobId] : [])))];
    const waits = jobIds.length > 0 && this.#options.db !== null ? new JobWaits(this.#options.db, jobIds, this.#options.log) : null;
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
   * A group of a job's chunks claimed for `owner`, in the batch lane: on SQLite each claim is a
   * commit that waits on the disk on the thread that asks, so the answering thread never does it.
   */
  claimGroup(owner: string, leaseMs: number, groupRows: number, runningPerOrganization: number, signal?: AbortSignal): Promise<ClaimedChunk[]> {
    this.#jobs();
    return this.pool.run("claimGroup", { owner, now: this.#options.now().toISOString(), leaseMs, groupRows, runningPerOrganization }, { ...(signal && { signal }) });
  }

  /** A chunk claimed too many times, its rows stored as `batch-row-abandoned` in the batch lane (batch-tasks.ts); whether it was stored. */
  abandonChunk(lease: ChunkLease, firstRow: number, attempts: number): Promise<boolean> {
    this.#jobs();
    return this.pool.run("abandonChunk", { lease, firstRow, attempts, now: this.#options.now().toISOString() });
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

  /**
   * Whether the organization may send another job, asked before its upload is read: its places
   * (upload-reservations.ts), or the refusal. The job caps count the uploads this process is already
   * receiving for it as jobs (job-admission.ts), and `bytes` (what the upload declares, or the most
   * an upload may be) must fit the organization's and the process's budgets. The caller releases the
   * places once the job is stored or refused, or the upload fails; the batch thread holds the caps
   * again as it stores the job.
   */
  async admitJob(organizationId: string, bytes: number, own?: OwnJobLimits): Promise<Reservation | JobRefusal> {
    const caps = this.#capsFor(own);
    if (caps) {
      // An upload's job may be stored while its answer is still on the way here, its place not yet given
      // back: the stored rows leave out the jobs held as uploads, so each job counts once. An upload that
      // took its place while the rows were counted may be among them too, so it is taken off them: this
      // check may count short (the batch thread's check, which holds, then refuses), never twice.
      const held = this.#uploads.jobIds(organizationId);
      const rows = await countBatchJobs(this.#jobs(), organizationId, held);
      // From here on synchronous: the uploads counted are exactly those held when this one takes its place.
      const uploads = this.#uploads.jobIds(organizationId);
      const arrived = uploads.filter((id) => !held.includes(id)).length;
      const counts = { inFlight: Math.max(0, rows.inFlight - arrived) + uploads.length, stored: Math.max(0, rows.stored - arrived) + uploads.length, uploading: uploads.length };
      const refusal = jobCapRefusal(counts, caps);
      if (refusal) return refusal;
    }
    return this.#uploads.reserve(organizationId, bytes, newId("bat"));
  }

  /** The batch lane reads the upload, cuts it into chunks and stores the job with them in one transaction. */
  async submitJob(submission: Submission): Promise<SubmitOutcome> {
    this.#jobs();
    const { chunkRows, now } = this.#options;
    // The upload's bytes move to the thread, which decodes them: this thread never holds the file as text.
    const bytes = submission.bytes;
    const movable = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    let accepted: SubmitOutcome;
    try {
      accepted = await this.pool.run(
        "acceptJob",
        {
          bytes,
          format: submission.format,
          maxRows: submission.limits?.rowsPerJob ?? MAX_JOB_ROWS,
          job: { id: submission.jobId, organizationId: submission.organizationId, apiKeyId: submission.apiKeyId, requestId: submission.requestId, today: submission.today },
          chunkRows,
          caps: this.#capsFor(submission.limits) ?? null,
          now: now().toISOString(),
        },
        { clientWaits: true, ...(movable && { transfer: [bytes.buffer as ArrayBuffer] }) },
      );
    } catch (error) {
      // The thread that read it hit its heap ceiling and was replaced; only this upload is lost, and nothing was stored.
      if ((error as { code?: unknown }).code !== "ERR_WORKER_OUT_OF_MEMORY") throw error;
      const heapMb = this.#options.config.batchThreadHeapMb;
      return { ok: false, slug: "batch-too-large", detail: `Reading this file took more than the ${heapMb} MB a batch thread may use. Split it into smaller files.` };
    }
    if (accepted.ok) this.#options.jobSubmitted?.();
    return accepted;
  }

  /** The organization's caps on jobs: its own where an operator set them, else the settings'; none when the service has none. */
  #capsFor(own: OwnJobLimits | undefined): JobCaps | undefined {
    const caps = this.#options.jobCaps;
    if (!caps || !own || (own.jobsInFlight === null && own.jobsStored === null)) return caps;
    return { inFlightPerOrganization: own.jobsInFlight ?? caps.inFlightPerOrganization, storedPerOrganization: own.jobsStored ?? caps.storedPerOrganization };
  }

  /** Only the owning organization sees a job: to anyone else it does not exist. */
  findJob(organizationId: string, id: string): Promise<BatchJob | undefined> {
    return findBatchJob(this.#jobs(), organizationId, id);
  }

  /**
   * Deletes the organization's job, in whatever state, and answers once it is marked: from then on it
   * is gone for every reader and no runner claims or completes its chunks any more (one running is
   * cancelled: what its runner has in hand is not stored). Its chunks are purged afterwards, in the
   * background, a few per transaction with pauses for other writers, one job at a time; a purge a
   * stopping service leaves is finished by the retention sweep. False when the organization has no
   * such job, as findJob would say.
   */
  async deleteJob(organizationId: string, id: string): Promise<boolean> {
    const db = this.#jobs();
    if (!(await markBatchJobDeleted(db, organizationId, id, this.#options.now()))) return false;
    this.#options.jobDeleted?.(id);
    const { signal } = this.#stopPurges;
    void this.#purges
      .add(() => purgeDeletedJob(db, id, signal), { signal })
      .catch((error: unknown) => {
        if (!signal.aborted) this.#options.log({ level: "error", msg: "purging a deleted batch job failed; the retention sweep will finish it", job: id, ...errorFields(error) });
      });
    return true;
  }

  /** Resolves once every purge queued so far has finished (tests, and anyone who must see the rows gone). */
  purgesSettled(): Promise<void> {
    return this.#purges.onIdle();
  }

  /**
   * A completed job's results as text, a page of chunks at a time: each page is a few milliseconds
   * of work, and the next is read only when the reader asks, so a 100,000-row download neither
   * sits in memory whole nor holds the thread. A Finder file (finder-results.ts) reads each chunk's
   * rows as uploaded too, to give their fields back.
   */
  async *resultText(job: BatchJob, format: ResultFormat | FinderFile, problemOf: ProblemOf): AsyncGenerator<string> {
    const db = this.#jobs();
    if (!isFinderFile(format) && resultHeader(format)) yield resultHeader(format);
    for (let nextSeq = 0; nextSeq < job.chunk_count; ) {
      const page = await readChunkOutputs(db, job.id, nextSeq, RESULT_PAGE_CHUNKS, isFinderFile(format));
      // Every chunk in order, each with its results: anything else means the job was deleted (by its
      // organization or the retention sweep) while it streamed, and a short file must not look whole.
      if (page.length === 0) throw new ResultsCut(job.id, nextSeq);
      for (const chunk of page) {
        if (chunk.seq !== nextSeq || chunk.output === null) throw new ResultsCut(job.id, nextSeq);
        let text = "";
        const rows = JSON.parse(chunk.output) as RowResult[];
        if (isFinderFile(format)) {
          const inputs = JSON.parse(chunk.input!) as unknown[];
          rows.forEach((row, i) => (text += finderLine(row, inputs[i], format, problemOf)));
        } else for (const row of rows) text += resultLine(row, format, problemOf);
        yield text;
        nextSeq++;
      }
    }
  }

  #jobs(): Db {
    if (this.#options.db === null) throw new Error("this lookup service has no store for batch jobs");
    return this.#options.db;
  }

  async close(): Promise<void> {
    this.#stopPurges.abort(new Error("the lookup service is closing"));
    await this.#purges.onIdle();
    await this.pool.close();
  }
}
