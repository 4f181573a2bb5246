/**
 * A return reads one index, not the ledger's rows: the sums' query is answered from
 * `tax_transactions_return` alone (migrations/2026-12-02-420-return-sums-index.ts). Without it SQLite
 * fetched each record's row from the table in date order, and a return over 1,000,000 records took
 * 30 to 60 s in bench/returns.ts. Checked by the planner's own account, never by a timing.
 */
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodSumsQuery } from "../src/returns/returns.repository.ts";
import type { Store } from "../src/store/connect.ts";
import { freshStore } from "./_store.ts";

let store: Store;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ store, close } = await freshStore());
});
afterAll(() => close?.());

describe("the return's sums read the ledger's return index alone", () => {
  it("every column the sums read is in tax_transactions_return, which leads with organization, ledger and date", async () => {
    const compiled = periodSumsQuery(store.db, { organizationId: "org_x", ledger: "live", start: "2026-11-01", end: "2026-11-30" }).compile();
    if (store.sqlite) {
      const plan = await store.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
      expect(plan.rows.map((row) => row.detail)).toContainEqual(expect.stringMatching(/^SEARCH tax_transactions USING COVERING INDEX tax_transactions_return \(organization_id=\? AND env=\? AND transaction_date>\? AND transaction_date<\?\)$/));
    } else {
      // PostgreSQL's planner picks an index-only scan by table size and visibility, so here the index itself is checked.
      const { rows } = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE tablename = 'tax_transactions' AND indexname = 'tax_transactions_return'`.execute(store.db);
      expect(rows[0]?.indexdef).toMatch(/\(organization_id, env, transaction_date, county_fips, transit_district, gross_cents, exempt_cents, tax_cents, state_tax_cents, county_tax_cents, transit_tax_cents\)$/);
    }
  });
});
