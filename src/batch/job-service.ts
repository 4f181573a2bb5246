/**
 * The batch job service: asynchronous jobs as stored, within each organization's caps on jobs in
 * flight and stored. Admit an upload (its places, upload-reservations.ts), submit it (the batch lane
 * reads it, cuts it into chunks and stores the job with them), find a job, delete it, stream its
 * results; and, for the job runner, claim a group of chunks and give up a chunk claimed too often.
 * The API's batch routes and the runner call it; resolving a chunk's rows is the lookup service's
 * (src/lookup/lookup-service.ts `resolveChunks`).
 *
 * The work that touches a job's rows runs in the pool's batch lane (job-tasks.ts, src/lookup/batch-tasks.ts): on
 * SQLite every commit waits on the disk on the thread that makes it, so the answering thread never does.
 */
import PQueue from "p-queue";
import { errorFields } from "../error-fields.ts";
import { newId } from "../ids.ts";
import type { ChunkLease } from "../lookup/chunk-work.ts";
import type { ColumnChoice } from "../lookup/export-headers.ts";
import { jobCapRefusal, type JobCaps, type JobRefusal } from "./job-admission.ts";
import type { GeoPool } from "../lookup/worker-pool.ts";
import type { IsoDate } from "../rates/calendar.ts";
import { countBatchJobs, findBatchJob, markBatchJobDeleted, purgeDeletedJob, readChunkOutputs, type BatchJob, type ClaimedChunk } from "./batch-jobs.repository.ts";
import type { BatchFileFormat, BatchJobLedger } from "../store/batch-jobs.table.ts";
import type { Db } from "../store/database.ts";
import { MAX_JOB_ROWS, type OrganizationLimits } from "../organization-limits.ts";
import { finderLine, isFinderFile, type FinderFile } from "./finder-results.ts";
import { unpackResults } from "./packed-results.ts";
import { runJobTask } from "./job-tasks.ts";
import { resultHeader, resultLine, rowProblems, type ResultFormat } from "./result-lines.ts";
import { ORDER_RESULT_HEADER, orderCsvLine, orderNdjsonLine, type OrderRowResult } from "./order-results.ts";
import type { RowResult } from "../lookup/item-result.ts";
import { UploadReservations, type Reservation, type UploadBudget } from "./upload-reservations.ts";
import { DownloadSlots } from "./download-slots.ts";
import { setImmediate as nextTurn } from "node:timers/promises";

/** The ceiling for one asynchronous job (an organization may have a lower one of its own, src/organization-limits.ts). */
export { MAX_JOB_ROWS };

/** Chunks read per page when a job's results are streamed. */
const RESULT_PAGE_CHUNKS = 2;

/**
 * Rows rendered per slice of a results download, with a turn of the event loop between slices: about
 * 300 KB of NDJSON, a few milliseconds. A socket that takes bytes as fast as they come (a client on a
 * fast link) completes each write at once, and its 'drain' comes on the same turn, so without the
 * turn a download ran from its first page to its last while every other request waited: one 9.6 MB
 * CSV held another organization's lookup 2.4 s, six 124 MB NDJSON downloads held one 15.4 s.
 */
const RESULT_SLICE_ROWS = 250;

export interface JobServiceOptions {
  /** The store jobs live in. */
  db: Db;
  /** The lookup pool, whose batch lane reads uploads, stores jobs and claims their chunks (job-tasks.ts). */
  pool: Pick<GeoPool, "runInBatchLane">;
  now: () => Date;
  /** Rows per stored chunk at most. */
  chunkRows: number;
  /** Heap ceiling of a batch-lane thread, in MB (BATCH_THREAD_MAX_HEAP_MB): what an upload too large to read is told. */
  batchThreadHeapMb: number;
  /** A job was stored: the runner looks for work now rather than at its next poll. */
  jobSubmitted?: () => void;
  /** A job was deleted: the runner stops its geocoder request in flight, if any, rather than at its next heartbeat. */
  jobDeleted?: (id: string) => void;
  /** Jobs one organization may have queued or running, and stored at all (BATCH_JOBS_*_PER_ORG); absent: no caps (a store without an API). */
  jobCaps?: JobCaps;
  /** Bytes of uploads being received at once, per organization and in all (BATCH_UPLOAD_BYTES_PER_*); absent: no budget. */
  uploadBudget?: UploadBudget;
  /** Results downloads one organization may have in flight at once (BATCH_DOWNLOADS_PER_ORG); absent: no bound. */
  downloadsPerOrganization?: number;
  log: (entry: Record<string, unknown>) => void;
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
  /** The client's column mapping and address side, for a CSV's header (src/lookup/export-headers.ts). */
  choice?: ColumnChoice;
  /** A batch of orders (read-orders-file.ts), recorded into `ledger` when it is set; absent: lookups. */
  orders?: { ledger: BatchJobLedger | null };
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

export class BatchJobService {
  readonly #options: JobServiceOptions;
  /** Deleted jobs' purges, one at a time: each already yields to other writers, and two at once would only take turns at SQLite's lock. */
  readonly #purges = new PQueue({ concurrency: 1 });
  readonly #stopPurges = new AbortController();
  readonly #uploads: UploadReservations;
  readonly #downloads: DownloadSlots;

