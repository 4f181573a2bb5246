/** Password reset links (migrations/2026-11-27-370-password-resets.ts), by the SHA-256 of their token. */
import type { Db } from "./database.ts";

export async function insertPasswordReset(db: Db, fields: { tokenHash: string; userId: string; expiresAt: Date }, now: Date): Promise<void> {
  // Links past their expiry are useless; dropped whenever a new one is made.
  await db.deleteFrom("password_resets").where("expires_at", "<=", now.toISOString()).execute();
  await db
    .insertInto("password_resets")
    .values({ token_hash: fields.tokenHash, user_id: fields.userId, created_at: now.toISOString(), expires_at: fields.expiresAt.toISOString(), used_at: null })
    .execute();
}

/** The user a link still resets (unused, unexpired), with the account's words for the password rule. */
export async function findUsableReset(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom("password_resets")
    .innerJoin("users", "users.id", "password_resets.user_id")
    .innerJoin("organizations", "organizations.id", "users.organization_id")
    .select(["users.id as userId", "users.email as email", "organizations.name as organizationName"])
    .where("password_resets.token_hash", "=", tokenHash)
    .where("password_resets.used_at", "is", null)
    .where("password_resets.expires_at", ">", now.toISOString())
    .executeTakeFirst();
}

/**
 * Marks the link used, if it still may be: of two submissions at once, one wins. Every other link
 * of the user goes with it, so an older mail cannot undo the new password.
 */
export async function useReset(db: Db, tokenHash: string, userId: string, now: Date): Promise<boolean> {
  const used = await db
    .updateTable("password_resets")
    .set({ used_at: now.toISOString() })
    .where("token_hash", "=", tokenHash)
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return false;
  await db.deleteFrom("password_resets").where("user_id", "=", userId).where("token_hash", "!=", tokenHash).execute();
  return true;
}
