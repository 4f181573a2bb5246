/**
 * A write transaction that gives way rather than wait when another connection holds SQLite's write
 * lock. better-sqlite3 waits for the lock synchronously, on the thread that asks, for up to
 * busy_timeout (5 s): on the answering thread that wait stops every request. The batch lane's
 * threads commit a chunk group at a time and hold the lock for tens of milliseconds per commit, so a
 * background write from the answering thread that can wait for a later turn (usage counts) asks
 * for the lock without waiting, and is tried again later (docs/operations/benchmarks.md, "Batch jobs
 * beside single lookups"). PostgreSQL waits for its row locks asynchronously, so there the
 * transaction simply runs.
 */
import type SQLite from "better-sqlite3";
import type { Db } from "./database.ts";
import type { Transaction } from "kysely";
import type { Database } from "./database.ts";

/** Runs `work` in a transaction; false, with nothing written, when SQLite's write lock was held elsewhere. */
export async function writeIfUnlocked(db: Db, sqlite: SQLite.Database | undefined, work: (trx: Transaction<Database>) => Promise<void>): Promise<boolean> {
  if (!sqlite) {
    await db.transaction().execute(work);
    return true;
  }
  try {
    await db.transaction().execute(async (trx) => {
      // Inside the transaction the connection is this one's alone (kysely serialises its use), so no other query runs without its wait.
      const timeout = sqlite.pragma("busy_timeout", { simple: true }) as number;
      sqlite.pragma("busy_timeout = 0");
      try {
        await work(trx);
      } finally {
        sqlite.pragma(`busy_timeout = ${timeout}`);
      }
    });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_BUSY") return false;
    throw error;
  }
}
