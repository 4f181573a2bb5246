/** Row shape of the ledger's table (migration 2026-12-02-400). Listed in the `Database` interface of database.ts. */
import type { ColumnType, Selectable } from "kysely";

export type TaxTransactionKind = "sale" | "refund" | "void";

/**
 * Integer cents. PostgreSQL's driver reads a `bigint` as a decimal string and SQLite's as a number, so a
 * repository converts what it reads with `Number()` (exact: a cent count stays far below 2^53).
 */
export type Cents = ColumnType<number | string, number, number>;

export interface TaxTransactionsTable {
  id: string;
  organization_id: string;
  /** The ledger: the environment of the key that recorded it ("live" or "test"). */
  env: string;
  kind: TaxTransactionKind;
  /** The merchant's own id for this record: the order id of a sale, the refund's id of a refund or void. */
  reference: string;
  /** For a refund or void: the id of the sale it reduces. */
  sale_id: string | null;
  /** YYYY-MM-DD: the sale's date, or the refund's; the return's period is chosen by it. */
  transaction_date: string;
  county_fips: string;
  transit_district: string | null;
  /** Signed: a sale's amounts are positive, a refund's or a void's negative. */
  gross_cents: Cents;
  exempt_cents: Cents;
  taxable_cents: Cents;
  tax_cents: Cents;
  state_tax_cents: Cents;
  county_tax_cents: Cents;
  transit_tax_cents: Cents;
  /** A digest of the request that recorded it: the same reference with another body is a conflict. */
  request_hash: string;
  /** The calculation answer, as JSON: what the record was computed from (rate and boundary versions, resolution). */
  calculation: string;
  created_at: string;
}

export type TaxTransactionRow = Selectable<TaxTransactionsTable>;
