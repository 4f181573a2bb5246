/**
 * Signing, as Stripe does it (docs/guides/webhooks-and-jobs.md): v1 = hex HMAC-SHA256 keyed with the whole secret string
 * ("whsec_…", UTF-8) over "<t>.<raw body>", t being the X-Webhook-Timestamp in seconds. The header
 * is exactly `t=<t>,v1=<hex>[,v1=<hex>]`, no spaces: Stripe's verifier does not trim.
 */
import { createHmac, randomBytes } from "node:crypto";

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("hex")}`;
}

export function signature(secret: string, timestamp: number, payload: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
}

/** One v1 entry per secret: during a rotation's grace period the new and the old secret both sign. */
export function signatureHeader(secrets: readonly string[], timestamp: number, payload: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signature(secret, timestamp, payload)}`)].join(",");
}

export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

export function activeSecrets(webhook: SigningSecrets, now: Date): string[] {
  const previousLive = webhook.previousSecret !== null && webhook.previousSecretExpiresAt !== null && webhook.previousSecretExpiresAt > now.toISOString();
  return previousLive ? [webhook.secret, webhook.previousSecret!] : [webhook.secret];
}
