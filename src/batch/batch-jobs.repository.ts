/**
 * Batch jobs and their chunks. Chunks are claimed with a lease: on PostgreSQL the candidate row
 * is locked with FOR UPDATE SKIP LOCKED, so instances never wait on each other's claims; on
 * SQLite one writer at a time is the rule anyway, and the claim is a transaction whose UPDATE
 * re-checks the row is still claimable. Either way a chunk's results and the job's counters
 * are written in one transaction, and only by the holder of a live lease. Which chunk a claim
 * takes is the fair-shares rule: organizations take turns, and each has a cap on running jobs.
 */
import { sql, type ExpressionBuilder, type Selectable } from "kysely";
import type { ChunkResults } from "../lookup/chunk-work.ts";
import type { RowResult } from "../lookup/item-result.ts";
import { packResults } from "./packed-results.ts";
import type { NewBatchChunk } from "./read-batch-file.ts";
import type { BatchChunksTable, BatchFileFormat, BatchJobKind, BatchJobLedger, BatchJobsTable } from "../store/batch-jobs.table.ts";
import type { Dialect } from "../store/connect.ts";
import type { Database, Db } from "../store/database.ts";
import { pacedSteps } from "../store/paced-steps.ts";

export type BatchJob = Selectable<BatchJobsTable>;

export interface NewBatchJob {
  id: string;
  organizationId: string;
  apiKeyId: string;
  requestId: string;
  format: BatchFileFormat;
  today: string;
  total: number;
  /** The upload's columns Buckeye does not read; none when absent. */
  ignoredColumns?: readonly string[];
  /** In order. */
  chunks: NewBatchChunk[];
  /** Rate lookups when absent. */
  kind?: BatchJobKind;
  /** An orders job's ledger to record into; calculated only when absent. */
  ledger?: BatchJobLedger | null;
}

/**
 * A chunk claimed under a lease, without its rows: the thread that resolves it reads them
 * (readLeasedInput), so a claim group's text never travels through the thread that claimed it.
 */
export interface ClaimedChunk {
  jobId: string;
  seq: number;
  firstRow: number;
  rowCount: number;
  /** Claims of this chunk so far, this one included: more than the cap means its rows are given up (see the runner). */
  attempts: number;
  today: string;
  requestId: string;
  /** A chunk of an orders job: whose sales they are, and the ledger they are recorded into (null: calculated only). Absent: rate lookups. */
  orders?: OrderChunkOwner;
}

export interface OrderChunkOwner {
  organizationId: string;
  ledger: BatchJobLedger | null;
}

/**
 * Stores the job with its chunks in one transaction. `admit` runs first inside it and may throw to
 * store nothing: a cap counted there, under a lock it takes, cannot be raced by another upload.
 */
export async function insertBatchJob(db: Db, job: NewBatchJob, now: Date, admit?: (trx: Db) => Promise<void>): Promise<BatchJob> {
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
    deleted_at: null,
    ignored_columns: (job.ignoredColumns ?? []).length === 0 ? null : JSON.stringify(job.ignoredColumns),
    waiting_for: null,
    kind: job.kind ?? "rates",
    ledger: job.ledger ?? null,
  };
  await db.transaction().execute(async (trx) => {
    await admit?.(trx);
    await trx.insertInto("batch_jobs").values(row).execute();
    const chunks = job.chunks.map(({ firstRow, rowCount, input }, seq) => ({
      job_id: job.id,
      seq,
      first_row: firstRow,
      row_count: rowCount,
      input,
      status: "pending" as const,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 0,
      output: null,
      packed_output: null,
    }));
    for (let i = 0; i < chunks.length; i += 100) await trx.insertInto("batch_chunks").values(chunks.slice(i, i + 100)).execute();
  });
  return row;
}

