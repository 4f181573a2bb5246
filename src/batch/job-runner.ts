/**
 * Works through batch job chunks stored in the database: claim a chunk (with a lease), run it
 * through the lookup pipeline, store its results and counters atomically, repeat. Several loops
 * run at once so the pool's threads stay busy while other chunks wait on the geocoder.
 *
 * After a restart, chunks still leased by the old process are claimed again once their lease
 * expires; its late writes, if any, are refused (see completeChunk). So no row is lost or doubled.
 */
import { setMaxListeners } from "node:events";
import { newId } from "../ids.ts";
import type { IsoDate } from "../rates/calendar.ts";
import { claimChunk, completeChunk, extendLease, type ClaimedChunk } from "../store/batch-jobs.repository.ts";
import type { Dialect } from "../store/connect.ts";
import type { Db } from "../store/database.ts";
import type { RowResult } from "../lookup/item-result.ts";
import { resolveLookups, type Pipeline } from "../lookup/pipeline.ts";

export interface JobRunnerOptions {
  db: Db;
  dialect: Dialect;
  pipeline: Pipeline;
  leaseMs: number;
  pollMs: number;
  loops: number;
  now: () => Date;
  lastReconciled: () => IsoDate | Promise<IsoDate>;
  log: (entry: Record<string, unknown>) => void;
}

export class BatchJobRunner {
  readonly #options: JobRunnerOptions;
  readonly #owner = newId("runner");
  readonly #abort = new AbortController();
  #loops: Promise<void>[] = [];
  #wakers = new Set<() => void>();

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
    const { db, dialect, leaseMs, log } = this.#options;
    while (!this.#abort.signal.aborted) {
      let chunk: ClaimedChunk | null = null;
      try {
        chunk = await claimChunk(db, dialect, this.#owner, this.#options.now(), leaseMs);
        if (chunk) await this.#work(chunk);
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        log({ level: "error", msg: "batch chunk failed; it will be retried when its lease expires", job: chunk?.jobId, chunk: chunk?.seq, error: String(error) });
      }
      if (!chunk) await this.#idle();
    }
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

  async #work(chunk: ClaimedChunk): Promise<void> {
    const { db, leaseMs, now } = this.#options;
    const heartbeat = setInterval(() => {
      extendLease(db, chunk.jobId, chunk.seq, this.#owner, new Date(now().getTime() + leaseMs)).catch(() => {});
    }, Math.max(1000, Math.floor(leaseMs / 3)));
    heartbeat.unref();
    try {
      const answers = await resolveLookups(this.#options.pipeline, chunk.input, {
        today: chunk.today,
        context: { lastReconciled: await this.#options.lastReconciled(), requestId: chunk.requestId },
        signal: this.#abort.signal,
      });
      const rows: RowResult[] = answers.map(({ id, result }, i) => ({ row: chunk.firstRow + i, id, result }));
      const failed = rows.filter((row) => row.result.kind === "failure").length;
      const stored = await completeChunk(db, chunk, this.#owner, JSON.stringify(rows), { done: rows.length, failed }, now());
      if (!stored) this.#options.log({ level: "warn", msg: "batch chunk lease was lost; another worker's results were kept", job: chunk.jobId, chunk: chunk.seq });
    } finally {
      clearInterval(heartbeat);
    }
  }
}
