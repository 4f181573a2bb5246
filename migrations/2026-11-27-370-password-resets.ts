import type { Kysely } from "kysely";

/**
 * Password resets (docs/guides/dashboard.md, "Forgotten passwords"): a one-time link's token,
 * stored only as its SHA-256 like session tokens, with its expiry and the moment it was used (a
 * used token opens nothing).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("password_resets")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("password_resets_user").on("password_resets").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("password_resets").execute();
}
