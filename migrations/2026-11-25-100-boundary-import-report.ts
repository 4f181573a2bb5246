import type { Kysely } from "kysely";

/**
 * `boundary_versions.report`: what the import of a version found beyond its counts (rows skipped
 * because they can answer no Ohio lookup, by reason, with their first line numbers), as JSON.
 * Kept with the version so `buckeye boundaries status` shows it long after the import's own output
 * is gone. Null for versions imported before reports were kept.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("boundary_versions").addColumn("report", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("boundary_versions").dropColumn("report").execute();
}