/** Only the owning organization sees a job, and only until it is deleted: anyone else gets undefined, as if it did not exist. */
export async function findBatchJob(db: Db, organizationId: string, id: string): Promise<BatchJob | undefined> {
  return db.selectFrom("batch_jobs").selectAll().where("id", "=", id).where("organization_id", "=", organizationId).where("deleted_at", "is", null).executeTakeFirst();
}

/**
 * An organization's jobs not deleted: those queued or running, and all of them (completed ones too).
 * `excluding` names jobs the caller counts otherwise (uploads it is still answering for).
 */
export async function countBatchJobs(db: Db, organizationId: string, excluding: readonly string[] = []): Promise<{ inFlight: number; stored: number }> {
  let query = db
    .selectFrom("batch_jobs")
    .select((eb) => [
      eb.fn.countAll<number | string>().as("stored"),
      eb.fn.sum<number | string | null>(eb.case().when("status", "<>", "completed").then(1).else(0).end()).as("in_flight"),
    ])
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null);
  if (excluding.length > 0) query = query.where("id", "not in", excluding);
  const row = await query.executeTakeFirstOrThrow();
  return { inFlight: Number(row.in_flight ?? 0), stored: Number(row.stored) };
}

/**
 * Deletes a job as its organization sees it: one small write marks it, and from then on it is not
 * found, no claim takes its chunks and a runner's late results change nothing. The rows go in
 * purgeDeletedJob. False when the organization has no such job (or it was deleted already).
 */
