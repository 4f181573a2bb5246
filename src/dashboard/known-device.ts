/**
 * Known devices (docs/guides/dashboard.md, "Sign-in throttle"): a successful sign-in leaves a
 * random token in a long-lived HttpOnly cookie, and the database keeps its SHA-256 with the
 * account. A later sign-in to that account from that device is throttled by the device's own
 * count instead of the account's and the address's, so a stranger's wrong passwords, from however
 * many addresses, cannot lock the owner out of a browser they have used before. Signing out keeps
 * the cookie: it says the device has known the password, not that anyone is signed in. Changing the
 * password forgets every other device, as it signs every other session out.
 */
import { createHash, randomBytes } from "node:crypto";
import { getCookie, setCookie, type H3Event } from "h3";
import type { Db } from "../store/database.ts";
import { forgetOtherDevices, isKnownDevice, rememberDevice } from "../store/known-devices.repository.ts";
import { isSecureRequest } from "../web/secure-request.ts";

export const DEVICE_COOKIE = "buckeye_device";
export const DEVICE_TTL_MS = 90 * 24 * 60 * 60 * 1000;

export interface KnownDeviceDeps {
  db: Db;
  now: () => Date;
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The token hash of this request's device cookie when that device has signed in to this account before; null otherwise. */
export async function knownDeviceFor(event: H3Event, deps: KnownDeviceDeps, email: string): Promise<string | null> {
  const token = getCookie(event, DEVICE_COOKIE);
  if (!token) return null;
  const tokenHash = hashToken(token);
  return (await isKnownDevice(deps.db, tokenHash, email, deps.now())) ? tokenHash : null;
}

/** After a successful sign-in from a device not known to this account: remember it, and set its cookie. */
export async function rememberThisDevice(event: H3Event, deps: KnownDeviceDeps, userId: string): Promise<void> {
  const now = deps.now();
  const token = randomBytes(32).toString("base64url");
  await rememberDevice(deps.db, { tokenHash: hashToken(token), userId, expiresAt: new Date(now.getTime() + DEVICE_TTL_MS) }, now);
  setCookie(event, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: "strict",
    secure: isSecureRequest(event),
    path: "/dashboard",
    maxAge: DEVICE_TTL_MS / 1000,
  });
}

/** After a password change made from this request's device: only this device (when known) stays known to the account. */
export async function forgetOtherDevicesOf(deps: KnownDeviceDeps, userId: string, thisDevice: string | null): Promise<void> {
  await forgetOtherDevices(deps.db, userId, thisDevice);
}
