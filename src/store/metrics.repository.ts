/**
 * The store's reads for the metrics (docs/operations/metrics.md), made at scrape time, never per
 * request: jobs by state with the oldest queued job's creation, and the webhook outbox's pending
 * deliveries with the oldest one's creation. Each is one aggregate over an index or a table kept small
 * by its caps and retention.
 */
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
