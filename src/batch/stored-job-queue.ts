/**
 * The job queue in the store (job-queue.ts): the chunks of the API's jobs, shared by every instance.
 * Claims, results and given-up chunks are written in the pool's batch lane (job-tasks.ts, src/lookup/batch-tasks.ts),
 * since on SQLite every commit waits on the disk on the thread that makes it; a lease's renewal is
 * one small write made here, skipped rather than waited for while the batch lane holds SQLite's lock.
 * After a restart, chunks still leased by the old process are claimed again once their lease expires;
 * its late writes, if any, are refused (completeChunk in the store), so no row is lost or doubled.
 */
import type SQLite from "better-sqlite3";
import type { ChunkDone } from "../lookup/chunk-work.ts";
import { anyClaimable, extendLease, type ClaimedChunk } from "./batch-jobs.repository.ts";
import type { Db } from "../store/database.ts";
import { writeIfUnlocked } from "../store/write-if-unlocked.ts";
import type { ClaimLimits, JobQueue } from "./job-queue.ts";
import { JobWaits } from "./job-waiting-for.ts";
import type { BatchJobService } from "./job-service.ts";

export interface StoredJobQueueOptions {
  db: Db;
  /** The connection's SQLite handle, when the store is SQLite: a renewal then never waits for the write lock. */
  sqlite?: SQLite.Database;
  jobs: Pick<BatchJobService, "claimGroup" | "abandonChunk">;
  now: () => Date;
  log: (entry: Record<string, unknown>) => void;
}

export class StoredJobQueue implements JobQueue {
  readonly #options: StoredJobQueueOptions;

  constructor(options: StoredJobQueueOptions) {
    this.#options = options;
  }

  anyClaimable(): Promise<boolean> {
    return anyClaimable(this.#options.db, this.#options.now());
  }

  claim(owner: string, limits: ClaimLimits, signal?: AbortSignal): Promise<ClaimedChunk[]> {
    return this.#options.jobs.claimGroup(owner, limits.leaseMs, limits.groupRows, limits.runningPerOrganization, signal);
  }

  work(chunk: ClaimedChunk, owner: string) {
    return { lease: { jobId: chunk.jobId, seq: chunk.seq, owner } };
  }

  async extend(chunk: ClaimedChunk, owner: string, leaseMs: number): Promise<boolean | null> {
    const { db, sqlite, now } = this.#options;
    let renewed = true;
    const written = await writeIfUnlocked(db, sqlite, async (trx) => {
      renewed = await extendLease(trx, chunk.jobId, chunk.seq, owner, new Date(now().getTime() + leaseMs));
    });
    return written ? renewed : null;
  }

  /** The batch lane stored each chunk's results under its lease; one it could not store is only reported. */
  async complete(group: readonly ClaimedChunk[], done: readonly ChunkDone[]): Promise<void> {
    group.forEach((chunk, k) => {
      if (!done[k]!.stored) this.#options.log({ level: "warn", msg: "batch chunk not stored: its lease was lost (another worker's results were kept) or its job was deleted", job: chunk.jobId, chunk: chunk.seq });
    });
  }

  /** The group's jobs' rows say what they wait for (job-waiting-for.ts), for every instance to show. */
  waits(group: readonly ClaimedChunk[]): JobWaits {
    return new JobWaits(this.#options.db, [...new Set(group.map((chunk) => chunk.jobId))], this.#options.log);
  }

  /** Nothing to undo: the chunks' leases lapse and they are claimed again. */
  fail(): void {}

  abandon(chunk: ClaimedChunk, owner: string): Promise<boolean> {
    return this.#options.jobs.abandonChunk({ jobId: chunk.jobId, seq: chunk.seq, owner }, chunk.firstRow, chunk.attempts);
  }
}
