/**
 * The job queue's one consumer (job-queue.ts): claim a group of chunks (each with a lease) worth up
 * to `groupRows` rows, have the lookup service resolve them in the pool's batch lane, complete them;
 * repeat. This thread only asks, keeps the leases alive and waits on the geocoder; it never parses,
 * resolves or stores a row of a stored job (on SQLite every commit waits on the disk on the thread
 * that makes it). A group is as large as one Census batch request, so the rows the boundary file
 * cannot settle cost one upstream request per 10,000; one loop claims at a time. A loop per batch
 * thread, and one more, keeps the lane busy while another group is stored or geocoded.
 *
 * A chunk claimed more than `maxAttempts` times is not worked again: its rows are stored as
 * failures and the job goes on (see #abandon).
 */
import { setMaxListeners } from "node:events";
import { newId } from "../ids.ts";
import { recordContext, type RecordFreshness } from "../rates/records.ts";
import type { ChunkDone, ChunkWork } from "../lookup/chunk-work.ts";
import type { GeocoderWaits, LookupService } from "../lookup/lookup-service.ts";
import type { OrderChunkWork } from "./order-tasks.ts";
import type { ClaimedChunk, JobQueue } from "./job-queue.ts";
import { errorFields } from "../error-fields.ts";
import { batchChunkAttempts, batchRowsAbandoned } from "../metrics.ts";

export interface JobRunnerOptions {
  queue: JobQueue;
  lookups: Pick<LookupService, "resolveChunks">;
  leaseMs: number;
  pollMs: number;
  loops: number;
  /** Rows claimed and resolved together. */
  groupRows: number;
  /** Jobs one organization may have running at once; its others wait, queued. */
  runningPerOrganization: number;
  /** Times a chunk is worked without being stored before its rows are given up. */
  maxAttempts: number;
  freshness: () => RecordFreshness | Promise<RecordFreshness>;
  /** Works an orders job's chunks (address-lookups.ts); absent where no such job can be stored (`buckeye batch`). */
  orders?: (chunks: OrderChunkWork[], freshness: RecordFreshness, signal: AbortSignal, waits: GeocoderWaits | undefined) => Promise<ChunkDone[]>;
  log: (entry: Record<string, unknown>) => void;
}


export class BatchJobRunner {
  readonly #options: JobRunnerOptions;
  readonly #owner = newId("runner");
  readonly #abort = new AbortController();
  #loops: Promise<void>[] = [];
  #wakers = new Set<() => void>();
  #claiming: Promise<unknown> = Promise.resolve();
  /** Groups being worked, each with what stops it: deleting all of its jobs (or losing all of its leases) stops its geocoder request. */
  #working = new Set<{ jobs: Set<string>; stop: AbortController }>();

