/**
 * Writing webhooks with their signing secrets sealed (SECRETS_KEY, secret-box.ts). The rows these
 * functions return carry the secret itself, for the one answer that shows it; the database holds
 * only what the box sealed.
 */
import type { Db } from "../store/database.ts";
import type { Webhook } from "../store/webhooks.tables.ts";
import { insertWebhook, listStoredSecrets, replaceStoredSecret, rotateWebhookSecret, type NewWebhookFields } from "../store/webhooks.repository.ts";
import type { SecretBox } from "./secret-box.ts";

export async function registerWebhook(db: Db, fields: NewWebhookFields, now: Date, box: SecretBox): Promise<Webhook> {
  const row = await insertWebhook(db, { ...fields, secret: box.seal(fields.secret) }, now);
  return { ...row, secret: fields.secret };
}

/** Makes `secret` the signing secret; the old one keeps signing until `previousUntil`. */
export async function replaceSecret(
  db: Db,
  organizationId: string,
  id: string,
  secret: string,
  previousUntil: Date,
  now: Date,
  box: SecretBox,
): Promise<Webhook | undefined> {
  const row = await rotateWebhookSecret(db, organizationId, id, box.seal(secret), previousUntil, now);
  return row && { ...row, secret };
}

/**
 * Seals with the current SECRETS_KEY every secret still stored as it is, or sealed with the key it
 * replaces (SECRETS_KEY_PREVIOUS). Each row is updated only if it still holds the value read, so
 * instances starting together do not seal a secret twice. A secret neither key opens is left as
 * it is, and counted, for an operator to look into.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox): Promise<{ sealed: number; unreadable: number }> {
  const counts = { sealed: 0, unreadable: 0 };
  if (!box.sealing) return counts;
  for (const row of await listStoredSecrets(db)) {
    for (const column of ["secret", "previous_secret"] as const) {
      const stored = row[column];
      if (stored === null || !box.needsSealing(stored)) continue;
      let secret: string;
      try {
        secret = box.open(stored);
      } catch {
        counts.unreadable += 1;
        continue;
      }
      if (await replaceStoredSecret(db, row.id, column, stored, box.seal(secret))) counts.sealed += 1;
    }
  }
  return counts;
}
