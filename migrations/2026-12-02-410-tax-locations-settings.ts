import type { Kysely } from "kysely";

/**
 * The organization's own places and its tax settings (docs/guides/tax-and-returns.md):
 *
 * - `tax_locations`: the stores and offices where it receives orders or hands goods over, each kept as
 *   the lookup that places it (a county, a ZIP, an address or a point), resolved at each sale against
 *   the data of that day, as a buyer's `ship_to` is;
 * - `tax_settings`: one row per organization that chose anything; no row means the defaults (invoice basis).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("tax_locations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("name", "text", (c) => c.notNull())
    // The lookup's fields as JSON: {county?, zip?, address?, lat?, lon?}.
    .addColumn("place", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("tax_locations_organization").on("tax_locations").columns(["organization_id", "id"]).execute();
  await db.schema
    .createTable("tax_settings")
    .addColumn("organization_id", "text", (c) => c.primaryKey().references("organizations.id"))
    .addColumn("rounding_basis", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("tax_settings").execute();
  await db.schema.dropTable("tax_locations").execute();
}
