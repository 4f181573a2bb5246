/**
 * The ledger's SQL (table: migration 2026-12-02-400, src/store/tax-transactions.table.ts). Every read and
 * write names the organization and the ledger (`env`, the key's environment), so a test key never sees
 * or changes the live ledger.
 */
import type { Db } from "../store/database.ts";
import type { TaxTransactionKind, TaxTransactionRow, TaxTransactionsTable } from "../store/tax-transactions.table.ts";
import type { Insertable } from "kysely";

export interface Ledger {
  organizationId: string;
  env: string;
}

/** Inserts the row unless one of its kind and reference is already in the ledger; true when this call inserted it. */
export async function insertTransaction(db: Db, row: Insertable<TaxTransactionsTable>): Promise<boolean> {
  const inserted = await db
    .insertInto("tax_transactions")
    .values(row)
    .onConflict((oc) => oc.columns(["organization_id", "env", "kind", "reference"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findByReference(db: Db, ledger: Ledger, kind: TaxTransactionKind, reference: string): Promise<TaxTransactionRow | undefined> {
  return (await findByReferences(db, ledger, kind, [reference])).get(reference);
}

/** The records of `kind` already made under any of `references`, by reference: one query for a batch's chunk instead of one per sale. */
export async function findByReferences(db: Db, ledger: Ledger, kind: TaxTransactionKind, references: readonly string[]): Promise<Map<string, TaxTransactionRow>> {
  if (references.length === 0) return new Map();
  const rows = await db
    .selectFrom("tax_transactions")
    .selectAll()
    .where("organization_id", "=", ledger.organizationId)
    .where("env", "=", ledger.env)
    .where("kind", "=", kind)
    .where("reference", "in", [...new Set(references)])
    .execute();
  return new Map(rows.map((row) => [row.reference, row]));
}

export async function findTransaction(db: Db, ledger: Ledger, id: string): Promise<TaxTransactionRow | undefined> {
  return db.selectFrom("tax_transactions").selectAll().where("organization_id", "=", ledger.organizationId).where("env", "=", ledger.env).where("id", "=", id).executeTakeFirst();
}

/** The refunds and void of a sale, oldest first. */
export async function listReductions(db: Db, ledger: Ledger, saleId: string): Promise<TaxTransactionRow[]> {
  return db
    .selectFrom("tax_transactions")
    .selectAll()
    .where("organization_id", "=", ledger.organizationId)
    .where("env", "=", ledger.env)
    .where("sale_id", "=", saleId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export interface TransactionPosition {
  date: string;
  id: string;
}

/** One page of the ledger dated in [from, to], in (transaction_date, id) order, after `after`: keyset paging, so records added meanwhile never make a walk skip one. */
export async function listTransactions(db: Db, ledger: Ledger, page: { from: string; to: string; limit: number; after: TransactionPosition | null }): Promise<TaxTransactionRow[]> {
  const { after } = page;
  return db
    .selectFrom("tax_transactions")
    .selectAll()
    .where("organization_id", "=", ledger.organizationId)
    .where("env", "=", ledger.env)
    .where("transaction_date", ">=", page.from)
    .where("transaction_date", "<=", page.to)
    .$if(after !== null, (query) =>
      query.where((eb) => eb.or([eb("transaction_date", ">", after!.date), eb.and([eb("transaction_date", "=", after!.date), eb("id", ">", after!.id)])])),
    )
    .orderBy("transaction_date")
    .orderBy("id")
    .limit(page.limit)
    .execute();
}
