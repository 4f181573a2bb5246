/**
 * The tests' own writer of ledger rows: it inserts `tax_transactions` rows straight into the store, as
 * the ledger's service records them (signed integer cents: a sale positive, a refund or void negative),
 * so the return can be tested without the ledger's API. Amounts are synthetic.
 */
import type { Db } from "../src/store/database.ts";
import type { TaxTransactionKind } from "../src/store/tax-transactions.table.ts";

export interface LedgerRow {
  organizationId: string;
  env: "live" | "test";
  kind?: TaxTransactionKind;
  date: string;
  countyFips: string;
  transitDistrict?: string | null;
  grossCents: number;
  exemptCents?: number;
  stateTaxCents: number;
  countyTaxCents: number;
  transitTaxCents?: number;
  saleId?: string | null;
}

let sequence = 0;

function toRow(row: LedgerRow) {
  const id = `txn_fixture_${(++sequence).toString(36)}_${process.pid}`;
  const exempt = row.exemptCents ?? 0;
  const transit = row.transitTaxCents ?? 0;
  return {
    id,
    organization_id: row.organizationId,
    env: row.env,
    kind: row.kind ?? "sale",
    reference: `ref-${id}`,
    sale_id: row.saleId ?? null,
    transaction_date: row.date,
    county_fips: row.countyFips,
    transit_district: row.transitDistrict ?? null,
    gross_cents: row.grossCents,
    exempt_cents: exempt,
    taxable_cents: row.grossCents - exempt,
    tax_cents: row.stateTaxCents + row.countyTaxCents + transit,
    state_tax_cents: row.stateTaxCents,
    county_tax_cents: row.countyTaxCents,
    transit_tax_cents: transit,
    request_hash: "synthetic",
    calculation: '{"synthetic":true}',
    created_at: "2026-12-01T00:00:00.000Z",
  };
}

/** Inserts the rows in one transaction, 1,000 to a statement (PostgreSQL takes at most 65,535 parameters in one). */
export async function writeLedgerRows(db: Db, rows: readonly LedgerRow[]): Promise<string[]> {
  const values = rows.map(toRow);
  await db.transaction().execute(async (trx) => {
    for (let at = 0; at < values.length; at += 1_000) await trx.insertInto("tax_transactions").values(values.slice(at, at + 1_000)).execute();
  });
  return values.map((value) => value.id);
}
