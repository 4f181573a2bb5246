/** One-time form tokens (src/dashboard/submit-once.ts), shared by every instance. */
import type { Db } from "./database.ts";

/**
 * Records the token as used. True only for the first use: the insert is a single statement that
 * does nothing on a repeat, so two instances receiving the same post cannot both accept it.
 */
export async function useFormToken(db: Db, sessionId: string, token: string, now: Date): Promise<boolean> {
  const inserted = await db
    .insertInto("form_tokens")
    .values({ session_id: sessionId, token, used_at: now.toISOString() })
    .onConflict((oc) => oc.columns(["session_id", "token"]).doNothing())
    .returning("token")
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function dropFormTokensUsedBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom("form_tokens").where("used_at", "<", before.toISOString()).execute();
}
