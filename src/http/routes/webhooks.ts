/**
 * /api/v1/webhooks (spec §4.3, DESIGN §3): register, list, read, update, delete, rotate the
 * secret, send a test event, list deliveries, redeliver one or recover all missed since a time.
 * Every operation is scoped to the organization of the calling key; another organization's
 * webhook is simply not found.
 */
import { getRouterParam, noContent, type H3Event } from "h3";
import { z } from "zod";
import { listDeliveries, recoverUndelivered, redeliver, type DeliveryWithAttempts } from "../../store/deliveries.repository.ts";
import type { Webhook } from "../../store/webhooks-and-jobs.tables.ts";
import { deleteWebhook, findWebhook, listWebhooks, updateWebhook } from "../../store/webhooks.repository.ts";
import { publishEvent } from "../../webhooks/outbox.ts";
import { newWebhookSecret } from "../../webhooks/sign.ts";
import { checkWebhookUrl, createWebhookSchema, updateWebhookSchema } from "../../webhooks/validate-webhook.ts";
import { toWebhookRecord } from "../../webhooks/webhook-record.ts";
import { registerWebhook, replaceSecret } from "../../webhooks/webhook-secrets.ts";
import type { ApiContext } from "../context.ts";
import { parseBody, readJsonObject } from "../json-body.ts";
import { problem, type InvalidParam } from "../problem.ts";
import { readQuery } from "../query.ts";
import type { DeliveryRecord } from "../answer-schemas.ts";

/** How long a rotated-out secret keeps signing next to the new one. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

function principalOf(event: H3Event) {
  const principal = event.context.principal;
  if (!principal) throw new Error("webhook routes run after authenticate");
  return principal;
}

const describe = (params: InvalidParam[]) => `The webhook is not valid: ${params.map((p) => `${p.name} ${p.reason}`).join("; ")}.`;

/** The URL as it is stored (its WHATWG serialisation), or a 422 naming what is wrong with it. */
async function requireUsableUrl(ctx: ApiContext, url: string, env: "live" | "test"): Promise<string> {
  const check = await checkWebhookUrl(url, env, ctx.config.webhooks.privateTargets);
  if (!check.ok) throw problem("invalid-webhook", describe(check.problems), { invalidParams: check.problems });
  return check.href;
}

async function requireWebhook(ctx: ApiContext, event: H3Event) {
  const id = getRouterParam(event, "id") ?? "";
  const row = await findWebhook(ctx.db, principalOf(event).organizationId, id);
  if (!row) throw problem("webhook-not-found", `No webhook ${id} in this organization.`);
  return row;
}

export function createWebhook(ctx: ApiContext) {
  return async (event: H3Event) => {
    const principal = principalOf(event);
    const body = parseBody(createWebhookSchema, await readJsonObject(event, "invalid-webhook"), "invalid-webhook", describe);
    const url = await requireUsableUrl(ctx, body.url, principal.env);
    const now = ctx.now();
    const row = await registerWebhook(
      ctx.db,
      { organizationId: principal.organizationId, env: principal.env, url, events: body.events, secret: newWebhookSecret() },
      now,
      ctx.secrets,
    );
    event.res.status = 201;
    event.res.headers.set("location", `/api/v1/webhooks/${row.id}`);
    return {
      webhook: toWebhookRecord(row, now, { withSecret: true }),
      message: "Save the signing secret now: it is shown only once. Verify each delivery's X-Webhook-Signature with it.",
    };
  };
}

export function getWebhooks(ctx: ApiContext) {
  return async (event: H3Event) => {
    const now = ctx.now();
    const rows = await listWebhooks(ctx.db, principalOf(event).organizationId);
    return { total: rows.length, webhooks: rows.map((row) => toWebhookRecord(row, now)) };
  };
}

export function getWebhook(ctx: ApiContext) {
  return async (event: H3Event) => ({ webhook: toWebhookRecord(await requireWebhook(ctx, event), ctx.now()) });
}

export function patchWebhook(ctx: ApiContext) {
  return async (event: H3Event) => {
    const principal = principalOf(event);
    const current = await requireWebhook(ctx, event);
    const body = parseBody(updateWebhookSchema, await readJsonObject(event, "invalid-webhook"), "invalid-webhook", describe);
    // A URL is judged by the key that registered the webhook, so a test key cannot point a live webhook at loopback.
    const url = body.url === undefined ? undefined : await requireUsableUrl(ctx, body.url, principal.env === "live" || current.env === "live" ? "live" : "test");
    const now = ctx.now();
    const row = await updateWebhook(ctx.db, principal.organizationId, current.id, { ...body, ...(url !== undefined && { url }) }, now);
    if (!row) throw problem("webhook-not-found", `No webhook ${current.id} in this organization.`);
    return { webhook: toWebhookRecord(row, now) };
  };
}

export function removeWebhook(ctx: ApiContext) {
  return async (event: H3Event) => {
    const current = await requireWebhook(ctx, event);
    await deleteWebhook(ctx.db, principalOf(event).organizationId, current.id);
    return noContent();
  };
}

