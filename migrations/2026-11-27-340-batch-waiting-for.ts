import type { Kysely } from "kysely";

/**
 * `batch_jobs.waiting_for`: what a running job waits for, as JSON (`{ reason, detail, retry_at }`),
 * written by the runner that waits (a failed Census batch request about to be tried again) and
 * cleared when its work goes on, so every instance shows the same on GET /api/v1/batches/{id}.
 * Null: nothing is waited for (and for jobs stored before it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("batch_jobs").addColumn("waiting_for", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("batch_jobs").dropColumn("waiting_for").execute();
}
