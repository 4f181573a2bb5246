/**
 * Failed sign-in counters, shared by every instance. A failure is counted with one upsert, so
 * failures arriving at two instances at once are both counted; the lock is then set by whichever
 * instance saw the count reach the limit.
 */
import type { Db } from "./database.ts";

export interface CounterRule {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

/** The latest lock among these keys, as an ISO time; null when none is set. */
export async function latestLock(db: Db, keys: readonly string[]): Promise<string | null> {
  const rows = await db.selectFrom("sign_in_counters").select("locked_until").where("key", "in", keys).where("locked_until", "is not", null).execute();
  return rows.reduce<string | null>((latest, row) => (latest === null || row.locked_until! > latest ? row.locked_until : latest), null);
}

/** Counts a failure for `key` and answers its count: a count whose window (from its first failure) has passed starts again at 1. */
export async function countInWindow(db: Db, key: string, windowMs: number, now: Date): Promise<number> {
  const at = now.toISOString();
  const windowOpenedAfter = new Date(now.getTime() - windowMs).toISOString();
  const counted = await db
    .insertInto("sign_in_counters")
    .values({ key, failures: 1, window_start: at, locked_until: null })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => {
        const lapsed = eb("sign_in_counters.window_start", "<", windowOpenedAfter);
        return {
          failures: eb.case().when(lapsed).then(1).else(eb("sign_in_counters.failures", "+", 1)).end(),
          window_start: eb.case().when(lapsed).then(at).else(eb.ref("sign_in_counters.window_start")).end(),
        };
      }),
    )
    .returning("failures")
    .executeTakeFirstOrThrow();
  return counted.failures;
}

/**
 * Counts a failure for `key`: a count whose window has passed starts again at 1. Reaching the
 * limit locks the key until now + lockMs and starts a new window.
 */
export async function countFailure(db: Db, key: string, rule: CounterRule, now: Date): Promise<void> {
  if ((await countInWindow(db, key, rule.windowMs, now)) < rule.maxFailures) return;
  await db
    .updateTable("sign_in_counters")
    .set({ failures: 0, window_start: now.toISOString(), locked_until: new Date(now.getTime() + rule.lockMs).toISOString() })
    .where("key", "=", key)
    .where("failures", ">=", rule.maxFailures)
    .execute();
}

/** Locks `key` until `until`, unless it is already locked later (of two failures at once, the longer wait stands). */
export async function lockUntil(db: Db, key: string, until: Date): Promise<void> {
  const at = until.toISOString();
  await db
    .updateTable("sign_in_counters")
    .set({ locked_until: at })
    .where("key", "=", key)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", at)]))
    .execute();
}

export async function clearCounter(db: Db, key: string): Promise<void> {
  await db.deleteFrom("sign_in_counters").where("key", "=", key).execute();
}

/** Drops the counters whose key starts with `keyPrefix`, whose window opened more than `windowMs` ago and that lock nothing any more. */
export async function dropStaleCounters(db: Db, keyPrefix: string, windowMs: number, now: Date): Promise<void> {
  await db
    .deleteFrom("sign_in_counters")
    .where("key", "like", `${keyPrefix}%`)
    .where("window_start", "<", new Date(now.getTime() - windowMs).toISOString())
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now.toISOString())]))
    .execute();
}

/**
 * Takes the one turn `key` has per `windowMs`, in one statement, so of two instances asking at once
 * only one gets it: true when no turn was taken within the window (this one now is), false otherwise.
 */
export async function takeTurn(db: Db, key: string, windowMs: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const taken = await db
    .insertInto("sign_in_counters")
    .values({ key, failures: 1, window_start: at, locked_until: null })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet({ failures: 1, window_start: at })
        .where("sign_in_counters.window_start", "<=", new Date(now.getTime() - windowMs).toISOString()),
    )
    .returning("key")
    .executeTakeFirst();
  return taken !== undefined;
}
