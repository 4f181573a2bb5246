/**
 * Accepting and describing asynchronous batch jobs (POST/GET /api/v1/batches). The upload is
 * parsed and cut into chunks in a worker thread, stored with the job in one transaction, and
 * the runner is told there is work.
 */
import { newId } from "../ids.ts";
import type { IsoDate } from "../rates/calendar.ts";
import { insertBatchJob, type BatchJob } from "../store/batch-jobs.repository.ts";
import type { BatchFileFormat } from "../store/batch-jobs.table.ts";
import type { Db } from "../store/database.ts";
import type { GeoPool } from "../lookup/worker-pool.ts";
import type { BatchJobRunner } from "./job-runner.ts";

/** The ceiling for one job. */
export const MAX_JOB_ROWS = 100_000;

export interface Submission {
  text: string;
  format: BatchFileFormat;
  organizationId: string;
  apiKeyId: string;
  requestId: string;
  today: IsoDate;
}

export type SubmitOutcome = { ok: true; job: BatchJob } | { ok: false; slug: "bad-request" | "batch-too-large"; detail: string };

export async function submitBatchJob(
  deps: { db: Db; pool: GeoPool; runner: BatchJobRunner; chunkRows: number; now: () => Date },
  submission: Submission,
): Promise<SubmitOutcome> {
  const reading = await deps.pool.run("readBatchFile", { text: submission.text, format: submission.format, maxRows: MAX_JOB_ROWS, chunkRows: deps.chunkRows });
  if (!reading.ok) return reading;
  const job = await insertBatchJob(
    deps.db,
    {
      id: newId("bat"),
      organizationId: submission.organizationId,
      apiKeyId: submission.apiKeyId,
      requestId: submission.requestId,
      format: submission.format,
      today: submission.today,
      total: reading.total,
      chunks: reading.chunks,
      chunkRows: deps.chunkRows,
    },
    deps.now(),
  );
  deps.runner.notify();
  return { ok: true, job };
}

/** The job as GET /api/v1/batches/{id} shows it. */
export function toJobView(job: BatchJob) {
  const path = `/api/v1/batches/${job.id}`;
  return {
    id: job.id,
    status: job.status,
    format: job.format,
    total: job.total,
    done: job.done,
    failed: job.failed,
    created_at: job.created_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
    links: { self: path, results: `${path}/results` },
    request_id: job.request_id,
  };
}
