/**
 * Webhook registrations, always scoped to the organization that owns them. Secrets are stored as
 * given: sealing them is src/webhooks/webhook-secrets.ts's business.
 */
import { newId } from "../ids.ts";
import type { Db } from "./database.ts";
import type { Webhook, WebhookStatus } from "./webhooks.tables.ts";

export interface NewWebhookFields {
  organizationId: string;
  env: "live" | "test";
  url: string;
  events: string[];
  secret: string;
}

export async function insertWebhook(db: Db, fields: NewWebhookFields, now: Date): Promise<Webhook> {
  const at = now.toISOString();
  const row: Webhook = {
    id: newId("wh"),
    organization_id: fields.organizationId,
    env: fields.env,
    url: fields.url,
    events: JSON.stringify(fields.events),
    secret: fields.secret,
    previous_secret: null,
    previous_secret_expires_at: null,
    status: "active",
    disabled_reason: null,
    created_at: at,
    updated_at: at,
    consecutive_failures: 0,
    last_success_at: null,
  };
  await db.insertInto("webhooks").values(row).execute();
  return row;
}

export async function listWebhooks(db: Db, organizationId: string): Promise<Webhook[]> {
  return db.selectFrom("webhooks").selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute();
}

/** Every webhook of the organization, active or disabled: what the per-organization cap counts. */
export async function countWebhooks(db: Db, organizationId: string): Promise<number> {
  const row = await db.selectFrom("webhooks").select((eb) => eb.fn.countAll<number>().as("n")).where("organization_id", "=", organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findWebhook(db: Db, organizationId: string, id: string): Promise<Webhook | undefined> {
  return db.selectFrom("webhooks").selectAll().where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
}

/** Active webhooks that may receive an event for this organization (null: every organization). */
export async function listActiveWebhooks(db: Db, organizationId: string | null): Promise<Webhook[]> {
  return db
    .selectFrom("webhooks")
    .selectAll()
    .where("status", "=", "active")
    .$if(organizationId !== null, (q) => q.where("organization_id", "=", organizationId!))
    .execute();
}

export interface WebhookChanges {
  url?: string;
  events?: string[];
  status?: WebhookStatus;
}

export async function updateWebhook(db: Db, organizationId: string, id: string, changes: WebhookChanges, now: Date): Promise<Webhook | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("webhooks")
      .set({
        ...(changes.url !== undefined && { url: changes.url }),
        ...(changes.events !== undefined && { events: JSON.stringify(changes.events) }),
        ...(changes.status !== undefined && {
          status: changes.status,
          disabled_reason: changes.status === "disabled" ? "disabled through the API" : null,
        }),
        updated_at: now.toISOString(),
      })
      .where("organization_id", "=", organizationId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    if (row && changes.status === "disabled") await cancelPendingDeliveries(trx, id, now);
    return row;
  });
}

/** Makes `secret` the signing secret; the old one keeps signing until `previousUntil`. */
export async function rotateWebhookSecret(
  db: Db,
  organizationId: string,
  id: string,
  secret: string,
  previousUntil: Date,
  now: Date,
): Promise<Webhook | undefined> {
  const current = await findWebhook(db, organizationId, id);
  if (!current) return undefined;
  return db
    .updateTable("webhooks")
    .set({
      secret,
      previous_secret: current.secret,
      previous_secret_expires_at: previousUntil.toISOString(),
      updated_at: now.toISOString(),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}

export type SecretColumn = "secret" | "previous_secret";

export async function listStoredSecrets(db: Db): Promise<Array<Pick<Webhook, "id" | SecretColumn>>> {
  return db.selectFrom("webhooks").select(["id", "secret", "previous_secret"]).execute();
}

/** Replaces a stored secret only if it still holds `from`; true when it did. */
export async function replaceStoredSecret(db: Db, id: string, column: SecretColumn, from: string, to: string): Promise<boolean> {
  const result = await db.updateTable("webhooks").set({ [column]: to }).where("id", "=", id).where(column, "=", from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the webhook with its deliveries and their attempts; returns false if there was none. */
export async function deleteWebhook(db: Db, organizationId: string, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const found = await trx.deleteFrom("webhooks").where("organization_id", "=", organizationId).where("id", "=", id).returning("id").executeTakeFirst();
    if (!found) return false;
    const deliveries = trx.selectFrom("deliveries").select("id").where("webhook_id", "=", id);
    await trx.deleteFrom("delivery_attempts").where("delivery_id", "in", deliveries).execute();
    await trx.deleteFrom("deliveries").where("webhook_id", "=", id).execute();
    return true;
  });
}

/**
 * Stops a webhook (410 Gone, or retries exhausted): its pending deliveries are cancelled with it,
 * in-flight ones included (their outcome is still logged as an attempt).
 */
export async function disableWebhook(db: Db, id: string, reason: string, now: Date): Promise<void> {
  await db.updateTable("webhooks").set({ status: "disabled", disabled_reason: reason, updated_at: now.toISOString() }).where("id", "=", id).execute();
  await cancelPendingDeliveries(db, id, now);
}

async function cancelPendingDeliveries(db: Db, webhookId: string, now: Date): Promise<void> {
  await db
    .updateTable("deliveries")
    .set({ status: "cancelled", claimed_by: null, claimed_until: null, updated_at: now.toISOString() })
    .where("webhook_id", "=", webhookId)
    .where("status", "=", "pending")
    .execute();
}

/**
 * Keeps an endpoint's record of its answers: a 2xx clears its failures, anything else (an error
 * status, a timeout, no connection) adds one. The record decides how many delivery slots the
 * endpoint may hold (deliveries.repository.ts, claimDueDeliveries).
 */
export async function noteEndpointAnswer(db: Db, id: string, answered: boolean, at: Date): Promise<void> {
  await db
    .updateTable("webhooks")
    .set(answered ? { consecutive_failures: 0, last_success_at: at.toISOString() } : (eb) => ({ consecutive_failures: eb("consecutive_failures", "+", 1) }))
    .where("id", "=", id)
    .execute();
}
