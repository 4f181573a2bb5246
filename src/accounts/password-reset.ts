/**
 * Resetting a forgotten password (docs/guides/dashboard.md, "Forgotten passwords"): a one-time
 * link, valid for RESET_TTL_MS, whose random token is stored only as its SHA-256 (as session
 * tokens are), so a copy of the database opens no account. Using it sets the new password, marks
 * it used, drops the user's other links and ends every session of the user.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../store/database.ts";
import { findUsableReset, insertPasswordReset, useReset } from "../store/password-resets.repository.ts";
import { deleteSessionsOf } from "../store/sessions.repository.ts";
import { findUserByEmail, setPasswordHash } from "../store/users.repository.ts";
import { normalizeEmail } from "./accounts.ts";
import { hashPassword } from "./password.ts";
import { passwordProblem } from "./password-policy.ts";

export const RESET_TTL_MS = 30 * 60_000;

/** The path of a reset link; the token rides in its query. */
export const RESET_PATH = "/dashboard/reset-password";

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface IssuedReset {
  email: string;
  token: string;
  expiresAt: Date;
}

/** A new link for the account with this email; null when there is none (the caller answers the same either way). */
export async function issueReset(db: Db, emailInput: string, now: Date): Promise<IssuedReset | null> {
  const found = await findUserByEmail(db, normalizeEmail(emailInput));
  if (!found) return null;
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + RESET_TTL_MS);
  await insertPasswordReset(db, { tokenHash: hashToken(token), userId: found.user.id, expiresAt }, now);
  return { email: found.user.email, token, expiresAt };
}

/** Whether a link still works, and for which account (shown on its page). */
export async function resetFor(db: Db, token: string, now: Date): Promise<{ email: string } | null> {
  if (!token) return null;
  const reset = await findUsableReset(db, hashToken(token), now);
  return reset ? { email: reset.email } : null;
}

export type ResetResult =
  | { ok: true; userId: string; email: string; signedOut: number }
  | { ok: false; reason: "invalid-link" }
  | { ok: false; reason: "password"; message: string };

export async function resetPassword(db: Db, token: string, password: string, now: Date): Promise<ResetResult> {
  const tokenHash = hashToken(token);
  const reset = token ? await findUsableReset(db, tokenHash, now) : undefined;
  if (!reset) return { ok: false, reason: "invalid-link" };
  const problem = await passwordProblem(password, [reset.email, reset.organizationName]);
  if (problem) return { ok: false, reason: "password", message: problem };
  const passwordHash = await hashPassword(password);
  const signedOut = await db.transaction().execute(async (trx) => {
    if (!(await useReset(trx, tokenHash, reset.userId, now))) return null;
    await setPasswordHash(trx, reset.userId, passwordHash);
    return deleteSessionsOf(trx, reset.userId);
  });
  return signedOut === null ? { ok: false, reason: "invalid-link" } : { ok: true, userId: reset.userId, email: reset.email, signedOut };
}
