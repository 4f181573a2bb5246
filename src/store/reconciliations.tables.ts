/**
 * Row shapes of the reconciliation tables (migration 2026-11-21-010): each run against the state's
 * rate file, and the rate periods it recorded. Listed in the `Database` interface of database.ts.
 */
import type { Selectable } from "kysely";

export type ReconciliationStatus = "succeeded" | "failed";

export interface ReconciliationsTable {
  id: string;
  status: ReconciliationStatus;
  source: string;
  file_name: string | null;
  /** The Ohio calendar date of the run: what `last_reconciled` shows once it succeeded. */
  reconciled_on: string;
  rows: number;
  periods_recorded: number;
  events_emitted: number;
  /** JSON array of Discrepancy (src/scheduled/reconcile/compare.ts). */
  discrepancies: string;
  error: string | null;
  started_at: string;
  finished_at: string;
}

export interface RecordedRatePeriodsTable {
  id: string;
  fips: string;
  component: "county" | "transit" | "district";
  authority: string | null;
  rate_millionths: number;
  effective_from: string;
  effective_to: string | null;
  /** When the state published it (the rate file's posting date), for lead_days. */
  announced_on: string;
  source: string;
  reconciliation_id: string;
  recorded_at: string;
}

export type Reconciliation = Selectable<ReconciliationsTable>;
export type RecordedRatePeriod = Selectable<RecordedRatePeriodsTable>;
