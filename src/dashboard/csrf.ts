/**
 * Cross-site request forgery defences for every dashboard form:
 *
 * 1. Signed in, each form carries the session's own random token (stored with the session), and a
 *    post whose `_csrf` field does not match is refused.
 * 2. Signed out (sign in, sign up), a random token is set in a SameSite=Strict cookie and repeated
 *    in the form (double submit): another site can neither read the cookie nor make the browser
 *    send it, so it cannot sign a victim into an account of its choosing.
 * 3. Whatever the token, a post whose Origin or Sec-Fetch-Site says it came from another site is
 *    refused.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { getCookie, setCookie, type H3Event } from "h3";
import { dashboardError, readForm } from "./respond.ts";
import { isSecureRequest } from "../web/secure-request.ts";

export const CSRF_FIELD = "_csrf";
const FORM_COOKIE = "buckeye_form";

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

const expired = () =>
  dashboardError(
    403,
    "This form has expired",
    "The form was missing its security token or the token did not match, so nothing was changed. Go back, reload the page and try again.",
  );

function assertSameOrigin(event: H3Event): void {
  const site = event.req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") throw expired();
  const origin = event.req.headers.get("origin");
  if (origin && origin !== "null") {
    const host = event.req.headers.get("x-forwarded-host") ?? event.req.headers.get("host");
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw expired();
    }
    if (originHost !== host) throw expired();
  }
}

/** Refuses the post unless its `_csrf` field equals the session's token. */
export async function assertSessionToken(event: H3Event, sessionToken: string): Promise<void> {
  assertSameOrigin(event);
  const form = await readForm(event);
  if (!sameToken(form.get(CSRF_FIELD) ?? "", sessionToken)) throw expired();
}

/** The token for a signed-out form, set in its cookie when the visitor has none yet. */
export function signedOutToken(event: H3Event): string {
  const existing = getCookie(event, FORM_COOKIE);
  if (existing && /^[\w-]{43}$/.test(existing)) return existing;
  const token = newToken();
  setCookie(event, FORM_COOKIE, token, { httpOnly: true, sameSite: "strict", secure: isSecureRequest(event), path: "/dashboard" });
  return token;
}

/** Refuses a signed-out post unless its `_csrf` field equals the token in its cookie. */
export async function assertSignedOutToken(event: H3Event): Promise<void> {
  assertSameOrigin(event);
  const form = await readForm(event);
  if (!sameToken(form.get(CSRF_FIELD) ?? "", getCookie(event, FORM_COOKIE) ?? "")) throw expired();
}