export function rotateSecret(ctx: ApiContext) {
  return async (event: H3Event) => {
    const current = await requireWebhook(ctx, event);
    const now = ctx.now();
    const row = await replaceSecret(
      ctx.db,
      principalOf(event).organizationId,
      current.id,
      newWebhookSecret(),
      new Date(now.getTime() + ROTATION_GRACE_MS),
      now,
      ctx.secrets,
    );
    if (!row) throw problem("webhook-not-found", `No webhook ${current.id} in this organization.`);
    return {
      webhook: toWebhookRecord(row, now, { withSecret: true }),
      message:
        "Save the new signing secret now: it is shown only once. Until previous_secret_expires_at each delivery carries two v1= signatures, one per secret, so receivers verify with either.",
    };
  };
}

export function sendTestEvent(ctx: ApiContext) {
  return async (event: H3Event) => {
    const current = await requireWebhook(ctx, event);
    const published = await ctx.db.transaction().execute((trx) =>
      publishEvent(
        trx,
        {
          type: "webhook.test",
          data: { webhook_id: current.id, message: "A test event from Buckeye. Verify its signature, then answer 2xx." },
          organizationId: current.organization_id,
          webhookId: current.id,
        },
        ctx.now(),
      ),
    );
    ctx.wakeDeliveries();
    event.res.status = 202;
    return {
      event: published.envelope,
      message: "The test event is queued. GET this webhook's deliveries to see the attempt.",
    };
  };
}

export const DELIVERIES_QUERY = {
  limit: z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .refine((n) => Number(n) >= 1 && Number(n) <= 200, "must be between 1 and 200")
    .optional(),
};

function deliveryRecord(row: DeliveryWithAttempts): DeliveryRecord {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempts,
    next_attempt_at: row.status === "pending" ? row.next_attempt_at : null,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
    attempts: row.attempt_log.map((a) => ({
      number: a.number,
      attempted_at: a.attempted_at,
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      outcome: a.outcome,
      error: a.error,
    })),
  };
}

export function getDeliveries(ctx: ApiContext) {
  return async (event: H3Event) => {
    const query = readQuery(event, DELIVERIES_QUERY);
    const current = await requireWebhook(ctx, event);
    const rows = await listDeliveries(ctx.db, current.id, Number(query.limit ?? 50));
    return { webhook_id: current.id, deliveries: rows.map(deliveryRecord) };
  };
}

/** Events queued for a disabled webhook would be cancelled at once: it must be set active first. */
function requireActive(webhook: Webhook): void {
  if (webhook.status === "disabled") {
    throw problem("webhook-disabled", `Webhook ${webhook.id} is disabled (${webhook.disabled_reason ?? "no reason recorded"}). Set its status to active with PATCH first.`);
  }
}

/**
 * POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver: after a receiver is fixed, its
 * customer replays what it missed. Only a settled delivery is replayed, and only to an active
 * webhook, since a disabled one would have the new delivery cancelled at once.
 */
export function redeliverDelivery(ctx: ApiContext) {
  return async (event: H3Event) => {
    const current = await requireWebhook(ctx, event);
    const deliveryId = getRouterParam(event, "delivery_id") ?? "";
    requireActive(current);
    const result = await redeliver(ctx.db, current.id, deliveryId, ctx.now());
    if (result.outcome === "not-found") throw problem("delivery-not-found", `No delivery ${deliveryId} for webhook ${current.id}.`);
    if (result.outcome === "already-pending") {
      throw problem(
        "delivery-pending",
        `Event ${result.pending.event_id} is already queued for this webhook as delivery ${result.pending.id}, next attempt at ${result.pending.next_attempt_at}.`,
      );
    }
    ctx.wakeDeliveries();
    event.res.status = 202;
    return {
      delivery: deliveryRecord(result.delivery),
      message: "The event is queued again with the same X-Webhook-ID and a fresh retry schedule. GET this webhook's deliveries to follow it.",
    };
  };
}

/** How many missed events one recover call queues; the answer says how many are left. */
export const MAX_RECOVERED = 1000;

export const recoverSchema = z.strictObject({
  since: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-11-20T00:00:00Z" }),
});

/**
 * POST /api/v1/webhooks/{id}/recover: after an outage, queues again every event since a time that
 * this webhook never received (each of its deliveries failed or was cancelled), oldest first, with
 * the same X-Webhook-ID. Events it received, or that are still queued, are left alone.
 */
export function recoverWebhook(ctx: ApiContext) {
  return async (event: H3Event) => {
    const current = await requireWebhook(ctx, event);
    const body = parseBody(recoverSchema, await readJsonObject(event, "bad-request"), "bad-request", (params) =>
      `The recovery request is not valid: ${params.map((p) => `${p.name} ${p.reason}`).join("; ")}.`,
    );
    const now = ctx.now();
    const since = new Date(body.since);
    if (since > now) {
      throw problem("bad-request", "since is in the future: nothing could have been missed yet.", { invalidParams: [{ name: "since", reason: "must not be in the future" }] });
    }
    requireActive(current);
    const { queued, remaining } = await recoverUndelivered(ctx.db, current.id, since, now, MAX_RECOVERED);
    if (queued > 0) ctx.wakeDeliveries();
    event.res.status = 202;
    return {
      queued,
      remaining,
      message:
        remaining > 0
          ? `${queued} missed events are queued again, oldest first. ${remaining} more remain: call again once these are delivered.`
          : `${queued} missed events are queued again, oldest first, each with its original X-Webhook-ID.`,
    };
  };
}