export async function markBatchJobDeleted(db: Db, organizationId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("batch_jobs")
    .set({ deleted_at: now.toISOString() })
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Which organizations' jobs a retention pass looks at: one organization's, or every one's but some. */
export type RetentionScope = { organizationId: string } | { except: readonly string[] };

/** Marks up to `limit` jobs completed before `before` deleted (within `scope`), oldest first; returns how many. */
export async function markExpiredJobsDeleted(db: Db, before: Date, now: Date, limit: number, scope: RetentionScope = { except: [] }): Promise<number> {
  const result = await db
    .updateTable("batch_jobs")
    .set({ deleted_at: now.toISOString() })
    .where("id", "in", (eb) =>
      eb
        .selectFrom("batch_jobs")
        .select("id")
        // The literal is the condition of the batch_jobs_completed index.
        .where("status", "=", sql.lit("completed"))
        .where("completed_at", "<", before.toISOString())
        .where("deleted_at", "is", null)
        .$if("organizationId" in scope, (q) => q.where("organization_id", "=", (scope as { organizationId: string }).organizationId))
        .$if("except" in scope && scope.except.length > 0, (q) => q.where("organization_id", "not in", (scope as { except: readonly string[] }).except))
        .orderBy("completed_at")
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Jobs marked deleted whose rows are still stored, at most `limit`. */
export async function listDeletedJobs(db: Db, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("batch_jobs").select("id").where("deleted_at", "is not", null).orderBy("deleted_at").limit(limit).execute();
  return rows.map((row) => row.id);
}

/**
 * Chunks deleted per transaction when a deleted job is purged: one page of results (a chunk of 500
 * rows holds about 0.7 MB of input and results; one of long rows up to a few MB), so no step holds
 * SQLite's write lock for more than a few milliseconds.
 */
export const PURGE_CHUNKS_PER_STEP = 2;

/**
 * Deletes a job marked deleted: its chunks PURGE_CHUNKS_PER_STEP at a time, each step a
 * transaction of its own with a pause after it for other writers (paced-steps.ts), then the job. A
 * chunk a runner still holds goes too; its late write finds nothing to update. Returns the chunks
 * deleted. `signal` stops it between steps: the job keeps its mark, and the retention sweep
 * finishes it (listDeletedJobs).
 */
export async function purgeDeletedJob(db: Db, jobId: string, signal?: AbortSignal): Promise<number> {
  const chunks = await pacedSteps(async () => {
    const result = await db
      .deleteFrom("batch_chunks")
      .where("job_id", "=", jobId)
      .where("seq", "in", (eb) => eb.selectFrom("batch_chunks").select("seq").where("job_id", "=", jobId).orderBy("seq").limit(PURGE_CHUNKS_PER_STEP))
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    return { done: deleted, full: deleted === PURGE_CHUNKS_PER_STEP };
  }, signal);
  if (signal?.aborted) return chunks;
  await db.deleteFrom("batch_jobs").where("id", "=", jobId).where("deleted_at", "is not", null).execute();
  return chunks;
}

/** What a claim may take: a pending chunk, or one whose lease lapsed (its runner died or gave up). */
function claimable(eb: ExpressionBuilder<Database, "batch_chunks">, nowIso: string) {
  // The literal `<> 'done'` is the condition of the batch_chunks_open index, so the planner uses it.
  return eb.and([eb("status", "<>", sql.lit("done")), eb.or([eb("status", "=", "pending"), eb("lease_expires_at", "<", nowIso)])]);
}

/**
 * Whether any chunk may be claimed now: one indexed read, outside any transaction, so an idle
 * runner takes no lock and starts no thread (a claim is a write transaction).
 */
export async function anyClaimable(db: Db, now: Date): Promise<boolean> {
  const nowIso = now.toISOString();
  const row = await db
    .selectFrom("batch_chunks")
    .select("seq")
    .where((eb) => claimable(eb, nowIso))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Jobs the claim looks at per round, in order; more than one only matters when another instance holds the first's chunks. */
const CANDIDATE_JOBS = 4;

/**
 * Claims the next chunk under a lease, by the fair-shares rule (docs/guides/address-resolution.md,
 * "Fair shares"): the organization whose turn is oldest goes first (one never served before any
 * other), then its oldest job, then that job's lowest chunk. An organization with
 * `runningPerOrganization` jobs running starts no other: its next job stays queued. The claim moves
 * the organization's turn to the back. `attempts` on the answer counts this claim.
 */
export async function claimChunk(db: Db, dialect: Dialect, owner: string, now: Date, leaseMs: number, runningPerOrganization: number): Promise<ClaimedChunk | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const claimed = await db.transaction().execute((trx) => claimNext(trx, dialect, owner, now, leaseMs, runningPerOrganization));
    if (claimed === "none") return null;
    if (claimed !== "lost") return claimed;
  }
  return null;
}

/** One claim's statements, in the caller's transaction: the chunk, "none" when nothing is claimable, "lost" when another claim took it first. */
async function claimNext(trx: Db, dialect: Dialect, owner: string, now: Date, leaseMs: number, runningPerOrganization: number): Promise<ClaimedChunk | "none" | "lost"> {
  const nowIso = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const jobs = await candidateJobs(trx, nowIso, runningPerOrganization);
  for (const job of jobs) {
    let candidate = trx.selectFrom("batch_chunks").select("seq").where("job_id", "=", job.id).where((eb) => claimable(eb, nowIso)).orderBy("seq").limit(1);
    // Another instance's claim in flight holds its chunk locked: take the next chunk rather than wait.
    if (dialect === "postgres") candidate = candidate.forUpdate().skipLocked();
    const row = await candidate.executeTakeFirst();
    if (!row) continue;
    const updated = await trx
      .updateTable("batch_chunks")
      .set((eb) => ({ status: "leased", lease_owner: owner, lease_expires_at: until, attempts: eb("attempts", "+", 1) }))
      .where("job_id", "=", job.id)
      .where("seq", "=", row.seq)
      .where((eb) => claimable(eb, nowIso))
      .returning(["job_id", "seq", "first_row", "row_count", "attempts"])
      .executeTakeFirst();
    if (!updated) return "lost";
    // Only a queued job is written (and so locked): a running job's row is left to the completions that count its chunks.
    if (job.status === "queued") {
      await trx
        .updateTable("batch_jobs")
        .set((eb) => ({ status: "running", started_at: eb.fn.coalesce("started_at", eb.val(nowIso)) }))
        .where("id", "=", job.id)
        .where("status", "=", "queued")
        .execute();
    }
    await trx
      .insertInto("batch_turns")
      .values({ organization_id: job.organization_id, turn: sql<number>`(select coalesce(max(turn), 0) + 1 from batch_turns)` })
      .onConflict((oc) => oc.column("organization_id").doUpdateSet((eb) => ({ turn: eb.ref("excluded.turn") })))
      .execute();
    return {
      jobId: updated.job_id,
      seq: updated.seq,
      firstRow: updated.first_row,
      rowCount: updated.row_count,
      attempts: updated.attempts,
      today: job.today,
      requestId: job.request_id,
      ...(job.kind === "orders" && { orders: { organizationId: job.organization_id, ledger: job.ledger } }),
    };
  }
  return "none";
}

/**
 * The jobs a claim may take a chunk from, best first. Per organization, its running jobs and then
 * its queued ones oldest first are numbered, and only the first `runningPerOrganization` may be
 * worked: a queued job gets a place only when fewer jobs than that are running. Organizations come
 * in turn order; ties (several never served) go to the oldest job. Jobs none of whose chunks is
 * claimable now (all leased or done) are left out.
 */
async function candidateJobs(
  trx: Db,
  nowIso: string,
  runningPerOrganization: number,
): Promise<Array<Pick<BatchJob, "id" | "organization_id" | "status" | "today" | "request_id" | "kind" | "ledger">>> {
  return trx
    .with("unfinished", (qb) =>
      qb
        .selectFrom("batch_jobs")
        .select((eb) => [
          "id",
          "organization_id",
          "status",
          "today",
          "request_id",
          "kind",
          "ledger",
          "created_at",
          eb.fn
            .agg<number>("row_number")
            .over((ob) => ob.partitionBy("organization_id").orderBy(sql`case when status = 'running' then 0 else 1 end`).orderBy("created_at").orderBy("id"))
            .as("place"),
        ])
        // The literal is the condition of the batch_jobs_unfinished index.
        .where("status", "<>", sql.lit("completed"))
        .where("deleted_at", "is", null),
    )
    .selectFrom("unfinished as j")
    .leftJoin("batch_turns as t", "t.organization_id", "j.organization_id")
    .select(["j.id", "j.organization_id", "j.status", "j.today", "j.request_id", "j.kind", "j.ledger"])
    .where("j.place", "<=", runningPerOrganization)
    .where((eb) => eb.exists(eb.selectFrom("batch_chunks").select("seq").whereRef("job_id", "=", "j.id").where((inner) => claimable(inner, nowIso))))
    .orderBy(sql`coalesce(t.turn, 0)`)
    .orderBy("j.created_at")
    .orderBy("j.id")
    .limit(CANDIDATE_JOBS)
    .execute();
}

/**
 * Chunks claimed one by one, by the fair-shares rule, until they hold `groupRows` rows or none is
 * left. On PostgreSQL the whole group is one transaction: each commit waits for the write-ahead log
 * to reach the disk (3 to 46 ms measured on the 2-core machine, docs/operations/benchmarks.md), so
 * twenty commits per group were most of a job's time. The group's claims hold the turns they move
 * until it commits, so a transaction-scoped advisory lock takes the groups of all instances one at
 * a time (per schema): two groups moving the same organizations' turns in opposite orders would
 * otherwise deadlock. On SQLite each claim stays a transaction of its own, so the one write lock
 * of the database is held for one claim at a time.
 */
export async function claimGroup(db: Db, dialect: Dialect, owner: string, now: Date, leaseMs: number, groupRows: number, runningPerOrganization: number): Promise<ClaimedChunk[]> {
  if (dialect === "postgres") {
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.batch_claims'))`.execute(trx);
      const group: ClaimedChunk[] = [];
      let rows = 0;
      let lost = 0;
      while (rows < groupRows && lost < 5) {
        const chunk = await claimNext(trx, dialect, owner, now, leaseMs, runningPerOrganization);
        if (chunk === "none") break;
        if (chunk === "lost") {
          lost++;
          continue;
        }
        group.push(chunk);
        rows += chunk.rowCount;
      }
      return group;
    });
  }
  const group: ClaimedChunk[] = [];
  let rows = 0;
  while (rows < groupRows) {
    let chunk: ClaimedChunk | null;
    try {
      chunk = await claimChunk(db, dialect, owner, now, leaseMs, runningPerOrganization);
    } catch (error) {
      // The chunks claimed so far are leased to `owner`: handed back, they are worked now rather than
      // left until their leases lapse.
      if (group.length > 0) break;
      throw error;
    }
    if (!chunk) break;
    group.push(chunk);
    rows += chunk.rowCount;
  }
  return group;
}

