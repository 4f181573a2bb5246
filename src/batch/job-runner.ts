/**
 * Works through batch job chunks stored in the database: claim a group of chunks (each with a
 * lease) worth up to `groupRows` rows, hand them to the lookup service, which resolves them in the
 * pool's batch lane, store each chunk's results and counters atomically, repeat. This thread only
 * claims, hands over, stores and waits on the geocoder; it never parses or resolves a row. A group
 * is as large as one Census batch request, so the rows the boundary file cannot settle cost one
 * upstream request per 10,000; one loop claims at a time. A loop per batch thread, and one more,
 * keeps the lane busy while another group is stored or geocoded.
 *
 * After a restart, chunks still leased by the old process are claimed again once their lease
 * expires; its late writes, if any, are refused (see completeChunk). So no row is lost or doubled.
 */
import { setMaxListeners } from "node:events";
import { newId } from "../ids.ts";
import { recordContext, type RecordCurrency } from "../rates/records.ts";
import { extendLease, type ClaimedChunk } from "../store/batch-jobs.repository.ts";
import type { Db } from "../store/database.ts";
import type { LookupService } from "../lookup/lookup-service.ts";
import { errorFields } from "../error-fields.ts";

export interface JobRunnerOptions {
  db: Db;
  lookups: Pick<LookupService, "resolveChunks" | "claimGroup">;
  leaseMs: number;
  pollMs: number;
  loops: number;
  /** Rows claimed and resolved together. */
  groupRows: number;
  now: () => Date;
  currency: () => RecordCurrency | Promise<RecordCurrency>;
  log: (entry: Record<string, unknown>) => void;
}


export class BatchJobRunner {
  readonly #options: JobRunnerOptions;
  readonly #owner = newId("runner");
  readonly #abort = new AbortController();
  #loops: Promise<void>[] = [];
  #wakers = new Set<() => void>();
  #claiming: Promise<unknown> = Promise.resolve();

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
        if (group.length > 0) await this.#work(group);
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        log({ level: "error", msg: "batch chunks failed; they will be retried when their leases expire", job: group[0]?.jobId, chunks: group.map((c) => c.seq), ...errorFields(error) });
      }
      if (group.length === 0) await this.#idle();
    }
  }

  /** Chunks until `groupRows` rows are claimed or none is left, in the batch lane; one loop at a time. */
  #claimGroup(): Promise<ClaimedChunk[]> {
    const { leaseMs, groupRows } = this.#options;
    const claim = this.#claiming.then(() => this.#options.lookups.claimGroup(this.#owner, leaseMs, groupRows, this.#abort.signal));
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
    const { db, leaseMs, now } = this.#options;
    const heartbeat = setInterval(() => {
      for (const chunk of group) extendLease(db, chunk.jobId, chunk.seq, this.#owner, new Date(now().getTime() + leaseMs)).catch(() => {});
    }, Math.max(1000, Math.floor(leaseMs / 3)));
    heartbeat.unref();
    try {
      const currency = await this.#options.currency();
      // The batch lane resolves the group and stores each chunk's results under its lease (batch-tasks.ts).
      const done = await this.#options.lookups.resolveChunks(
        group.map((chunk) => ({
          input: chunk.input,
          firstRow: chunk.firstRow,
          today: chunk.today,
          context: recordContext(currency, chunk.requestId),
          lease: { jobId: chunk.jobId, seq: chunk.seq, owner: this.#owner },
        })),
        this.#abort.signal,
      );
      group.forEach((chunk, k) => {
        if (!done[k]!.stored) this.#options.log({ level: "warn", msg: "batch chunk lease was lost; another worker's results were kept", job: chunk.jobId, chunk: chunk.seq });
      });
    } finally {
      clearInterval(heartbeat);
    }
  }
}
