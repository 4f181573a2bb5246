import type { Kysely } from "kysely";

/**
 * Each day's requests of a key by outcome (docs/guides/dashboard.md, "Usage counting"): `answered`
 * (status below 400), `client_errors` (4xx but 429), `rate_limited` (429) and `server_errors` (5xx).
 * `count` stays the day's requests of every outcome. Rows written before this migration counted
 * every admitted request alike (answered, 4xx and 5xx, not 429s), so their outcome is not known: their
 * class columns are 0 and their `count` is kept, and the usage page shows `count` less the four
 * classes as "not by outcome" rather than calling any of them answered (docs/decisions/README.md).
 */
const CLASSES = ["answered", "client_errors", "rate_limited", "server_errors"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // One statement per column: SQLite's ALTER TABLE adds one column at a time.
  for (const column of CLASSES) await db.schema.alterTable("api_key_usage").addColumn(column, "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of CLASSES) await db.schema.alterTable("api_key_usage").dropColumn(column).execute();
}
