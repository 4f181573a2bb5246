/**
 * The job queue in memory (job-queue.ts): one local file's chunks, which `buckeye batch` runs through
 * the same runner, lookup service and batch lane as the API's jobs, with nothing stored. Each chunk
 * is claimed once (nothing else claims from this queue, so a lease never lapses and no chunk is
 * given up); its rows come back as text and are handed to `write` in input order, one chunk at a
 * time, whatever order the chunks complete in. `done` settles once the last chunk is written, or
 * rejects with the first failure.
 */
import type { ChunkDone } from "../lookup/chunk-work.ts";
import type { RowResult } from "../lookup/item-result.ts";
import type { NewBatchChunk } from "./read-batch-file.ts";
import type { ClaimedChunk, JobQueue } from "./job-queue.ts";

export interface MemoryJob {
  chunks: readonly NewBatchChunk[];
  /** The date a row without one is looked up at. */
  today: string;
  /** The id every row's record carries. */
  requestId: string;
  /** A chunk's rows (`seq`: its place in the file), in input order; the next is handed over once this resolves. */
  write: (rows: RowResult[], seq: number) => Promise<void>;
}

/** The job id the chunks of a memory queue carry. */
const LOCAL_JOB = "local";

export class MemoryJobQueue implements JobQueue {
  readonly done: Promise<void>;
  readonly #job: MemoryJob;
  readonly #results = new Map<number, RowResult[]>();
  #next = 0;
  #written = 0;
  #writing: Promise<void> = Promise.resolve();
  #settle!: { resolve: () => void; reject: (error: unknown) => void };

  constructor(job: MemoryJob) {
    this.#job = job;
    this.done = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    if (job.chunks.length === 0) this.#settle.resolve();
  }

  anyClaimable(): Promise<boolean> {
    return Promise.resolve(this.#next < this.#job.chunks.length);
  }

  /** One chunk at a time: a chunk is cut at a Census batch request's rows, as large as a group. */
  claim(): Promise<ClaimedChunk[]> {
    if (this.#next >= this.#job.chunks.length) return Promise.resolve([]);
    const seq = this.#next++;
    const { firstRow, rowCount } = this.#job.chunks[seq]!;
    return Promise.resolve([{ jobId: LOCAL_JOB, seq, firstRow, rowCount, attempts: 1, today: this.#job.today, requestId: this.#job.requestId }]);
  }

  work(chunk: ClaimedChunk) {
    return { input: this.#job.chunks[chunk.seq]!.input };
  }

  /** Nothing else claims from this queue: a lease here is never lost. */
  extend(): Promise<boolean> {
    return Promise.resolve(true);
  }

  /** The chunks' rows, kept until every chunk before them is written. */
  complete(group: readonly ClaimedChunk[], done: readonly ChunkDone[]): Promise<void> {
    group.forEach((chunk, k) => this.#results.set(chunk.seq, JSON.parse(done[k]!.output!) as RowResult[]));
    // One writer at a time, so a chunk is written once, in its place, however the completions interleave.
    this.#writing = this.#writing.then(async () => {
      for (let rows = this.#results.get(this.#written); rows !== undefined; rows = this.#results.get(this.#written)) {
        this.#results.delete(this.#written);
        await this.#job.write(rows, this.#written++);
      }
      if (this.#written === this.#job.chunks.length) this.#settle.resolve();
    });
    this.#writing.catch((error: unknown) => this.#settle.reject(error));
    return this.#writing;
  }

  /** Nothing here shows what a chunk waits for: the CLI's progress line says it (src/cli/batch-command.ts). */
  waits(): undefined {
    return undefined;
  }

  fail(_group: readonly ClaimedChunk[], error: unknown): void {
    this.#settle.reject(error);
  }

  /** Never asked: a chunk here is claimed once. */
  abandon(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
