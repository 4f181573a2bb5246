/**
 * The job queue's work in a batch-lane thread (workers/batch-lane.ts wires it up beside lookup/'s
 * batch-tasks.ts): reading an upload (read-batch-file.ts), storing it as a job with its chunks, claiming chunk groups, giving up a
 * chunk claimed too often, and the leased chunks' rows and results that the resolving tasks read and
 * store (`storedChunks`). They run there, on the thread's own store connection, for the reason
 * lookup/batch-tasks.ts gives: a commit of a chunk group's results waits on the disk, and
 * better-sqlite3 waits on the thread that asks. The answering thread runs them through `runJobTask`.
 */
import type { LeasedChunks } from "../lookup/batch-tasks.ts";
import type { ChunkLease } from "../lookup/chunk-work.ts";
import { failure, type RowResult } from "../lookup/item-result.ts";
import { jobCapRefusal, type JobCaps, type JobRefusal } from "./job-admission.ts";
import { rawId } from "../lookup/lookup-item.ts";
import { readBatchFile, type BatchFileReading } from "./read-batch-file.ts";
import { readOrdersFile } from "./read-orders-file.ts";
import type { BatchFileFormat, BatchJobKind, BatchJobLedger } from "../store/batch-jobs.table.ts";
import type { GeoPool } from "../lookup/worker-pool.ts";
import type { ColumnChoice } from "../lookup/export-headers.ts";
import type { Store } from "../store/connect.ts";
import type { Db } from "../store/database.ts";
import { lockOrganization } from "../store/organizations.repository.ts";
import {
  claimGroup,
  completeChunk,
  completeChunks,
  countBatchJobs,
  insertBatchJob,
  readLeasedInput,
  readLeasedInputs,
  type BatchJob,
  type ClaimedChunk,
  type NewBatchJob,
} from "./batch-jobs.repository.ts";

/** An upload to read, cut into chunks and store as a job with them. */
export interface JobUpload {
  /** UTF-8, as uploaded. */
  bytes: Uint8Array;
  format: BatchFileFormat;
  maxRows: number;
  /** Rows per chunk at most (a chunk of long rows is cut sooner). */
  chunkRows: number;
  job: Omit<NewBatchJob, "total" | "chunks" | "format">;
  /** The organization's caps, held again as the job is stored; null: none. */
  caps: JobCaps | null;
  /** ISO time of acceptance, from the service's clock. */
  now: string;
  /** The client's column mapping and address side, for a CSV's header. */
  choice?: ColumnChoice;
  /** Orders (read-orders-file.ts) rather than lookups; and for orders, the ledger they are recorded into (null: calculated only). */
  orders?: { ledger: BatchJobLedger | null };
}

/** A job's leased chunks in the store: read and completed only under a live lease. */
export const storedChunks: LeasedChunks = {
  read: (store, leases, owner) => readLeasedInputs(store.db, leases, owner),
  write: (store, owner, chunks, now) => completeChunks(store.db, store.dialect, owner, chunks, now),
};

/** `openedStore`: the thread's store connection, the one its resolving tasks use. */
export function createJobTasks(openedStore: () => Store | null) {
  return {
    /** Reads an upload into chunks, without storing it (`buckeye batch`, whose queue is in memory). */
    readBatchFile(input: { bytes: Uint8Array; format: BatchFileFormat; maxRows: number; chunkRows: number; choice?: ColumnChoice }): BatchFileReading {
      return readBatchFile(input.bytes, input.format, input.maxRows, input.chunkRows, input.choice);
    },

    /** Claims a group of chunks for `owner` (the runner on the answering thread serialises its claims). */
    async claimGroup(input: { owner: string; now: string; leaseMs: number; groupRows: number; runningPerOrganization: number }): Promise<ClaimedChunk[]> {
      const opened = openedStore()!;
      return claimGroup(opened.db, opened.dialect, input.owner, new Date(input.now), input.leaseMs, input.groupRows, input.runningPerOrganization);
    },

    /**
     * A chunk claimed more than the runner's attempts allow: its rows are stored as failures
     * (`batch-row-abandoned`) under the lease, without being resolved, so the fault that stopped its
     * runners cannot recur. Only the rows' ids are read. Whether it was stored (false: lease lost or chunk gone).
     */
    async abandonChunk(input: { lease: ChunkLease; firstRow: number; attempts: number; now: string }): Promise<boolean> {
      const { lease, firstRow } = input;
      const db = openedStore()!.db;
      const text = await readLeasedInput(db, lease, lease.owner);
      if (text === null) return false;
      const raws = JSON.parse(text) as unknown[];
      const tries = input.attempts - 1;
      const result = failure(
        "batch-row-abandoned",
        `Rows ${firstRow}–${firstRow + raws.length - 1} of this job were tried ${tries} times and never finished (the runner stopped or failed each time), so they were given up and the rest of the job went on. Submit this row again.`,
      );
      const rows: RowResult[] = raws.map((raw, i) => ({ row: firstRow + i, id: rawId(raw), result }));
      return completeChunk(db, lease, lease.owner, rows, { done: rows.length, failed: rows.length }, new Date(input.now));
    },

    /** Reads an upload and stores it as a job with its chunks, in one transaction; or the reason it is refused. */
    async acceptJob(input: JobUpload): Promise<{ ok: true; job: BatchJob } | Extract<BatchFileReading, { ok: false }> | JobRefusal> {
      const { orders } = input;
      const reading =
        orders && input.format !== "finder"
          ? readOrdersFile(input.bytes, input.format, input.maxRows, input.chunkRows)
          : readBatchFile(input.bytes, input.format, input.maxRows, input.chunkRows, input.choice);
      if (!reading.ok) return reading;
      const kind: BatchJobKind = orders ? "orders" : "rates";
      const { caps, job: fields } = input;
      // Counted and stored under the organization's lock: the answering thread's check passes uploads sent at
      // once together, and this one lets through only as many as the caps leave room for.
      const admit = caps
        ? async (trx: Db) => {
            await lockOrganization(trx, fields.organizationId);
            const refusal = jobCapRefusal(await countBatchJobs(trx, fields.organizationId), caps);
            if (refusal) throw new CapReached(refusal);
          }
        : undefined;
      try {
        const job = await insertBatchJob(openedStore()!.db, { ...fields, format: input.format, total: reading.total, ignoredColumns: reading.ignoredColumns, chunks: reading.chunks, kind, ledger: orders?.ledger ?? null }, new Date(input.now), admit);
        return { ok: true, job };
      } catch (error) {
        if (error instanceof CapReached) return error.refusal;
        throw error;
      }
    },
  };
}

export type JobTasks = ReturnType<typeof createJobTasks>;

/** Runs one of the job tasks in the pool's batch lane: the pool knows the lane, these tasks' types are this room's. */
export function runJobTask<N extends keyof JobTasks>(
  pool: Pick<GeoPool, "runInBatchLane">,
  name: N,
  input: Parameters<JobTasks[N]>[0],
  options?: Parameters<GeoPool["runInBatchLane"]>[2],
): Promise<Awaited<ReturnType<JobTasks[N]>>> {
  return pool.runInBatchLane(name, input, options) as Promise<Awaited<ReturnType<JobTasks[N]>>>;
}

/** Thrown inside the storing transaction when the caps leave no room, so nothing of the job is written. */
class CapReached extends Error {
  constructor(readonly refusal: JobRefusal) {
    super(refusal.detail);
  }
}
