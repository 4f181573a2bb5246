import { sql, type Kysely } from "kysely";

/**
 * Fair shares between organizations for batch jobs (docs/guides/address-resolution.md, "Fair
 * shares"). `batch_turns` holds, per organization, the number of its latest chunk claim on a
 * counter shared by all: the claim goes to the organization whose number is lowest (one never
 * served has none and goes first), so organizations take turns instead of queueing behind each
 * other's jobs.
 *
 * The claim runs once per chunk, so what it reads is indexed: the jobs not completed yet (a few,
 * however many finished jobs the table keeps) and, per job, its chunks not done yet in seq order
 * (a job of 200 chunks is not scanned from its first finished chunk at every claim). Both are
 * partial indexes, which SQLite and PostgreSQL build alike; the queries name the same literal
 * conditions so either planner can use them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("batch_turns")
    .addColumn("organization_id", "text", (c) => c.primaryKey().references("organizations.id"))
    .addColumn("turn", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("batch_turns_turn").on("batch_turns").column("turn").execute();

  await db.schema
    .createIndex("batch_jobs_unfinished")
    .on("batch_jobs")
    .columns(["organization_id", "created_at"])
    .where(sql.ref("status"), "<>", sql.lit("completed"))
    .execute();
  await db.schema
    .createIndex("batch_chunks_open")
    .on("batch_chunks")
    .columns(["job_id", "seq"])
    .where(sql.ref("status"), "<>", sql.lit("done"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("batch_chunks_open").execute();
  await db.schema.dropIndex("batch_jobs_unfinished").execute();
  await db.schema.dropTable("batch_turns").execute();
}
