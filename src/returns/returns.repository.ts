/**
 * The ledger's sums a return is made of: one row per county (and recorded transit district) of one
 * ledger of one organization, over the records dated in the period. The ledger's table is
 * `tax_transactions` (src/store/tax-transactions.table.ts); its index `tax_transactions_return`
 * (migrations/2026-12-02-420-return-sums-index.ts) holds every column read here, so the sums read the index alone.
 */
import { sql } from "kysely";
import type { IsoDate } from "../rates/calendar.ts";
import type { Db } from "../store/database.ts";
import type { Ledger, LedgerSums } from "./worksheet.ts";

export interface PeriodQuery {
  organizationId: string;
  ledger: Ledger;
  start: IsoDate;
  /** Inclusive. */
  end: IsoDate;
}

/** The query of a period's sums, built apart so its plan can be checked (test/returns-index.test.ts). */
export function periodSumsQuery(db: Db, query: PeriodQuery) {
  return db
    .selectFrom("tax_transactions")
    .select(["county_fips", "transit_district"])
    .select((eb) => [
      eb.fn.sum<string | number>("gross_cents").as("gross"),
      eb.fn.sum<string | number>("exempt_cents").as("exempt"),
      eb.fn.sum<string | number>("tax_cents").as("tax"),
      eb.fn.sum<string | number>("state_tax_cents").as("state_tax"),
      eb.fn.sum<string | number>("county_tax_cents").as("county_tax"),
      eb.fn.sum<string | number>("transit_tax_cents").as("transit_tax"),
      sql<string | number>`count(*)`.as("records"),
    ])
    .where("organization_id", "=", query.organizationId)
    .where("env", "=", query.ledger)
    .where("transaction_date", ">=", query.start)
    .where("transaction_date", "<=", query.end)
    .groupBy(["county_fips", "transit_district"]);
}

/** The period's sums. PostgreSQL's driver reads a bigint sum as a decimal string, SQLite's as a number: both become Number (exact below 2^53). */
export async function sumPeriod(db: Db, query: PeriodQuery): Promise<LedgerSums[]> {
  const rows = await periodSumsQuery(db, query).execute();
  return rows.map((row) => ({
    countyFips: row.county_fips,
    transitDistrict: row.transit_district,
    gross: exact(row.gross),
    exempt: exact(row.exempt),
    tax: exact(row.tax),
    stateTax: exact(row.state_tax),
    countyTax: exact(row.county_tax),
    transitTax: exact(row.transit_tax),
    records: exact(row.records),
  }));
}

function exact(value: string | number): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`a ledger sum that is not a whole number of cents below 2^53: ${value}`);
  return number;
}
