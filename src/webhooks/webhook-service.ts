/**
 * The webhook actions and their rules, written once for every adapter: the API's /api/v1/webhooks
 * routes and the dashboard's webhook pages. An adapter reads its input (a JSON body, a form), calls
 * an action here and renders what comes back, or the refusal, in its own way (problem+json, a page).
 *
 * Every action is scoped to one organization: another organization's webhook is not found. The
 * rules that live here and nowhere else:
 * - a URL must be usable for the webhook's environment (validate-webhook.ts), and a change of URL
 *   is judged as live when either the webhook or the caller is live, so a test key cannot point a
 *   live webhook at loopback;
 * - a rotated-out secret keeps signing for ROTATION_GRACE_MS next to the new one;
 * - a redelivery or recovery is refused for a disabled webhook (the new delivery would be
 *   cancelled at once), a recovery from a time in the future is refused, and one call recovers at
 *   most MAX_RECOVERED events;
 * - an organization has at most `webhooksPerOrganization` webhooks (WEBHOOKS_PER_ORG), disabled
 *   ones counted too, since setting one active again is a PATCH away;
 * - whatever queues an event wakes the delivery actor.
 */
import type { KeyEnv, Db } from "../store/database.ts";
import { listDeliveries, recoverUndelivered, redeliver, type DeliveryWithAttempts } from "../store/deliveries.repository.ts";
import type { Delivery, Webhook } from "../store/webhooks.tables.ts";
import { lockOrganization } from "../store/organizations.repository.ts";
import { countWebhooks, deleteWebhook, findWebhook, listWebhooks, updateWebhook, type WebhookChanges } from "../store/webhooks.repository.ts";
import type { AllowedTargets } from "./address-guard.ts";
import { publishEvent, type Published } from "./outbox.ts";
import type { SecretBox } from "./secret-box.ts";
import { newWebhookSecret } from "./sign.ts";
import { checkWebhookUrl, createWebhookSchema, systemResolver, type InvalidParam, type Resolver } from "./validate-webhook.ts";
import { registerWebhook, replaceSecret } from "./webhook-secrets.ts";

/** How long a rotated-out secret keeps signing next to the new one. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** How many missed events one recovery queues; the answer says how many are left. */
export const MAX_RECOVERED = 1000;

export type Refusal =
  | { code: "invalid-url"; problems: InvalidParam[] }
  | { code: "webhook-not-found"; webhookId: string }
  | { code: "webhook-disabled"; webhook: Webhook }
  | { code: "delivery-not-found"; webhookId: string; deliveryId: string }
  | { code: "delivery-pending"; pending: Delivery }
  | { code: "since-in-future" }
  | { code: "webhook-limit-reached"; limit: number };

function describe(refusal: Refusal): string {
  switch (refusal.code) {
    case "invalid-url":
      return `The webhook is not valid: ${refusal.problems.map((p) => `${p.name} ${p.reason}`).join("; ")}.`;
    case "webhook-not-found":
      return `No webhook ${refusal.webhookId} in this organization.`;
    case "webhook-disabled":
      return `Webhook ${refusal.webhook.id} is disabled (${refusal.webhook.disabled_reason ?? "no reason recorded"}). Set its status to active first.`;
    case "delivery-not-found":
      return `No delivery ${refusal.deliveryId} for webhook ${refusal.webhookId}.`;
    case "delivery-pending":
      return `Event ${refusal.pending.event_id} is already queued for this webhook as delivery ${refusal.pending.id}, next attempt at ${refusal.pending.next_attempt_at}.`;
    case "since-in-future":
      return "since is in the future: nothing could have been missed yet.";
    case "webhook-limit-reached":
      return `This organization has ${refusal.limit} webhooks, the most it may have. Delete one it no longer needs, then register this one.`;
  }
}

/** An action refused by a rule; `refusal` says which, for the adapter to render. */
export class WebhookRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(describe(refusal));
  }
}

export interface WebhookServiceDeps {
  db: Db;
  now: () => Date;
  /** Seals signing secrets as they are written (SECRETS_KEY). */
  secrets: SecretBox;
  /** Non-public address kinds test webhooks may reach (WEBHOOK_PRIVATE_TARGETS). */
  privateTargets: AllowedTargets;
  /** Tells the delivery actor an event was just queued. */
  wakeDeliveries: () => void;
  /** Webhooks one organization may have (WEBHOOKS_PER_ORG). */
  webhooksPerOrganization: number;
  resolve?: Resolver;
}

export interface NewWebhook {
  url: string;
  events: string[];
}

export type WebhookService = ReturnType<typeof createWebhookService>;

