/**
 * Scheduled occurrences taken by one instance among several (docs/operations/several-instances.md). Taking one is a single
 * INSERT … ON CONFLICT DO NOTHING on (name, scheduled_for): both dialects let exactly one insert
 * win, with no lock held beyond the statement.
 */
import type { Db } from "./database.ts";
import type { JobRun, JobRunStatus } from "./job-runs.table.ts";

export interface Occurrence {
  name: string;
  scheduledFor: Date;
}

/** True when this instance took the occurrence and should run it; false when another already has. */
export async function takeJobRun(db: Db, occurrence: Occurrence, instance: string, now: Date): Promise<boolean> {
  const result = await db
    .insertInto("job_runs")
    .values({
      name: occurrence.name,
      scheduled_for: occurrence.scheduledFor.toISOString(),
      instance,
      status: "running",
      started_at: now.toISOString(),
      finished_at: null,
      error: null,
    })
    .onConflict((oc) => oc.columns(["name", "scheduled_for"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function finishJobRun(db: Db, occurrence: Occurrence, status: Exclude<JobRunStatus, "running">, now: Date, error: string | null = null): Promise<void> {
  await db
    .updateTable("job_runs")
    .set({ status, finished_at: now.toISOString(), error })
    .where("name", "=", occurrence.name)
    .where("scheduled_for", "=", occurrence.scheduledFor.toISOString())
    .execute();
}

export async function listJobRuns(db: Db, name?: string): Promise<JobRun[]> {
  return db
    .selectFrom("job_runs")
    .selectAll()
    .$if(name !== undefined, (q) => q.where("name", "=", name!))
    .orderBy("scheduled_for")
    .orderBy("name")
    .execute();
}
