import type { Kysely } from "kysely";

/**
 * `boundary_cities`: the city names each version of the boundary file gives its ZIPs (column 15 of
 * its records), one row per distinct (ZIP, city). The address matcher reads them to find the ZIP of
 * an address typed without one, and to tell a city's words from a street's. A few thousand rows a
 * version; deleted and renamed with the version's records. Empty for versions imported before it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("boundary_cities")
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("zip5", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("boundary_cities_version").on("boundary_cities").columns(["version", "zip5"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("boundary_cities").execute();
}
