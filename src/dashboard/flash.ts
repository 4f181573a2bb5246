/**
 * One-time notices carried across a redirect ("You have signed out", "Your organization is
 * suspended", "Password changed"): the server sets their name in a short-lived HttpOnly cookie
 * as it redirects, and the next sign-in page shows it once and clears it. A link cannot set a
 * cookie, so a crafted `/dashboard/sign-in?reason=suspended` shows nothing: only the server's own
 * answer says an organization is suspended (docs/guides/dashboard.md, "Notices").
 */
import { deleteCookie, getCookie, setCookie, type H3Event } from "h3";
import { isSecureRequest } from "../web/secure-request.ts";

const FLASH_COOKIE = "buckeye_notice";
const FLASHES = ["signed-out", "suspended", "password-reset"] as const;
export type Flash = (typeof FLASHES)[number];

function options(event: H3Event) {
  return { httpOnly: true, sameSite: "lax" as const, secure: isSecureRequest(event), path: "/dashboard" };
}

/** Sets the notice the next page shows; it lapses after a minute if that page never comes. */
export function setFlash(event: H3Event, flash: Flash): void {
  setCookie(event, FLASH_COOKIE, flash, { ...options(event), maxAge: 60 });
}

/** The notice the server set for this page, once: reading it clears it. */
export function takeFlash(event: H3Event): Flash | null {
  const value = getCookie(event, FLASH_COOKIE);
  if (value === undefined) return null;
  deleteCookie(event, FLASH_COOKIE, options(event));
  return (FLASHES as readonly string[]).includes(value) ? (value as Flash) : null;
}
