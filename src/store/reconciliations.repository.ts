/** The reconciliation log, and the rate periods reconciliation records for the rate engine. */
import { newId } from "../ids.ts";
import type { Db } from "./database.ts";
import type { Reconciliation, RecordedRatePeriod, ReconciliationsTable } from "./reconciliations.tables.ts";

export type NewReconciliation = Omit<ReconciliationsTable, "id">;

export async function insertReconciliation(db: Db, fields: NewReconciliation, id: string = newId("rec")): Promise<Reconciliation> {
  const row: Reconciliation = { id, ...fields };
  await db.insertInto("reconciliations").values(row).execute();
  return row;
}

export async function listReconciliations(db: Db, limit: number): Promise<Reconciliation[]> {
  return db.selectFrom("reconciliations").selectAll().orderBy("finished_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

export async function latestSuccessfulReconciliation(db: Db): Promise<Reconciliation | undefined> {
  return db
    .selectFrom("reconciliations")
    .selectAll()
    .where("status", "=", "succeeded")
    .orderBy("finished_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export type NewRecordedPeriod = Omit<RecordedRatePeriod, "id">;

/**
 * Records a period, replacing an earlier record for the same jurisdiction component and start
 * date: a later file that revises an announced change wins.
 */
export async function upsertRecordedPeriod(db: Db, period: NewRecordedPeriod): Promise<void> {
  await db
    .insertInto("recorded_rate_periods")
    .values({ id: newId("rp"), ...period })
    .onConflict((oc) =>
      oc.columns(["fips", "component", "effective_from"]).doUpdateSet({
        authority: period.authority,
        rate_millionths: period.rate_millionths,
        effective_to: period.effective_to,
        announced_on: period.announced_on,
        source: period.source,
        reconciliation_id: period.reconciliation_id,
        recorded_at: period.recorded_at,
      }),
    )
    .execute();
}

export async function listRecordedPeriods(db: Db): Promise<RecordedRatePeriod[]> {
  return db.selectFrom("recorded_rate_periods").selectAll().orderBy("recorded_at").orderBy("id").execute();
}
