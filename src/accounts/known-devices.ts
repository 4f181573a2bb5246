/**
 * Known devices (docs/guides/dashboard.md, "Sign-in throttle"): a browser that has proved it knows
 * the account's password (a sign-in) or owns its mailbox (a completed reset) is given a random
 * token, kept by the browser in a long-lived cookie and by the database only as its SHA-256 with
 * the account. A sign-in from such a device is throttled by the device's own count instead of
 * the account's (sign-in-throttle.ts), so strangers' wrong passwords cannot lock the owner out of
 * a browser they have used before. The cookie itself is the dashboard's (src/dashboard/known-device.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../store/database.ts";
import { forgetOtherDevices, isKnownDevice, rememberDevice } from "../store/known-devices.repository.ts";

export const DEVICE_TTL_MS = 90 * 24 * 60 * 60 * 1000;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The token hash of a device when it is known to the account with this (normalized) email; null otherwise. */
export async function knownDevice(db: Db, token: string | null | undefined, email: string, now: Date): Promise<string | null> {
  if (!token) return null;
  const tokenHash = hashToken(token);
  return (await isKnownDevice(db, tokenHash, email, now)) ? tokenHash : null;
}

/** Remembers a new device for the user; the answer is its token, for the device's cookie and nowhere else. */
export async function rememberNewDevice(db: Db, userId: string, now: Date): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await rememberDevice(db, { tokenHash: hashToken(token), userId, expiresAt: new Date(now.getTime() + DEVICE_TTL_MS) }, now);
  return token;
}

/** After a new password: only the device it was set from (when known) stays known; the others knew the old one. */
export async function forgetDevicesBut(db: Db, userId: string, keep: string | null): Promise<void> {
  await forgetOtherDevices(db, userId, keep);
}
