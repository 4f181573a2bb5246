import type { Kysely } from "kysely";

/**
 * `batch_jobs.ignored_columns`: the columns of an upload Buckeye does not read (a customer export's
 * `name`, a misspelt `adress`), as a JSON array of at most 20 names, shown on the job so an ignored
 * column is never silent. Null for jobs stored before it, read as none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("batch_jobs").addColumn("ignored_columns", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("batch_jobs").dropColumn("ignored_columns").execute();
}
