import type { Kysely } from "kysely";

/**
 * One row per scheduled occurrence of a job that some instance has taken. Every instance runs the
 * same croner schedules; the first to insert (name, scheduled_for) runs that occurrence and the
 * others, hitting the primary key, skip it, so a job fires once per schedule across instances.
 * Text ISO timestamps, as everywhere, so SQLite and PostgreSQL run the same statements.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("job_runs")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("scheduled_for", "text", (c) => c.notNull())
    .addColumn("instance", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .addColumn("error", "text")
    .addPrimaryKeyConstraint("job_runs_pk", ["name", "scheduled_for"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_runs").execute();
}
