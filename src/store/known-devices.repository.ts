/**
 * Devices that have signed in to an account, found by the SHA-256 of their cookie's token
 * (src/accounts/known-devices.ts). A device is known to one account only: its token says nothing
 * about any other.
 */
import type { Db } from "./database.ts";

export async function rememberDevice(db: Db, fields: { tokenHash: string; userId: string; expiresAt: Date }, now: Date): Promise<void> {
  await db.deleteFrom("known_devices").where("expires_at", "<", now.toISOString()).execute();
  await db
    .insertInto("known_devices")
    .values({ token_hash: fields.tokenHash, user_id: fields.userId, created_at: now.toISOString(), expires_at: fields.expiresAt.toISOString() })
    .execute();
}

/** Whether the device with this token hash has signed in to the account of this (normalized) email, and is still remembered. */
export async function isKnownDevice(db: Db, tokenHash: string, email: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom("known_devices")
    .innerJoin("users", "users.id", "known_devices.user_id")
    .select("known_devices.token_hash")
    .where("known_devices.token_hash", "=", tokenHash)
    .where("users.email", "=", email)
    .where("known_devices.expires_at", ">", now.toISOString())
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets every device of the user but the one with `keep` (a password change: the devices that knew the old one know nothing now). */
export async function forgetOtherDevices(db: Db, userId: string, keep: string | null): Promise<void> {
  let query = db.deleteFrom("known_devices").where("user_id", "=", userId);
  if (keep) query = query.where("token_hash", "<>", keep);
  await query.execute();
}