  constructor(options: JobServiceOptions) {
    this.#options = options;
    this.#downloads = new DownloadSlots(options.downloadsPerOrganization ?? Infinity);
    this.#uploads = new UploadReservations(options.uploadBudget ?? { perOrganization: Infinity, perProcess: Infinity });
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
      const rows = await countBatchJobs(this.#options.db, organizationId, held);
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
    const { chunkRows, now } = this.#options;
    // The upload's bytes move to the thread, which decodes them: this thread never holds the file as text.
    const bytes = submission.bytes;
    const movable = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    let accepted: SubmitOutcome;
    try {
      accepted = await runJobTask(
        this.#options.pool,
        "acceptJob",
        {
          bytes,
          format: submission.format,
          maxRows: submission.limits?.rowsPerJob ?? MAX_JOB_ROWS,
          job: { id: submission.jobId, organizationId: submission.organizationId, apiKeyId: submission.apiKeyId, requestId: submission.requestId, today: submission.today },
          chunkRows,
          caps: this.#capsFor(submission.limits) ?? null,
          now: now().toISOString(),
          ...(submission.choice && { choice: submission.choice }),
          ...(submission.orders && { orders: submission.orders }),
        },
        { clientWaits: true, ...(movable && { transfer: [bytes.buffer as ArrayBuffer] }) },
      );
    } catch (error) {
      // The thread that read it hit its heap ceiling and was replaced; only this upload is lost, and nothing was stored.
      if ((error as { code?: unknown }).code !== "ERR_WORKER_OUT_OF_MEMORY") throw error;
      const heapMb = this.#options.batchThreadHeapMb;
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
    return findBatchJob(this.#options.db, organizationId, id);
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
    const { db } = this.#options;
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

  /** A slot for one results download of the organization's (`release` gives it back), or the refusal (download-slots.ts). */
  openDownload(organizationId: string): { release(): void } | JobRefusal {
    return this.#downloads.take(organizationId);
  }

  /**
   * A completed job's results as text, a page of chunks at a time: each page is a few milliseconds
   * of work, and the next is read only when the reader asks, so a 100,000-row download neither
   * sits in memory whole nor holds the thread. A Finder file (finder-results.ts) reads each chunk's
   * rows as uploaded too, to give their fields back. Failed rows are problem objects citing
   * `errorsUrl` and the job's request id; an orders job's rows are its sales' answers (order-results.ts).
   */
  async *resultText(job: BatchJob, format: ResultFormat | FinderFile, errorsUrl: string): AsyncGenerator<string> {
    const { db } = this.#options;
    const problemOf = rowProblems(errorsUrl, job.request_id);
    const orders = job.kind === "orders";
    const render = (row: unknown, input: unknown): string =>
      orders
        ? format === "csv"
          ? orderCsvLine(row as OrderRowResult, errorsUrl, job.request_id)
          : orderNdjsonLine(row as OrderRowResult, errorsUrl, job.request_id)
        : isFinderFile(format)
          ? finderLine(row as RowResult, input, format, problemOf)
          : resultLine(row as RowResult, format, problemOf);
    if (orders && format === "csv") yield ORDER_RESULT_HEADER;
    else if (!orders && !isFinderFile(format) && resultHeader(format)) yield resultHeader(format);
    for (let nextSeq = 0; nextSeq < job.chunk_count; ) {
      const page = await readChunkOutputs(db, job.id, nextSeq, RESULT_PAGE_CHUNKS, isFinderFile(format));
      // Every chunk in order, each with its results: anything else means the job was deleted (by its
      // organization or the retention sweep) while it streamed, and a short file must not look whole.
      if (page.length === 0) throw new ResultsCut(job.id, nextSeq);
      for (const chunk of page) {
        const rows = chunk.seq === nextSeq ? unpackResults(chunk) : null;
        if (rows === null) throw new ResultsCut(job.id, nextSeq);
        const inputs = isFinderFile(format) ? (JSON.parse(chunk.input!) as unknown[]) : null;
        for (let from = 0; from < rows.length; from += RESULT_SLICE_ROWS) {
          // Every slice waits for the next turn, so the requests that arrived meanwhile are answered first.
          await nextTurn();
          let text = "";
          for (let i = from; i < Math.min(rows.length, from + RESULT_SLICE_ROWS); i++) text += render(rows[i], inputs?.[i]);
          yield text;
        }
        nextSeq++;
      }
    }
  }

  /**
   * A group of a job's chunks claimed for `owner`, in the batch lane: on SQLite each claim is a
   * commit that waits on the disk on the thread that asks, so the answering thread never does it.
   */
  claimGroup(owner: string, leaseMs: number, groupRows: number, runningPerOrganization: number, signal?: AbortSignal): Promise<ClaimedChunk[]> {
    return runJobTask(this.#options.pool, "claimGroup", { owner, now: this.#options.now().toISOString(), leaseMs, groupRows, runningPerOrganization }, { ...(signal && { signal }) });
  }

  /** A chunk claimed too many times, its rows stored as `batch-row-abandoned` in the batch lane (job-tasks.ts); whether it was stored. */
  abandonChunk(lease: ChunkLease, firstRow: number, attempts: number): Promise<boolean> {
    return runJobTask(this.#options.pool, "abandonChunk", { lease, firstRow, attempts, now: this.#options.now().toISOString() });
  }

  /** Stops the purges not yet started (the retention sweep finishes them) and waits for the one running. */
  async close(): Promise<void> {
    this.#stopPurges.abort(new Error("the batch job service is closing"));
    await this.#purges.onIdle();
  }
}
