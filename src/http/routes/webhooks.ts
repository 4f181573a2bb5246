/**
 * /api/v1/webhooks (docs/guides/webhooks-and-jobs.md): register, list, read, update, delete, rotate the
 * secret, send a test event, list deliveries, redeliver one or recover all missed since a time.
 * Every operation is scoped to the organization of the calling key; another organization's
 * webhook is simply not found.
 */
import { getRouterParam, noContent, type H3Event } from "h3";
import { z } from "zod";
import type { DeliveryWithAttempts } from "../../store/deliveries.repository.ts";
import { createWebhookSchema, updateWebhookSchema } from "../../webhooks/validate-webhook.ts";
import { toWebhookRecord } from "../../webhooks/webhook-record.ts";
import { WebhookRefusal, type WebhookService } from "../../webhooks/webhook-service.ts";
import type { ApiContext } from "../context.ts";
import { readJsonObject } from "../json-body.ts";
import { parseBody } from "../../web/parse-body.ts";
import { problem, type InvalidParam } from "../../web/problem.ts";
import { readQuery } from "../query.ts";
import type { DeliveryRecord } from "../answer-schemas.ts";

function principalOf(event: H3Event) {
  const principal = event.context.principal;
  if (!principal) throw new Error("webhook routes run after admitRequest");
  return principal;
}

const describe = (params: InvalidParam[]) => `The webhook is not valid: ${params.map((p) => `${p.name} ${p.reason}`).join("; ")}.`;

/** A refusal of the webhook service as the problem the API answers with. */
function asProblem(error: unknown): unknown {
  if (!(error instanceof WebhookRefusal)) return error;
  const { refusal } = error;
  switch (refusal.code) {
    case "invalid-url":
      return problem("invalid-webhook", error.message, { invalidParams: refusal.problems });
    case "webhook-disabled":
      // The API's own advice: the way to re-activate a webhook here is PATCH.
      return problem("webhook-disabled", `Webhook ${refusal.webhook.id} is disabled (${refusal.webhook.disabled_reason ?? "no reason recorded"}). Set its status to active with PATCH first.`);
    case "since-in-future":
      return problem("bad-request", error.message, { invalidParams: [{ name: "since", reason: "must not be in the future" }] });
    default:
      return problem(refusal.code, error.message);
  }
}

/** A route over the webhook service: the caller's organization and the route's id, refusals as problems. */
function action<T>(ctx: ApiContext, run: (webhooks: WebhookService, organizationId: string, webhookId: string, event: H3Event) => Promise<T>) {
  return async (event: H3Event) => {
    try {
      return await run(ctx.webhooks, principalOf(event).organizationId, getRouterParam(event, "id") ?? "", event);
    } catch (error) {
      throw asProblem(error);
    }
  };
}

export function createWebhook(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId, _id, event) => {
    const body = parseBody(createWebhookSchema, await readJsonObject(event, "invalid-webhook"), "invalid-webhook", describe);
    const row = await webhooks.register(organizationId, principalOf(event).env, body);
    event.res.status = 201;
    event.res.headers.set("location", `/api/v1/webhooks/${row.id}`);
    return {
      webhook: toWebhookRecord(row, ctx.now(), { withSecret: true }),
      message: "Save the signing secret now: it is shown only once. Verify each delivery's X-Webhook-Signature with it.",
    };
  });
}

export function getWebhooks(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId) => {
    const now = ctx.now();
    const rows = await webhooks.list(organizationId);
    return { total: rows.length, webhooks: rows.map((row) => toWebhookRecord(row, now)) };
  });
}

export function getWebhook(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId, id) => ({ webhook: toWebhookRecord(await webhooks.find(organizationId, id), ctx.now()) }));
}

export function patchWebhook(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId, id, event) => {
    await webhooks.find(organizationId, id);
    const body = parseBody(updateWebhookSchema, await readJsonObject(event, "invalid-webhook"), "invalid-webhook", describe);
    return { webhook: toWebhookRecord(await webhooks.update(organizationId, principalOf(event).env, id, body), ctx.now()) };
  });
}

export function removeWebhook(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId, id) => {
    await webhooks.remove(organizationId, id);
    return noContent();
  });
}

export function rotateSecret(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId, id) => ({
    webhook: toWebhookRecord(await webhooks.rotateSecret(organizationId, id), ctx.now(), { withSecret: true }),
    message:
      "Save the new signing secret now: it is shown only once. Until previous_secret_expires_at each delivery carries two v1= signatures, one per secret, so receivers verify with either.",
  }));
}

export function sendTestEvent(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId, id, event) => {
    const published = await webhooks.sendTest(organizationId, id, "A test event from Buckeye. Verify its signature, then answer 2xx.");
    event.res.status = 202;
    return {
      event: published.envelope,
      message: "The test event is queued. GET this webhook's deliveries to see the attempt.",
    };
  });
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
  return action(ctx, async (webhooks, organizationId, id, event) => {
    const query = readQuery(event, DELIVERIES_QUERY);
    const { webhook, deliveries } = await webhooks.deliveries(organizationId, id, Number(query.limit ?? 50));
    return { webhook_id: webhook.id, deliveries: deliveries.map(deliveryRecord) };
  });
}

/**
 * POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver: after a receiver is fixed, its
 * customer replays what it missed (only a settled delivery, only to an active webhook).
 */
export function redeliverDelivery(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId, id, event) => {
    const delivery = await webhooks.redeliver(organizationId, id, getRouterParam(event, "delivery_id") ?? "");
    event.res.status = 202;
    return {
      delivery: deliveryRecord(delivery),
      message: "The event is queued again with the same X-Webhook-ID and a fresh retry schedule. GET this webhook's deliveries to follow it.",
    };
  });
}

export const recoverSchema = z.strictObject({
  since: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-11-20T00:00:00Z" }),
});

/**
 * POST /api/v1/webhooks/{id}/recover: after an outage, queues again every event since a time that
 * this webhook never received (each of its deliveries failed or was cancelled), oldest first, with
 * the same X-Webhook-ID. Events it received, or that are still queued, are left alone.
 */
export function recoverWebhook(ctx: ApiContext) {
  return action(ctx, async (webhooks, organizationId, id, event) => {
    await webhooks.find(organizationId, id);
    const body = parseBody(recoverSchema, await readJsonObject(event, "bad-request"), "bad-request", (params) =>
      `The recovery request is not valid: ${params.map((p) => `${p.name} ${p.reason}`).join("; ")}.`,
    );
    const { queued, remaining } = await webhooks.recover(organizationId, id, new Date(body.since));
    event.res.status = 202;
    return {
      queued,
      remaining,
      message:
        remaining > 0
          ? `${queued} missed events are queued again, oldest first. ${remaining} more remain: call again once these are delivered.`
          : `${queued} missed events are queued again, oldest first, each with its original X-Webhook-ID.`,
    };
  });
}
