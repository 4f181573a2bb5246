/**
 * Works through batch job chunks stored in the database: claim a group of chunks (each with a
 * lease) worth up to `groupRows` rows, run them through the lookup pipeline as one list, store
 * each chunk's results and counters atomically, repeat. A group is as large as one Census batch
 * request, so the rows the boundary file cannot settle cost one upstream request per 10,000; one
 * loop claims at a time, so a job's chunks are not spread thin over the loops. Several loops run
 * at once so the store, the pool and the geocoder stay busy.
 *
 * After a restart, chunks still leased by the old process are claimed again once their lease
 * expires; its late writes, if any, are refused (see completeChunk). So no row is lost or doubled.
 */
import { setMaxListeners } from "node:events";
import { newId } from "../ids.ts";
import { recordContext, type RecordCurrency } from "../rates/records.ts";
import { claimChunk, completeChunk, extendLease, type ClaimedChunk } from "../store/batch-jobs.repository.ts";
import type { Dialect } from "../store/connect.ts";
import type { Db } from "../store/database.ts";
import type { RowResult } from "../lookup/item-result.ts";
import { readLookups, resolveEntries, type Pipeline } from "../lookup/pipeline.ts";
import { errorFields } from "../error-fields.ts";

export interface JobRunnerOptions {
  db: Db;
  dialect: Dialect;
  pipeline: Pipeline;
  leaseMs: number;
  pollMs: number;
  loops: number;
  /** Rows claimed and resolved together. */
  groupRows: number;
  now: () => Date;
  currency: () => RecordCurrency | Promise<RecordCurrency>;
  log: (entry: Record<string, unknown>) => void;
}

/** A claimed chunk with its rows parsed. */
interface Claimed {
  chunk: ClaimedChunk;
  raws: unknown[];
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
      let group: Claimed[] = [];
      try {
        group = await this.#claimGroup();
        if (group.length > 0) await this.#work(group);
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        log({ level: "error", msg: "batch chunks failed; they will be retried when their leases expire", job: group[0]?.chunk.jobId, chunks: group.map((c) => c.chunk.seq), ...errorFields(error) });
      }
      if (group.length === 0) await this.#idle();
    }
  }

  /** Chunks until `groupRows` rows are claimed or none is left; one loop at a time. */
  #claimGroup(): Promise<Claimed[]> {
    const { db, dialect, leaseMs, groupRows } = this.#options;
    const claim = this.#claiming.then(async () => {
      const group: Claimed[] = [];
      let rows = 0;
      while (rows < groupRows && !this.#abort.signal.aborted) {
        const chunk = await claimChunk(db, dialect, this.#owner, this.#options.now(), leaseMs);
        if (!chunk) break;
        const raws = JSON.parse(chunk.input) as unknown[];
        group.push({ chunk, raws });
        rows += raws.length;
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

  async #work(group: Claimed[]): Promise<void> {
    const { db, leaseMs, now } = this.#options;
    const heartbeat = setInterval(() => {
      for (const { chunk } of group) extendLease(db, chunk.jobId, chunk.seq, this.#owner, new Date(now().getTime() + leaseMs)).catch(() => {});
    }, Math.max(1000, Math.floor(leaseMs / 3)));
    heartbeat.unref();
    try {
      const currency = await this.#options.currency();
      const read = group.map(({ chunk, raws }) => ({ chunk, rows: readLookups(raws, chunk.today), context: recordContext(currency, chunk.requestId) }));
      const results = await resolveEntries(
        this.#options.pipeline,
        read.flatMap(({ rows, context }) => rows.map(({ item }) => ({ item, context }))),
        { geocoding: "batch", signal: this.#abort.signal },
      );
      let offset = 0;
      for (const { chunk, rows: items } of read) {
        const rows: RowResult[] = items.map(({ id }, i) => ({ row: chunk.firstRow + i, id, result: results[offset + i]! }));
        offset += items.length;
        const failed = rows.filter((row) => row.result.kind === "failure").length;
        const stored = await completeChunk(db, chunk, this.#owner, JSON.stringify(rows), { done: rows.length, failed }, now());
        if (!stored) this.#options.log({ level: "warn", msg: "batch chunk lease was lost; another worker's results were kept", job: chunk.jobId, chunk: chunk.seq });
      }
    } finally {
      clearInterval(heartbeat);
    }
  }
}
