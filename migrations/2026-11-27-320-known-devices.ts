import type { Kysely } from "kysely";

/**
 * Devices that have signed in to an account (docs/guides/dashboard.md, "Sign-in throttle"): a
 * successful sign-in leaves a random token in a long-lived cookie, stored here only as its
 * SHA-256, like session tokens. A sign-in from such a device is throttled by its own count, not
 * by the account's, so failures from other clients cannot lock the owner out.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("known_devices")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("known_devices_expiry").on("known_devices").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("known_devices").execute();
}