/** The rows of several leased chunks (JSON arrays' text) in one read, by `jobId:seq`; a chunk whose lease `owner` no longer holds is missing. */
export async function readLeasedInputs(db: Db, chunks: ReadonlyArray<{ jobId: string; seq: number }>, owner: string): Promise<Map<string, string>> {
  const inputs = new Map<string, string>();
  for (const jobId of new Set(chunks.map((chunk) => chunk.jobId))) {
    const seqs = chunks.filter((chunk) => chunk.jobId === jobId).map((chunk) => chunk.seq);
    const rows = await db
      .selectFrom("batch_chunks")
      .select(["seq", "input"])
      .where("job_id", "=", jobId)
      .where("seq", "in", seqs)
      .where("status", "=", "leased")
      .where("lease_owner", "=", owner)
      .execute();
    for (const row of rows) inputs.set(`${jobId}:${row.seq}`, row.input);
  }
  return inputs;
}

/** A leased chunk's rows (a JSON array's text), or null when `owner` no longer holds its lease (or the chunk is gone). */
export async function readLeasedInput(db: Db, chunk: { jobId: string; seq: number }, owner: string): Promise<string | null> {
  const row = await db
    .selectFrom("batch_chunks")
    .select("input")
    .where("job_id", "=", chunk.jobId)
    .where("seq", "=", chunk.seq)
    .where("status", "=", "leased")
    .where("lease_owner", "=", owner)
    .executeTakeFirst();
  return row?.input ?? null;
}

