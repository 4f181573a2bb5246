import type { Kysely } from "kysely";

/**
 * `boundary_import_lease`: one row naming the boundary file import that is running, if any, and
 * until when its lease holds. An import takes the lease before it touches a version, renews it
 * while it writes and gives it back at the end; a second import (the CLI in another process, the
 * scheduled job on another instance) is refused while the lease holds, instead of deleting the
 * first one's rows as an unfinished load. An import that died leaves a lease that expires, so the
 * next one can take over and clean up after it. Activation checks the lease in its own
 * transaction, so an import that lost its lease can never switch lookups to its version.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("boundary_import_lease")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text")
    .addColumn("source", "text")
    .addColumn("taken_at", "text")
    .addColumn("expires_at", "text")
    .execute();
  await db.insertInto("boundary_import_lease").values({ name: "import", holder: null, source: null, taken_at: null, expires_at: null }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("boundary_import_lease").execute();
}
