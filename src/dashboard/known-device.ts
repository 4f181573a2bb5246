/**
 * The known-device cookie (docs/guides/dashboard.md, "Sign-in throttle"): the token of a device the
 * account knows (src/accounts/known-devices.ts), in a long-lived HttpOnly cookie. Signing out keeps
 * it: it says the device has known the password, not that anyone is signed in.
 */
import { getCookie, setCookie, type H3Event } from "h3";
import { DEVICE_TTL_MS, knownDevice, rememberNewDevice } from "../accounts/known-devices.ts";
import type { Db } from "../store/database.ts";
import { isSecureRequest } from "../web/secure-request.ts";

export const DEVICE_COOKIE = "buckeye_device";

export interface KnownDeviceDeps {
  db: Db;
  now: () => Date;
}

/** The token in this request's device cookie, whichever account it is known to; null without one. */
export function deviceToken(event: H3Event): string | null {
  return getCookie(event, DEVICE_COOKIE) ?? null;
}

/** The token hash of this request's device cookie when that device is known to this account; null otherwise. */
export function knownDeviceFor(event: H3Event, deps: KnownDeviceDeps, email: string): Promise<string | null> {
  return knownDevice(deps.db, deviceToken(event), email, deps.now());
}

/** Gives this request's browser the token of a device the account now knows. */
export function setDeviceCookie(event: H3Event, token: string): void {
  setCookie(event, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: "strict",
    secure: isSecureRequest(event),
    path: "/dashboard",
    maxAge: DEVICE_TTL_MS / 1000,
  });
}

/** After a successful sign-in from a device not known to this account: remember it, and set its cookie. */
export async function rememberThisDevice(event: H3Event, deps: KnownDeviceDeps, userId: string): Promise<void> {
  setDeviceCookie(event, await rememberNewDevice(deps.db, userId, deps.now()));
}
