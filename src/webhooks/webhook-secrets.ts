/**
 * Writing webhooks with their signing secrets sealed (SECRETS_KEY, secret-box.ts). The rows these
 * functions return carry the secret itself, for the one answer that shows it; the database holds
 * only what the box sealed.
 */
import type { Db } from "../store/database.ts";
import type { Webhook } from "../store/webhooks-and-jobs.tables.ts";
import { insertWebhook, listStoredSecrets, replaceStoredSecret, rotateWebhookSecret, type NewWebhookFields } from "../store/webhooks.repository.ts";
import { SecretBox } from "./secret-box.ts";

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
 * Seals every secret still stored as it is, once SECRETS_KEY is set. Each row is updated only if
 * it still holds the value read, so instances starting together do not seal a secret twice.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox): Promise<number> {
  if (!box.sealing) return 0;
  let sealed = 0;
  for (const row of await listStoredSecrets(db)) {
    for (const column of ["secret", "previous_secret"] as const) {
      const stored = row[column];
      if (stored === null || SecretBox.isSealed(stored)) continue;
      if (await replaceStoredSecret(db, row.id, column, stored, box.seal(stored))) sealed += 1;
    }
  }
  return sealed;
}