export function createWebhookService(deps: WebhookServiceDeps) {
  const resolve = deps.resolve ?? systemResolver;

  async function usableUrl(url: string, env: KeyEnv): Promise<string> {
    const check = await checkWebhookUrl(url, env, deps.privateTargets, resolve);
    if (!check.ok) throw new WebhookRefusal({ code: "invalid-url", problems: check.problems });
    return check.href;
  }

  async function find(organizationId: string, webhookId: string): Promise<Webhook> {
    const row = await findWebhook(deps.db, organizationId, webhookId);
    if (!row) throw new WebhookRefusal({ code: "webhook-not-found", webhookId });
    return row;
  }

  function requireActive(webhook: Webhook): void {
    if (webhook.status === "disabled") throw new WebhookRefusal({ code: "webhook-disabled", webhook });
  }

  return {
    find,

    list: (organizationId: string): Promise<Webhook[]> => listWebhooks(deps.db, organizationId),

    /**
     * Every problem with a webhook about to be registered, at once (a form shows each beside its
     * field; `name` is env, url or events); none when `register` would accept it.
     */
    async problemsWith(env: string, input: NewWebhook): Promise<InvalidParam[]> {
      const problems: InvalidParam[] = [];
      if (env !== "live" && env !== "test") problems.push({ name: "env", reason: "must be live or test" });
      const parsed = createWebhookSchema.safeParse(input);
      if (!parsed.success) for (const issue of parsed.error.issues) problems.push({ name: issue.path[0] === "events" ? "events" : "url", reason: issue.message });
      if (!problems.some((p) => p.name === "url")) {
        const check = await checkWebhookUrl(input.url, env === "test" ? "test" : "live", deps.privateTargets, resolve);
        if (!check.ok) problems.push(...check.problems);
      }
      return problems;
    },

    /** A new webhook with a new signing secret; the row returned carries the secret, to be shown once. */
    async register(organizationId: string, env: KeyEnv, input: NewWebhook): Promise<Webhook> {
      const url = await usableUrl(input.url, env);
      // Counted and written under the organization's lock, so registrations at once cannot overshoot the cap.
      return deps.db.transaction().execute(async (trx) => {
        await lockOrganization(trx, organizationId);
        const limit = deps.webhooksPerOrganization;
        if ((await countWebhooks(trx, organizationId)) >= limit) throw new WebhookRefusal({ code: "webhook-limit-reached", limit });
        return registerWebhook(trx, { organizationId, env, url, events: input.events, secret: newWebhookSecret() }, deps.now(), deps.secrets);
      });
    },

    /** Changes URL, events or status; `callerEnv` is the environment of whoever asks (a key's, or the dashboard's "live"). */
    async update(organizationId: string, callerEnv: KeyEnv, webhookId: string, changes: WebhookChanges): Promise<Webhook> {
      const current = await find(organizationId, webhookId);
      const url = changes.url === undefined ? undefined : await usableUrl(changes.url, callerEnv === "live" || current.env === "live" ? "live" : "test");
      const row = await updateWebhook(deps.db, organizationId, current.id, { ...changes, ...(url !== undefined && { url }) }, deps.now());
      if (!row) throw new WebhookRefusal({ code: "webhook-not-found", webhookId });
      return row;
    },

    async remove(organizationId: string, webhookId: string): Promise<void> {
      const current = await find(organizationId, webhookId);
      await deleteWebhook(deps.db, organizationId, current.id);
    },

    /** A new signing secret (in the row returned, to be shown once); the old one signs beside it for ROTATION_GRACE_MS. */
    async rotateSecret(organizationId: string, webhookId: string): Promise<Webhook> {
      const current = await find(organizationId, webhookId);
      const now = deps.now();
      const row = await replaceSecret(deps.db, organizationId, current.id, newWebhookSecret(), new Date(now.getTime() + ROTATION_GRACE_MS), now, deps.secrets);
      if (!row) throw new WebhookRefusal({ code: "webhook-not-found", webhookId });
      return row;
    },

    /** Queues a `webhook.test` event for this webhook alone. */
    async sendTest(organizationId: string, webhookId: string, message: string): Promise<Published<"webhook.test">> {
      const current = await find(organizationId, webhookId);
      const published = await deps.db
        .transaction()
        .execute((trx) =>
          publishEvent(trx, { type: "webhook.test", data: { webhook_id: current.id, message }, organizationId: current.organization_id, webhookId: current.id }, deps.now()),
        );
      deps.wakeDeliveries();
      return published;
    },

    async deliveries(organizationId: string, webhookId: string, limit: number): Promise<{ webhook: Webhook; deliveries: DeliveryWithAttempts[] }> {
      const webhook = await find(organizationId, webhookId);
      return { webhook, deliveries: await listDeliveries(deps.db, webhook.id, limit) };
    },

    /** Queues a settled delivery's event again, same X-Webhook-ID, fresh retry schedule. */
    async redeliver(organizationId: string, webhookId: string, deliveryId: string): Promise<DeliveryWithAttempts> {
      const current = await find(organizationId, webhookId);
      requireActive(current);
      const result = await redeliver(deps.db, current.id, deliveryId, deps.now());
      if (result.outcome === "not-found") throw new WebhookRefusal({ code: "delivery-not-found", webhookId: current.id, deliveryId });
      if (result.outcome === "already-pending") throw new WebhookRefusal({ code: "delivery-pending", pending: result.pending });
      deps.wakeDeliveries();
      return result.delivery;
    },

    /** Queues again, oldest first, every event since `since` this webhook never received (at most MAX_RECOVERED). */
    async recover(organizationId: string, webhookId: string, since: Date): Promise<{ queued: number; remaining: number }> {
      const current = await find(organizationId, webhookId);
      const now = deps.now();
      if (since > now) throw new WebhookRefusal({ code: "since-in-future" });
      requireActive(current);
      const recovered = await recoverUndelivered(deps.db, current.id, since, now, MAX_RECOVERED);
      if (recovered.queued > 0) deps.wakeDeliveries();
      return recovered;
    },
  };
}
