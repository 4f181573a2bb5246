import type { Kysely } from "kysely";

/**
 * Dashboard accounts (users, sessions) and per-key daily request counts. Session tokens are stored
 * only as a SHA-256, like API keys, so a copy of the database cannot be used to sign in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().defaultTo("owner"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("users_organization").on("users").column("organization_id").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("csrf_token", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expiry").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("api_key_usage")
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("api_key_usage_pk", ["key_id", "day"])
    .execute();
  await db.schema.createIndex("api_key_usage_day").on("api_key_usage").column("day").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_key_usage").execute();
  await db.schema.dropTable("sessions").execute();
  await db.schema.dropTable("users").execute();
}
