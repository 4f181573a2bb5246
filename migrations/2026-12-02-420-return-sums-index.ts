import type { Kysely } from "kysely";

/**
 * The ledger's period index, widened to carry the columns a return sums (docs/guides/tax-and-returns.md, "The return").
 * A return reads every record of one ledger dated in its period; with the amounts in the index it reads
 * the index alone. Through `tax_transactions_period`, SQLite looked up each record's row in the table,
 * in date order, one page after another across the table: a return over 1,000,000 records took 30 to
 * 60 s (bench/returns.ts) where the index alone takes a few. The new index leads with the same columns,
 * so whatever used the old one (a ledger's records by date) uses this; it replaces it rather than adding a
 * second index to every write.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("tax_transactions_return")
    .on("tax_transactions")
    .columns([
      "organization_id",
      "env",
      "transaction_date",
      "county_fips",
      "transit_district",
      "gross_cents",
      "exempt_cents",
      "tax_cents",
      "state_tax_cents",
      "county_tax_cents",
      "transit_tax_cents",
    ])
    .execute();
  await db.schema.dropIndex("tax_transactions_period").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("tax_transactions_period").on("tax_transactions").columns(["organization_id", "env", "transaction_date", "county_fips"]).execute();
  await db.schema.dropIndex("tax_transactions_return").execute();
}
