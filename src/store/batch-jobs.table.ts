/**
 * Rows of the batch job tables (migrations/2026-11-21-020-batch-jobs.ts). Their queries live with the
 * batch room (src/batch/batch-jobs.repository.ts); the rows stay here, beside database.ts, whose
 * Database lists every table, so the store imports no room above it.
 */
import type { ColumnType } from "kysely";

export type BatchJobStatus = "queued" | "running" | "completed";
export type BatchChunkStatus = "pending" | "leased" | "done";
/** "finder": a headerless CSV in Ohio's Finder layout (src/lookup/finder-layout.ts). */
export type BatchFileFormat = "csv" | "ndjson" | "finder";
/** What a job's rows are: rate lookups, or orders whose tax is calculated (migrations/2026-12-02-440-batch-order-jobs.ts). */
export type BatchJobKind = "rates" | "orders";
/** The ledger an orders job records its sales into: the uploading key's environment. */
export type BatchJobLedger = "test" | "live";

export interface BatchJobsTable {
  id: string;
  organization_id: string;
  api_key_id: string;
  request_id: string;
  format: BatchFileFormat;
  status: BatchJobStatus;
  /** "Today" in Ohio when the job was accepted: rows without a date are evaluated for it, even if resumed later. */
  today: string;
  total: number;
  done: number;
  failed: number;
  chunk_count: number;
  chunks_done: number;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Set when the job is deleted (migrations/2026-11-25-230-retention.ts): it is gone for everyone, and its chunks are being deleted. */
  deleted_at: string | null;
  /** JSON array of the upload's columns Buckeye does not read (migrations/2026-11-27-260-batch-ignored-columns.ts); null: none, or stored before. */
  ignored_columns: string | null;
  /** JSON of what the running job waits for (src/batch/job-waiting-for.ts; migrations/2026-11-27-340-batch-waiting-for.ts); null: nothing. */
  waiting_for: string | null;
  /** "rates" when not given: every job stored before orders jobs existed, and every row written without it. */
  kind: ColumnType<BatchJobKind, BatchJobKind | undefined, BatchJobKind>;
  /** An orders job uploaded with record=true: the ledger its sales are recorded into; null: calculated only (and every rates job). */
  ledger: ColumnType<BatchJobLedger | null, BatchJobLedger | null | undefined, BatchJobLedger | null>;
}

export interface BatchChunksTable {
  job_id: string;
  seq: number;
  first_row: number;
  row_count: number;
  /** JSON array of the rows as uploaded. */
  input: string;
  status: BatchChunkStatus;
  lease_owner: string | null;
  lease_expires_at: string | null;
  attempts: number;
  /** JSON array of results, one per row, as chunks finished before packed_output existed kept them; null since. */
  output: string | null;
  /** The results, one per row, as their JSON deflated (src/batch/packed-results.ts; migrations/2026-12-01-390-batch-packed-results.ts), written with status done. */
  packed_output: Uint8Array | null;
}

/** Whose turn it is to have a chunk claimed (migrations/2026-11-25-090-batch-fair-shares.ts). */
export interface BatchTurnsTable {
  organization_id: string;
  /** The number of the organization's latest claim, on a counter shared by all organizations. */
  turn: number;
}