/** Says on each of the jobs what it waits for (the JSON of src/batch/job-waiting-for.ts), for every instance to show. */
export async function setJobsWaitingFor(db: Db, jobIds: readonly string[], waitingFor: string): Promise<void> {
  await db.updateTable("batch_jobs").set({ waiting_for: waitingFor }).where("id", "in", jobIds).where("deleted_at", "is", null).execute();
}

/** Clears what setJobsWaitingFor wrote, where it is still that: a wait another runner wrote since is its to clear. */
export async function clearJobsWaitingFor(db: Db, jobIds: readonly string[], waitingFor: string): Promise<void> {
  await db.updateTable("batch_jobs").set({ waiting_for: null }).where("id", "in", jobIds).where("waiting_for", "=", waitingFor).execute();
}

/**
 * Keeps a lease alive while a slow chunk (a real geocoder upstream) is being worked on. False when
 * `owner` no longer holds it or its job was deleted: the runner then stops working it.
 */
export async function extendLease(db: Db, jobId: string, seq: number, owner: string, until: Date): Promise<boolean> {
  const result = await db
    .updateTable("batch_chunks")
    .set({ lease_expires_at: until.toISOString() })
    .where("job_id", "=", jobId)
    .where("seq", "=", seq)
    .where("status", "=", "leased")
    .where("lease_owner", "=", owner)
    .where((eb) => eb.exists(eb.selectFrom("batch_jobs").select("id").where("id", "=", jobId).where("deleted_at", "is", null)))
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
  rows: readonly RowResult[],
  counts: { done: number; failed: number },
  now: Date,
): Promise<boolean> {
  const [stored] = await db.transaction().execute((trx) => storeResults(trx, owner, [{ jobId: chunk.jobId, seq: chunk.seq, rows, counts }], now));
  return stored!;
}

