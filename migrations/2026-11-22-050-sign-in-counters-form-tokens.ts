import type { Kysely } from "kysely";

/**
 * The dashboard's two guards, kept in the database so they hold across instances: failed sign-in
 * counters (per email and per client address) and the one-time tokens of forms that answer with a
 * secret. Both are written with single atomic statements (upsert; insert-or-nothing), so two
 * instances counting or checking at once never lose a count or both accept one token.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sign_in_counters")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("window_start", "text", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .execute();
  await db.schema.createIndex("sign_in_counters_window").on("sign_in_counters").column("window_start").execute();

  await db.schema
    .createTable("form_tokens")
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull())
    .addColumn("used_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("form_tokens_pk", ["session_id", "token"])
    .execute();
  await db.schema.createIndex("form_tokens_used").on("form_tokens").column("used_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("form_tokens").execute();
  await db.schema.dropTable("sign_in_counters").execute();
}
