import type { Kysely } from "kysely";

/**
 * `boundary_streets`: each version's streets per ZIP, as the address matcher's street index files them
 * (src/boundaries/street-index.ts preparedStreets: the stored key, its loose body and its name without
 * the suffix), one row per ZIP, written by the import beside the records. A batch thread builds its
 * index from these 1,400 rows instead of a SELECT DISTINCT over 1.8 million address ranges and
 * standardising every key again. Deleted and renamed with the version's records; empty for versions
 * imported before it, whose index is built from the records as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("boundary_streets")
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("zip5", "text", (c) => c.notNull())
    .addColumn("streets", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("boundary_streets_pkey", ["version", "zip5"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("boundary_streets").execute();
}
