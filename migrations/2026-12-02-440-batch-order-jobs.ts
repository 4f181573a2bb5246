import type { Kysely } from "kysely";

/**
 * `batch_jobs.kind`: what a job's rows are. "rates": lookups, as every job stored before this was;
 * "orders": sales whose tax is calculated, and recorded when asked (docs/guides/tax-and-returns.md,
 * "Batches of orders"). `batch_jobs.ledger`: for an orders job uploaded with record=true, the ledger
 * its sales are recorded into, the uploading key's environment ("test" or "live"); null: calculated only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("batch_jobs").addColumn("kind", "text", (col) => col.notNull().defaultTo("rates")).execute();
  await db.schema.alterTable("batch_jobs").addColumn("ledger", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("batch_jobs").dropColumn("ledger").execute();
  await db.schema.alterTable("batch_jobs").dropColumn("kind").execute();
}
