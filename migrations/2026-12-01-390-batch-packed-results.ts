import { SqliteAdapter, type Kysely } from "kysely";

/**
 * `batch_chunks.packed_output`: a chunk's results as their JSON deflated (src/batch/packed-results.ts),
 * a BLOB on SQLite and a bytea on PostgreSQL. Every answer of a job repeats the same long texts (the
 * statutory sourcing, the source, the boundary file's notes), so its JSON, about 1.5 KB a row, deflates
 * to a fortieth of that. Chunks finished before this migration keep their JSON text in `output`, read
 * as before; a chunk finished after it has `output` null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema.alterTable("batch_chunks").addColumn("packed_output", sqlite ? "blob" : "bytea").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("batch_chunks").dropColumn("packed_output").execute();
}
