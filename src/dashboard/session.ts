/**
 * Dashboard sessions: a random token in an HttpOnly, SameSite=Lax cookie (Secure when served over
 * TLS), looked up by its SHA-256 in the sessions table on every dashboard request, so signing out
 * or suspending an organization takes effect at once. Sessions last 7 days from sign-in.
 */
import { createHash, randomBytes } from "node:crypto";
import { deleteCookie, getCookie, setCookie, type H3Event, type Middleware } from "h3";
import type { Db } from "../store/database.ts";
import { deleteExpiredSessions, deleteSession, findSession, insertSession, type SessionView } from "../store/sessions.repository.ts";
import { newToken } from "./csrf.ts";
import { setFlash } from "./flash.ts";
import { redirectTo } from "./respond.ts";
import { isSecureRequest } from "../web/secure-request.ts";

export const SESSION_COOKIE = "buckeye_session";
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

declare module "h3" {
  interface H3EventContext {
    session?: SessionView;
  }
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface SessionDeps {
  db: Db;
  now: () => Date;
}

/** Starts a session for the user and sets its cookie. */
export async function startSession(event: H3Event, deps: SessionDeps, userId: string): Promise<void> {
  const now = deps.now();
  await deleteExpiredSessions(deps.db, now);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(deps.db, { tokenHash: hashToken(token), userId, csrfToken: newToken(), expiresAt }, now);
  setCookie(event, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: isSecureRequest(event),
    path: "/dashboard",
    maxAge: SESSION_TTL_MS / 1000,
  });
}

/** The signed-in session of this request, if any. */
export async function currentSession(event: H3Event, deps: SessionDeps): Promise<SessionView | undefined> {
  const token = getCookie(event, SESSION_COOKIE);
  if (!token) return undefined;
  return findSession(deps.db, hashToken(token), deps.now());
}

export async function endSession(event: H3Event, deps: SessionDeps, session: SessionView | undefined): Promise<void> {
  if (session) await deleteSession(deps.db, session.sessionId);
  deleteCookie(event, SESSION_COOKIE, { path: "/dashboard", httpOnly: true, sameSite: "lax", secure: isSecureRequest(event) });
}

/**
 * Route middleware for pages that need a signed-in user: without a session, off to sign in (and
 * back here afterwards); with a session of a suspended organization, signed out with the reason.
 */
export function requireSession(deps: SessionDeps): Middleware {
  return async (event) => {
    const session = await currentSession(event, deps);
    if (!session) {
      const back = event.req.method === "GET" ? `?next=${encodeURIComponent(event.url.pathname)}` : "";
      return redirectTo(event, `/dashboard/sign-in${back}`);
    }
    if (session.organizationStatus !== "active") {
      await endSession(event, deps, session);
      setFlash(event, "suspended");
      return redirectTo(event, "/dashboard/sign-in");
    }
    event.context.session = session;
  };
}
