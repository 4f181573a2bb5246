/**
 * Dashboard sessions. A session is found by the SHA-256 of its cookie token, together with its
 * user and organization in one query, because every dashboard request needs all three.
 */
import { newId } from "../ids.ts";
import type { Db, FilingFrequency, OrganizationStatus } from "./database.ts";
import type { Session } from "./dashboard.tables.ts";

export interface NewSessionFields {
  tokenHash: string;
  userId: string;
  csrfToken: string;
  expiresAt: Date;
}

export async function insertSession(db: Db, fields: NewSessionFields, now: Date): Promise<Session> {
  const row: Session = {
    id: newId("ses"),
    token_hash: fields.tokenHash,
    user_id: fields.userId,
    csrf_token: fields.csrfToken,
    created_at: now.toISOString(),
    expires_at: fields.expiresAt.toISOString(),
  };
  await db.insertInto("sessions").values(row).execute();
  return row;
}

export interface SessionView {
  sessionId: string;
  csrfToken: string;
  expiresAt: string;
  userId: string;
  email: string;
  organizationId: string;
  organizationName: string;
  organizationStatus: OrganizationStatus;
  filingFrequency: FilingFrequency;
  organizationCreatedAt: string;
  /** Null while the organization is in trial (docs/guides/dashboard.md, "Trial organizations"). */
  organizationVerifiedAt: string | null;
}

/** The unexpired session with this token hash, or undefined. */
export async function findSession(db: Db, tokenHash: string, now: Date): Promise<SessionView | undefined> {
  return db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .innerJoin("organizations", "organizations.id", "users.organization_id")
    .select([
      "sessions.id as sessionId",
      "sessions.csrf_token as csrfToken",
      "sessions.expires_at as expiresAt",
      "users.id as userId",
      "users.email as email",
      "organizations.id as organizationId",
      "organizations.name as organizationName",
      "organizations.status as organizationStatus",
      "organizations.filing_frequency as filingFrequency",
      "organizations.created_at as organizationCreatedAt",
      "organizations.verified_at as organizationVerifiedAt",
    ])
    .where("sessions.token_hash", "=", tokenHash)
    .where("sessions.expires_at", ">", now.toISOString())
    .executeTakeFirst();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", id).execute();
}

/** Sessions past their expiry are useless; dropped whenever someone signs in. */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.deleteFrom("sessions").where("expires_at", "<=", now.toISOString()).execute();
}

/** Ends every session of this user but one: after a password change, other devices sign in again. */
export async function deleteOtherSessions(db: Db, userId: string, keepId: string): Promise<number> {
  const result = await db.deleteFrom("sessions").where("user_id", "=", userId).where("id", "!=", keepId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends every session of this user: after a password reset, whoever was signed in signs in again. */
export async function deleteSessionsOf(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
