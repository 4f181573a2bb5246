/**
 * The store's reads for the metrics (docs/operations/metrics.md), made at scrape time, never per
 * request: jobs by state with the oldest queued job's creation, unfinished jobs by organization, and the webhook outbox's pending
 * deliveries with the oldest one's creation. Each is one aggregate over an index or a table kept small
 * by its caps and retention.
 */
import { sql } from "kysely";
import type { Db } from "./database.ts";

export interface JobStates {
  byState: Array<{ state: string; jobs: number }>;
  oldestQueuedAt: string | null;
}

export async function readJobStates(db: Db): Promise<JobStates> {
  const [rows, oldest] = await Promise.all([
    db.selectFrom("batch_jobs").select(["status", (eb) => eb.fn.countAll<number | string>().as("n")]).where("deleted_at", "is", null).groupBy("status").execute(),
    db.selectFrom("batch_jobs").select((eb) => eb.fn.min("created_at").as("at")).where("status", "=", "queued").where("deleted_at", "is", null).executeTakeFirst(),
  ]);
  return { byState: rows.map((r) => ({ state: r.status, jobs: Number(r.n) })), oldestQueuedAt: (oldest?.at as string | null | undefined) ?? null };
}

/** One organization's queued or running jobs: how many, and their rows in all and resolved so far. */
export interface OrganizationJobs {
  organizationId: string;
  state: "queued" | "running";
  jobs: number;
  rows: number;
  done: number;
}

/** Unfinished jobs (queued, running) by organization and state: one aggregate over the batch_jobs_unfinished index. */
export async function readOrganizationJobs(db: Db): Promise<OrganizationJobs[]> {
  const rows = await db
    .selectFrom("batch_jobs")
    .select(["organization_id", "status", (eb) => eb.fn.countAll<number | string>().as("n"), (eb) => eb.fn.sum<number | string>("total").as("rows"), (eb) => eb.fn.sum<number | string>("done").as("done")])
    // The literal is the condition of the batch_jobs_unfinished index.
    .where("status", "<>", sql.lit("completed"))
    .where("deleted_at", "is", null)
    .groupBy(["organization_id", "status"])
    .execute();
  return rows.map((r) => ({ organizationId: r.organization_id, state: r.status as OrganizationJobs["state"], jobs: Number(r.n), rows: Number(r.rows), done: Number(r.done) }));
}

export interface OutboxDepth {
  pending: number;
  oldestPendingAt: string | null;
}

export async function readOutboxDepth(db: Db): Promise<OutboxDepth> {
  const row = await db
    .selectFrom("deliveries")
    .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.min("created_at").as("at")])
    .where("status", "=", "pending")
    .executeTakeFirst();
  return { pending: Number(row?.n ?? 0), oldestPendingAt: (row?.at as string | null | undefined) ?? null };
}
