import { sql, SqliteAdapter, type Kysely } from "kysely";

/**
 * `organization_limits`: the limits an operator set for one organization (docs/operations/organization-limits.md),
 * one row per organization that has any, one nullable column per limit; null (or no row) means the
 * setting's value applies. A table of its own rather than columns on `organizations`: most
 * organizations have none, and the organization's row stays what it was.
 *
 * The limits travel with a key's cached verdict (src/auth/key-verdicts.ts), so any change to this
 * table moves the key epoch in the same transaction, as a change of status does (migration
 * 2026-11-23-070): every instance reads the organization's keys again on their next request.
 */
const COLUMNS = [
  "requests_per_second_per_key",
  "requests_per_second_per_org",
  "active_keys",
  "jobs_in_flight",
  "jobs_stored",
  "rows_per_job",
  "retention_days",
] as const;

const EVENTS = ["INSERT", "UPDATE", "DELETE"] as const;
const triggerName = (event: string) => `organization_limits_${event.toLowerCase()}_key_epoch`;

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable("organization_limits")
    .addColumn("organization_id", "text", (c) => c.primaryKey().references("organizations.id"));
  for (const column of COLUMNS) table = table.addColumn(column, "integer");
  await table.addColumn("updated_at", "text", (c) => c.notNull()).execute();
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const event of EVENTS) {
    const trigger = sqlite
      ? `CREATE TRIGGER ${triggerName(event)} AFTER ${event} ON organization_limits BEGIN UPDATE key_epoch SET epoch = epoch + 1 WHERE id = 1; END`
      : `CREATE TRIGGER ${triggerName(event)} AFTER ${event} ON organization_limits FOR EACH STATEMENT EXECUTE FUNCTION bump_key_epoch()`;
    await sql.raw(trigger).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const event of EVENTS) await sql.raw(`DROP TRIGGER ${triggerName(event)}${sqlite ? "" : " ON organization_limits"}`).execute(db);
  await db.schema.dropTable("organization_limits").execute();
}
