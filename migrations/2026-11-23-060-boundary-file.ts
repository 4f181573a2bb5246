import { sql, type Kysely } from "kysely";

/**
 * The state's SST boundary file (src/boundaries/), kept by version. `boundary_versions` holds one row
 * per imported (or importing) file; `boundary_pointer` one row naming the active version and the
 * one before it, so switching (or rolling back) is a single-row update every instance sees at once.
 * `boundary_records` holds every record tagged with its version: an import writes under its new
 * version while lookups keep reading the old one.
 *
 * The indexes are partial, one per record type, each shaped for its probe: an address range by
 * (version, ZIP5, standardised street, low house number), a ZIP+4 range by (version, ZIP5, low
 * plus-4), a whole-ZIP record by (version, ZIP5). They also serve deleting an old version by type.
 * The table has no primary key: its rows are only ever reached through these indexes, and a
 * fourth index would cost a 2-million-row import time and space for nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("boundary_versions")
    .addColumn("version", "text", (c) => c.primaryKey())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("records", "integer", (c) => c.notNull())
    .addColumn("address_ranges", "integer", (c) => c.notNull())
    .addColumn("zip4_ranges", "integer", (c) => c.notNull())
    .addColumn("zip5_ranges", "integer", (c) => c.notNull())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("imported_at", "text")
    .execute();

  await db.schema
    .createTable("boundary_pointer")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("version", "text")
    .addColumn("previous_version", "text")
    .addColumn("switched_at", "text")
    .execute();
  await db.insertInto("boundary_pointer").values({ name: "active", version: null, previous_version: null, switched_at: null }).execute();

  await db.schema
    .createTable("boundary_records")
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("line", "integer", (c) => c.notNull())
    .addColumn("record_type", "text", (c) => c.notNull())
    .addColumn("effective_from", "text", (c) => c.notNull())
    .addColumn("effective_to", "text")
    .addColumn("zip5", "text", (c) => c.notNull())
    .addColumn("zip5_high", "text", (c) => c.notNull())
    .addColumn("plus4_low", "text")
    .addColumn("plus4_high", "text")
    .addColumn("street", "text")
    .addColumn("house_low", "integer")
    .addColumn("house_high", "integer")
    .addColumn("parity", "text")
    .addColumn("unit_designator", "text")
    .addColumn("unit_low", "text")
    .addColumn("unit_high", "text")
    .addColumn("unit_parity", "text")
    .addColumn("county_fips", "text", (c) => c.notNull())
    .addColumn("transit_code", "text")
    .execute();
  await db.schema
    .createIndex("boundary_records_address")
    .on("boundary_records")
    .columns(["version", "zip5", "street", "house_low"])
    .where(sql<boolean>`record_type = 'A'`)
    .execute();
  await db.schema
    .createIndex("boundary_records_zip4")
    .on("boundary_records")
    .columns(["version", "zip5", "plus4_low"])
    .where(sql<boolean>`record_type = '4'`)
    .execute();
  await db.schema.createIndex("boundary_records_zip5").on("boundary_records").columns(["version", "zip5"]).where(sql<boolean>`record_type = 'Z'`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("boundary_records").execute();
  await db.schema.dropTable("boundary_pointer").execute();
  await db.schema.dropTable("boundary_versions").execute();
}
