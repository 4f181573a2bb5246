/**
 * What the retention sweep deletes outside batch jobs (those are in src/batch/batch-jobs.repository.ts):
 * finished deliveries with their attempts, events no delivery is left of, and per-key usage
 * counts. Each call deletes at most `limit` rows of its table in one transaction, so the sweep
 * never holds SQLite's write lock for long; the caller repeats until a call deletes fewer.
 */
import type { Db } from "./database.ts";

/**
 * Deliveries delivered, failed (given up) or cancelled, last changed before `before`, with their
 * attempts. A pending delivery is never deleted, however old: it is still to be sent.
 */
export async function deleteFinishedDeliveries(db: Db, before: Date, limit: number): Promise<{ deliveries: number; attempts: number }> {
  return db.transaction().execute(async (trx) => {
    const ids = (
      await trx
        .selectFrom("deliveries")
        .select("id")
        .where("status", "in", ["delivered", "failed", "cancelled"])
        .where("updated_at", "<", before.toISOString())
        .limit(limit)
        .execute()
    ).map((row) => row.id);
    if (ids.length === 0) return { deliveries: 0, attempts: 0 };
    const attempts = await trx.deleteFrom("delivery_attempts").where("delivery_id", "in", ids).executeTakeFirst();
    await trx.deleteFrom("deliveries").where("id", "in", ids).execute();
    return { deliveries: ids.length, attempts: Number(attempts.numDeletedRows) };
  });
}

/**
 * Events created before `before` that no delivery is left of (a pending one, or one finished
 * too recently to go, keeps its event). An event with a dedupe key goes only once it is also older
 * than `keyedBefore`: its row is what stops a scheduled job from publishing it a second time.
 */
export async function deleteOldEvents(db: Db, before: Date, keyedBefore: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("events")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("events as e")
        .select("e.id")
        .where("e.created_at", "<", before.toISOString())
        .where((inner) => inner.or([inner("e.dedupe_key", "is", null), inner("e.created_at", "<", keyedBefore.toISOString())]))
        .where((inner) => inner.not(inner.exists(inner.selectFrom("deliveries as d").select("d.id").whereRef("d.event_id", "=", "e.id"))))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Per-key daily request counts of days before `beforeDay` (YYYY-MM-DD, Ohio's calendar). */
export async function deleteOldUsage(db: Db, beforeDay: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("api_key_usage")
    .where((eb) =>
      eb(eb.refTuple("key_id", "day"), "in", eb.selectFrom("api_key_usage").select(["key_id", "day"]).where("day", "<", beforeDay).limit(limit).$asTuple("key_id", "day")),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
