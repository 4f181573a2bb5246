import type { Kysely } from "kysely";

/**
 * `tax_transactions`: the ledger of recorded sales, refunds and voids (docs/guides/tax-and-returns.md).
 * One row per record; a sale is sourced to one place, so a row carries its county (and transit district)
 * and its amounts split the way Ohio's return and the state's rate tables split them.
 *
 * Money is integer cents in `bigint` columns on both stores, never a float: a refund or a void holds
 * negative amounts, so a period's figures for a county are plain sums over the rows dated in it.
 * The test and live ledgers are kept apart by `env`, the key's environment, as every other record is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("tax_transactions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("sale_id", "text")
    .addColumn("transaction_date", "text", (c) => c.notNull())
    .addColumn("county_fips", "text", (c) => c.notNull())
    .addColumn("transit_district", "text")
    .addColumn("gross_cents", "bigint", (c) => c.notNull())
    .addColumn("exempt_cents", "bigint", (c) => c.notNull())
    .addColumn("taxable_cents", "bigint", (c) => c.notNull())
    .addColumn("tax_cents", "bigint", (c) => c.notNull())
    .addColumn("state_tax_cents", "bigint", (c) => c.notNull())
    .addColumn("county_tax_cents", "bigint", (c) => c.notNull())
    .addColumn("transit_tax_cents", "bigint", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("calculation", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // The merchant's own id is unique per kind within one ledger: the same order id recorded twice is the same sale.
  await db.schema
    .createIndex("tax_transactions_reference")
    .on("tax_transactions")
    .columns(["organization_id", "env", "kind", "reference"])
    .unique()
    .execute();
  // A return sums one ledger's rows over a period, county by county.
  await db.schema
    .createIndex("tax_transactions_period")
    .on("tax_transactions")
    .columns(["organization_id", "env", "transaction_date", "county_fips"])
    .execute();
  await db.schema.createIndex("tax_transactions_sale").on("tax_transactions").column("sale_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("tax_transactions").execute();
}