/**
 * completeChunk for a group of chunks, in order: whether each was stored. On PostgreSQL one
 * transaction (one commit, one wait for the disk) stores them all; on SQLite each is a transaction
 * of its own, so the database's one write lock is never held for a whole group's results.
 */
export async function completeChunks(db: Db, dialect: Dialect, owner: string, chunks: readonly ChunkResults[], now: Date): Promise<boolean[]> {
  if (dialect === "postgres") return db.transaction().execute((trx) => storeResults(trx, owner, chunks, now));
  const stored: boolean[] = [];
  for (const chunk of chunks) stored.push(...(await db.transaction().execute((trx) => storeResults(trx, owner, [chunk], now))));
  return stored;
}

/**
 * The chunks' results, each packed (packed-results.ts) as it is written and only under `owner`'s lease, then each job's counters once: one UPDATE
 * per job (in id order, so two instances' groups lock the same jobs in the same order) that also
 * completes it when its last chunk is counted.
 */
async function storeResults(trx: Db, owner: string, chunks: readonly ChunkResults[], now: Date): Promise<boolean[]> {
  const stored: boolean[] = [];
  const perJob = new Map<string, { done: number; failed: number; chunks: number }>();
  for (const chunk of chunks) {
    const result = await trx
      .updateTable("batch_chunks")
      .set({ status: "done", packed_output: packResults(chunk.rows), lease_owner: null, lease_expires_at: null })
      .where("job_id", "=", chunk.jobId)
      .where("seq", "=", chunk.seq)
      .where("status", "=", "leased")
      .where("lease_owner", "=", owner)
      .executeTakeFirst();
    const ok = result.numUpdatedRows > 0n;
    stored.push(ok);
    if (!ok) continue;
    const sum = perJob.get(chunk.jobId) ?? { done: 0, failed: 0, chunks: 0 };
    perJob.set(chunk.jobId, { done: sum.done + chunk.counts.done, failed: sum.failed + chunk.counts.failed, chunks: sum.chunks + 1 });
  }
  for (const [jobId, sum] of [...perJob].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // The SET expressions read the row as it was before this UPDATE, so "last chunk" is chunks_done + this group's.
    const last = sql<boolean>`chunks_done + ${sum.chunks} = chunk_count`;
    await trx
      .updateTable("batch_jobs")
      .set((eb) => ({
        done: eb("done", "+", sum.done),
        failed: eb("failed", "+", sum.failed),
        chunks_done: eb("chunks_done", "+", sum.chunks),
        status: sql`case when ${last} then 'completed' else status end`,
        completed_at: sql`case when ${last} then ${now.toISOString()} else completed_at end`,
      }))
      .where("id", "=", jobId)
      .where("deleted_at", "is", null)
      .execute();
  }
  return stored;
}

/**
 * Finished chunks' outputs in row order, a page at a time, for streaming the results. Nothing once
 * the job is marked deleted: a download cut by a delete stops at the next page, whether or not the
 * purge has reached its chunks yet. With `withInput`, their rows as uploaded too: the Finder files
 * give each row's fields back.
 */
export async function readChunkOutputs(
  db: Db,
  jobId: string,
  fromSeq: number,
  limit: number,
  withInput = false,
): Promise<Array<Pick<Selectable<BatchChunksTable>, "seq" | "first_row" | "output" | "packed_output"> & { input?: string }>> {
  return db
    .selectFrom("batch_chunks")
    .select(withInput ? ["seq", "first_row", "output", "packed_output", "input"] : ["seq", "first_row", "output", "packed_output"])
    .where("job_id", "=", jobId)
    .where("seq", ">=", fromSeq)
    .where((eb) => eb.exists(eb.selectFrom("batch_jobs").select("id").where("id", "=", jobId).where("deleted_at", "is", null)))
    .orderBy("seq")
    .limit(limit)
    .execute();
}
