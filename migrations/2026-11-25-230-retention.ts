import { sql, type Kysely } from "kysely";

/**
 * Retention (docs/guides/webhooks-and-jobs.md, "Retention"): what the `retention` job deletes, and
 * how a job is deleted by its organization.
 *
 * `batch_jobs.deleted_at` marks a job deleted in one small write: from then on no one sees it and
 * no claim takes its chunks, while its chunks (up to about 140 MB for 100,000 rows) are deleted
 * a few at a time, each few in a transaction of its own, so no delete holds SQLite's write lock for
 * seconds. A process that stops half way leaves the mark, and the next sweep finishes the job.
 *
 * The indexes are the sweep's reads: completed jobs by age, finished deliveries by age, deliveries
 * of an event (an event goes only when none is left), events by age.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("batch_jobs").addColumn("deleted_at", "text").execute();
  await db.schema.createIndex("batch_jobs_completed").on("batch_jobs").column("completed_at").where(sql.ref("status"), "=", sql.lit("completed")).execute();
  await db.schema.createIndex("deliveries_finished").on("deliveries").columns(["status", "updated_at"]).execute();
  await db.schema.createIndex("deliveries_event").on("deliveries").column("event_id").execute();
  await db.schema.createIndex("events_created").on("events").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("events_created").execute();
  await db.schema.dropIndex("deliveries_event").execute();
  await db.schema.dropIndex("deliveries_finished").execute();
  await db.schema.dropIndex("batch_jobs_completed").execute();
  await db.schema.alterTable("batch_jobs").dropColumn("deleted_at").execute();
}
