import type { Kysely } from "kysely";

/** Timestamps are ISO 8601 UTC text so that SQLite and PostgreSQL run the same migration and code. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("organizations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("filing_frequency", "text", (c) => c.notNull().defaultTo("monthly"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .execute();

  await db.schema.createIndex("api_keys_prefix").on("api_keys").column("prefix").execute();
  await db.schema.createIndex("api_keys_organization").on("api_keys").column("organization_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_keys").execute();
  await db.schema.dropTable("organizations").execute();
}
