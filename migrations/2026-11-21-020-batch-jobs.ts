import type { Kysely } from "kysely";

/**
 * Asynchronous batch jobs. The uploaded rows are stored as chunks when the job is accepted; a
 * worker claims a chunk with a lease, and writes its results and the job's counters in one
 * transaction, only while it still holds the lease. So a restart loses no row (unfinished
 * chunks are claimed again once their lease expires) and doubles none (a late writer whose
 * lease was taken over is refused). Timestamps are ISO 8601 UTC text for both dialects.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("batch_jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("api_key_id", "text", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("today", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("chunk_count", "integer", (c) => c.notNull())
    .addColumn("chunks_done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("started_at", "text")
    .addColumn("completed_at", "text")
    .execute();
  await db.schema.createIndex("batch_jobs_organization").on("batch_jobs").columns(["organization_id", "created_at"]).execute();

  await db.schema
    .createTable("batch_chunks")
    .addColumn("job_id", "text", (c) => c.notNull().references("batch_jobs.id"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("first_row", "integer", (c) => c.notNull())
    .addColumn("row_count", "integer", (c) => c.notNull())
    .addColumn("input", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("lease_owner", "text")
    .addColumn("lease_expires_at", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("output", "text")
    .addPrimaryKeyConstraint("batch_chunks_pk", ["job_id", "seq"])
    .execute();
  await db.schema.createIndex("batch_chunks_claim").on("batch_chunks").columns(["status", "lease_expires_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("batch_chunks").execute();
  await db.schema.dropTable("batch_jobs").execute();
}
