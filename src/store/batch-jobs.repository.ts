/**
 * Batch jobs and their chunks. Chunks are claimed with a lease: on PostgreSQL the candidate row
 * is locked with FOR UPDATE SKIP LOCKED, so instances never wait on each other's claims; on
 * SQLite one writer at a time is the rule anyway, and the claim is a transaction whose UPDATE
 * re-checks the row is still claimable. Either way a chunk's results and the job's counters
 * are written in one transaction, and only by the holder of a live lease.
 */
import type { Selectable } from "kysely";
import type { Dialect } from "./connect.ts";
import type { BatchChunksTable, BatchFileFormat, BatchJobsTable } from "./batch-jobs.table.ts";
import type { Db } from "./database.ts";

export type BatchJob = Selectable<BatchJobsTable>;

export interface NewBatchJob {
  id: string;
  organizationId: string;
  apiKeyId: string;
  requestId: string;
  format: BatchFileFormat;
  today: string;
  total: number;
  /** JSON arrays of rows, in order; chunk i starts at row i * chunkRows + 1. */
  chunks: string[];
  chunkRows: number;
}

export interface ClaimedChunk {
  jobId: string;
  seq: number;
  firstRow: number;
  rowCount: number;
  input: string;
  today: string;
  requestId: string;
}

export async function insertBatchJob(db: Db, job: NewBatchJob, now: Date): Promise<BatchJob> {
  const row: BatchJob = {
    id: job.id,
    organization_id: job.organizationId,
    api_key_id: job.apiKeyId,
    request_id: job.requestId,
    format: job.format,
    status: "queued",
    today: job.today,
    total: job.total,
    done: 0,
    failed: 0,
    chunk_count: job.chunks.length,
    chunks_done: 0,
    created_at: now.toISOString(),
    started_at: null,
    completed_at: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("batch_jobs").values(row).execute();
    const chunks = job.chunks.map((input, seq) => ({
      job_id: job.id,
      seq,
      first_row: seq * job.chunkRows + 1,
      row_count: (JSON.parse(input) as unknown[]).length,
      input,
      status: "pending" as const,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 0,
      output: null,
    }));
    for (let i = 0; i < chunks.length; i += 100) await trx.insertInto("batch_chunks").values(chunks.slice(i, i + 100)).execute();
  });
  return row;
}

/** Only the owning organization sees a job: anyone else gets undefined, as if it did not exist. */
export async function findBatchJob(db: Db, organizationId: string, id: string): Promise<BatchJob | undefined> {
  return db.selectFrom("batch_jobs").selectAll().where("id", "=", id).where("organization_id", "=", organizationId).executeTakeFirst();
}

export async function claimChunk(db: Db, dialect: Dialect, owner: string, now: Date, leaseMs: number): Promise<ClaimedChunk | null> {
  const nowIso = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  for (let attempt = 0; attempt < 5; attempt++) {
    const claimed = await db.transaction().execute(async (trx) => {
      let candidate = trx
        .selectFrom("batch_chunks")
        .select(["job_id", "seq"])
        .where((eb) => eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "leased"), eb("lease_expires_at", "<", nowIso)])]))
        .orderBy("job_id")
        .orderBy("seq")
        .limit(1);
      if (dialect === "postgres") candidate = candidate.forUpdate().skipLocked();
      const row = await candidate.executeTakeFirst();
      if (!row) return "none" as const;
      const updated = await trx
        .updateTable("batch_chunks")
        .set((eb) => ({ status: "leased", lease_owner: owner, lease_expires_at: until, attempts: eb("attempts", "+", 1) }))
        .where("job_id", "=", row.job_id)
        .where("seq", "=", row.seq)
        .where((eb) => eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "leased"), eb("lease_expires_at", "<", nowIso)])]))
        .returning(["job_id", "seq", "first_row", "row_count", "input"])
        .executeTakeFirst();
      if (!updated) return "lost" as const;
      const job = await trx
        .updateTable("batch_jobs")
        .set((eb) => ({ status: "running", started_at: eb.fn.coalesce("started_at", eb.val(nowIso)) }))
        .where("id", "=", row.job_id)
        .returning(["today", "request_id"])
        .executeTakeFirstOrThrow();
      return { jobId: updated.job_id, seq: updated.seq, firstRow: updated.first_row, rowCount: updated.row_count, input: updated.input, today: job.today, requestId: job.request_id };
    });
    if (claimed === "none") return null;
    if (claimed !== "lost") return claimed;
  }
  return null;
}

/** Chunks claimed one by one until they hold `groupRows` rows or none is left. */
export async function claimGroup(db: Db, dialect: Dialect, owner: string, now: Date, leaseMs: number, groupRows: number): Promise<ClaimedChunk[]> {
  const group: ClaimedChunk[] = [];
  let rows = 0;
  while (rows < groupRows) {
    const chunk = await claimChunk(db, dialect, owner, now, leaseMs);
    if (!chunk) break;
    group.push(chunk);
    rows += chunk.rowCount;
  }
  return group;
}

/** Keeps a lease alive while a slow chunk (a real geocoder upstream) is being worked on. */
export async function extendLease(db: Db, jobId: string, seq: number, owner: string, until: Date): Promise<boolean> {
  const result = await db
    .updateTable("batch_chunks")
    .set({ lease_expires_at: until.toISOString() })
    .where("job_id", "=", jobId)
    .where("seq", "=", seq)
    .where("status", "=", "leased")
    .where("lease_owner", "=", owner)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Stores a chunk's results and adds them to the job's counters, atomically, if `owner` still
 * holds the lease. Returns false (and writes nothing) when the lease was lost to another worker.
 */
export async function completeChunk(
  db: Db,
  chunk: { jobId: string; seq: number },
  owner: string,
  output: string,
  counts: { done: number; failed: number },
  now: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const stored = await trx
      .updateTable("batch_chunks")
      .set({ status: "done", output, lease_owner: null, lease_expires_at: null })
      .where("job_id", "=", chunk.jobId)
      .where("seq", "=", chunk.seq)
      .where("status", "=", "leased")
      .where("lease_owner", "=", owner)
      .executeTakeFirst();
    if (stored.numUpdatedRows === 0n) return false;
    await trx
      .updateTable("batch_jobs")
      .set((eb) => ({
        done: eb("done", "+", counts.done),
        failed: eb("failed", "+", counts.failed),
        chunks_done: eb("chunks_done", "+", 1),
      }))
      .where("id", "=", chunk.jobId)
      .execute();
    await trx
      .updateTable("batch_jobs")
      .set({ status: "completed", completed_at: now.toISOString() })
      .where("id", "=", chunk.jobId)
      .whereRef("chunks_done", "=", "chunk_count")
      .execute();
    return true;
  });
}

/** Finished chunks' outputs in row order, a page at a time, for streaming the results. */
export async function readChunkOutputs(db: Db, jobId: string, fromSeq: number, limit: number): Promise<Array<Pick<Selectable<BatchChunksTable>, "seq" | "first_row" | "output">>> {
  return db
    .selectFrom("batch_chunks")
    .select(["seq", "first_row", "output"])
    .where("job_id", "=", jobId)
    .where("seq", ">=", fromSeq)
    .orderBy("seq")
    .limit(limit)
    .execute();
}
