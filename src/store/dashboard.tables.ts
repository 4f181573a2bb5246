/**
 * Row shapes of the tables added by migrations 2026-11-21-030 (dashboard accounts and per-key
 * usage) and 2026-11-22-050 (sign-in counters and one-time form tokens). Listed in the `Database` interface of database.ts.
 */
import type { Selectable } from "kysely";

export type UserRole = "owner";

export interface UsersTable {
  id: string;
  organization_id: string;
  /** Trimmed and lower-cased: one account per address, whatever case it was typed in. */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (src/accounts/password.ts), so the cost can be raised later. */
  password_hash: string;
  role: UserRole;
  created_at: string;
}

export interface SessionsTable {
  id: string;
  /** SHA-256 of the cookie's token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  /** Every form of this session carries it (src/dashboard/csrf.ts). */
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface ApiKeyUsageTable {
  key_id: string;
  /** Ohio calendar date (rates/calendar.ts), YYYY-MM-DD. */
  day: string;
  /** Requests of every outcome; rows from before migration 460 have this alone (their classes are 0). */
  count: number;
  /** Status below 400. */
  answered: number;
  /** 4xx but 429: the request was refused as sent. */
  client_errors: number;
  /** 429: over a rate limit or a cap on work in flight. */
  rate_limited: number;
  /** 5xx. */
  server_errors: number;
}

/** A device that signed in to an account (migrations/2026-11-27-320-known-devices.ts). */
export interface KnownDevicesTable {
  /** SHA-256 of the device cookie's token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

/** A password reset link (migrations/2026-11-27-370-password-resets.ts). */
export interface PasswordResetsTable {
  /** SHA-256 of the link's token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** When the link set a password; a used link opens nothing. */
  used_at: string | null;
}

export interface SignInCountersTable {
  /** `e:<email>`, `a:<client address>` or `d:<known device's token hash>`. */
  key: string;
  failures: number;
  window_start: string;
  locked_until: string | null;
}

export interface FormTokensTable {
  session_id: string;
  token: string;
  used_at: string;
}

export type User = Selectable<UsersTable>;
export type Session = Selectable<SessionsTable>;