  constructor(options: JobRunnerOptions) {
    this.#options = options;
    // Every geocoder call in flight listens for the stop signal.
    setMaxListeners(0, this.#abort.signal);
  }

  start(): void {
    if (this.#loops.length > 0) return;
    this.#loops = Array.from({ length: this.#options.loops }, () => this.#loop());
  }

  /** A job was submitted: idle loops look for work now rather than at their next poll. */
  notify(): void {
    for (const wake of this.#wakers) wake();
  }

  /**
   * A job was deleted through this instance: a group all of whose chunks are that job's (or of jobs
   * deleted before) stops now, its Census batch request aborted, and nothing of it is stored. A group
   * that also holds another job's chunks goes on (their rows need the request); the deleted job's
   * results are refused when stored. Other instances learn of the delete at their next heartbeat.
   */
  jobDeleted(id: string): void {
    for (const group of this.#working) {
      group.jobs.delete(id);
      if (group.jobs.size === 0) group.stop.abort(new JobDeleted());
    }
  }

  /** Stops claiming, abandons chunks in flight (their leases lapse and they are redone), and waits for the loops. */
  async stop(): Promise<void> {
    this.#abort.abort(new Error("the batch job runner is stopping"));
    this.notify();
    await Promise.allSettled(this.#loops);
    this.#loops = [];
  }

  async #loop(): Promise<void> {
    const { log } = this.#options;
    while (!this.#abort.signal.aborted) {
      let group: ClaimedChunk[] = [];
      try {
        group = await this.#claimGroup();
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        log({ level: "error", msg: "batch chunks could not be claimed", ...errorFields(error) });
      }
      // A chunk tried before may be what failed its group (or ended the process): it goes alone,
      // so it spends only its own attempts, and its neighbours are not given up with it.
      const fresh = group.filter((chunk) => chunk.attempts === 1);
      const retried = group.filter((chunk) => chunk.attempts > 1).map((chunk) => [chunk]);
      for (const part of [...(fresh.length > 0 ? [fresh] : []), ...retried]) {
        try {
          await this.#work(part);
        } catch (error) {
          if (this.#abort.signal.aborted) return;
          log({ level: "error", msg: "batch chunks failed; they will be retried when their leases expire", job: part[0]?.jobId, chunks: part.map((c) => c.seq), ...errorFields(error) });
        }
      }
      if (group.length === 0) await this.#idle();
    }
  }

  /** Chunks until `groupRows` rows are claimed or none is left, in the batch lane; one loop at a time. */
  #claimGroup(): Promise<ClaimedChunk[]> {
    const { leaseMs, groupRows, runningPerOrganization, maxAttempts } = this.#options;
    const claim = this.#claiming.then(async () => {
      // The claim itself runs in the batch lane; asking here first keeps an idle service's lane unstarted and lock-free.
      const { queue } = this.#options;
      if (!(await queue.anyClaimable())) return [];
      const claimed = await queue.claim(this.#owner, { leaseMs, groupRows, runningPerOrganization }, this.#abort.signal);
      const group: ClaimedChunk[] = [];
      for (const chunk of claimed) {
        if (chunk.attempts > maxAttempts) await this.#abandon(chunk);
        else {
          batchChunkAttempts.inc({ attempt: chunk.attempts === 1 ? "first" : "retry" });
          group.push(chunk);
        }
      }
      return group;
    });
    this.#claiming = claim.catch(() => {});
    return claim;
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.#options.pollMs);
      timer.unref();
      this.#wakers.add(done);
      if (this.#abort.signal.aborted) done();
    });
  }

  async #work(group: ClaimedChunk[]): Promise<void> {
    const { queue, leaseMs, log } = this.#options;
    const working = { jobs: new Set(group.map((chunk) => chunk.jobId)), stop: new AbortController() };
    this.#working.add(working);
    // Three beats per lease. A renewal that finds a chunk's job deleted (or its lease taken) drops it; once
    // none is left the group stops. A skipped renewal (null: the store's backend found SQLite's write lock
    // held by the batch lane, storing these very chunks) is tried again at the next beat. A renewal that
    // fails is logged once per group with its cause: the next beats try again, and should they all fail
    // the lease lapses and the chunk is claimed again, so nothing is lost.
    const held = new Set(group);
    let extensionFailed = false;
    const heartbeat = setInterval(() => {
      for (const chunk of held) {
        queue
          .extend(chunk, this.#owner, leaseMs)
          .then((renewed) => {
            if (renewed !== false) return;
            held.delete(chunk);
            if (held.size === 0) working.stop.abort(new JobDeleted());
          })
          .catch((error: unknown) => {
            if (extensionFailed) return;
            extensionFailed = true;
            log({ level: "warn", msg: "a batch chunk's lease could not be extended; the next beat tries again, and the chunk is claimed again if its lease lapses", job: chunk.jobId, chunk: chunk.seq, ...errorFields(error) });
          });
      }
    }, Math.max(1000, Math.floor(leaseMs / 3)));
    heartbeat.unref();
    const signal = AbortSignal.any([this.#abort.signal, working.stop.signal]);
    try {
      const freshness = await this.#options.freshness();
      // A group may hold chunks of lookup jobs and of orders jobs: each kind is worked its own way, and the group completed in order.
      const rates = group.filter((chunk) => chunk.orders === undefined);
      const orders = group.filter((chunk) => chunk.orders !== undefined);
      const answered = new Map<ClaimedChunk, ChunkDone>();
      if (rates.length > 0) {
        // Resolved in the batch lane; a stored job's chunks are read and stored there under their leases (src/lookup/batch-tasks.ts).
        const resolved = await this.#options.lookups.resolveChunks(
          rates.map((chunk): ChunkWork => ({
            firstRow: chunk.firstRow,
            today: chunk.today,
            context: recordContext(freshness, chunk.requestId),
            ...queue.work(chunk, this.#owner),
          })),
          signal,
          false,
          queue.waits(rates),
        );
        resolved.forEach((chunk, k) => answered.set(rates[k]!, chunk));
      }
      if (orders.length > 0) {
        if (!this.#options.orders) throw new Error("an orders job's chunk was claimed by a runner that cannot work orders");
        const work = orders.map((chunk): OrderChunkWork => ({ firstRow: chunk.firstRow, today: chunk.today, requestId: chunk.requestId, lease: { jobId: chunk.jobId, seq: chunk.seq, owner: this.#owner }, orders: chunk.orders! }));
        (await this.#options.orders(work, freshness, signal, queue.waits(orders))).forEach((chunk, k) => answered.set(orders[k]!, chunk));
      }
      const done = group.map((chunk) => answered.get(chunk)!);
      await queue.complete(group, done);
    } catch (error) {
      if (!(working.stop.signal.aborted && !this.#abort.signal.aborted)) {
        queue.fail(group, error);
        throw error;
      }
      for (const job of new Set(group.map((chunk) => chunk.jobId))) {
        const chunks = group.filter((chunk) => chunk.jobId === job).map((chunk) => chunk.seq);
        log({ level: "info", msg: "batch chunks not stored: their job was deleted (or their leases lost), so their geocoder request was stopped", job, chunks });
      }
    } finally {
      clearInterval(heartbeat);
      this.#working.delete(working);
    }
  }

  /**
   * A chunk claimed more than `maxAttempts` times was never stored: its runners crashed or failed on
   * it each time, and this one would most likely meet the same fault. Its rows are stored as
   * failures (`batch-row-abandoned`) under the lease, counted in the job's `failed`, and the job goes
   * on to complete. No row is resolved, so the fault cannot recur.
   */
  async #abandon(chunk: ClaimedChunk): Promise<void> {
    const { log } = this.#options;
    const tries = chunk.attempts - 1;
    const stored = await this.#options.queue.abandon(chunk, this.#owner);
    if (stored) {
      batchRowsAbandoned.inc(chunk.rowCount);
      log({ level: "error", msg: "batch chunk given up after its attempts; its rows fail as batch-row-abandoned", job: chunk.jobId, chunk: chunk.seq, attempts: tries });
    } else log({ level: "warn", msg: "batch chunk not stored: its lease was lost (another worker's results were kept) or its job was deleted", job: chunk.jobId, chunk: chunk.seq });
  }
}

/** Why a group's work was stopped: every chunk of it belongs to a deleted job (or was taken by another runner). */
class JobDeleted extends Error {
  constructor() {
    super("the group's jobs were deleted");
  }
}
