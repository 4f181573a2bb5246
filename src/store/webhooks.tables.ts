/**
 * Row shapes of the webhook tables added by migration 2026-11-21-010: webhooks, the events outbox,
 * deliveries and their attempts. Listed in the `Database` interface of database.ts.
 */
import type { Generated, Selectable } from "kysely";

export type WebhookStatus = "active" | "disabled";
export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled";
export type AttemptOutcome = "delivered" | "retry" | "failed" | "gone";

export interface WebhooksTable {
  id: string;
  organization_id: string;
  /** The environment of the key that registered it: plain http to loopback is allowed only for test. */
  env: "live" | "test";
  url: string;
  /** JSON array of event names, or ["*"]. */
  events: string;
  secret: string;
  /** Kept for 24 h after a rotation, so receivers can switch secrets without losing deliveries. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  status: WebhookStatus;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  /** Failed attempts since the last 2xx (migrations/2026-11-27-310-delivery-turns-endpoint-health.ts). */
  consecutive_failures: number;
  /** The last attempt answered with a 2xx; null: never. */
  last_success_at: string | null;
}

export interface EventsTable {
  id: string;
  type: string;
  /** null: every organization's subscribers (rate events); otherwise only that organization's. */
  organization_id: string | null;
  /** Set for webhook.test: only that webhook receives it. */
  webhook_id: string | null;
  /** Makes a scheduled event idempotent: running a job twice, or on two instances, emits once. */
  dedupe_key: string | null;
  /** The exact JSON body sent on every attempt (the event envelope, webhooks/event-types.ts). */
  payload: string;
  created_at: string;
}

export interface DeliveriesTable {
  id: string;
  event_id: string;
  webhook_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  /** A lease: a crashed instance's claims lapse at claimed_until and another instance takes them. */
  claimed_by: string | null;
  claimed_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

/** When an organization was last given a delivery slot (migrations/2026-11-27-310-delivery-turns-endpoint-health.ts). */
export interface DeliveryTurnsTable {
  organization_id: string;
  last_claimed_at: string;
}

export interface DeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  number: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  outcome: AttemptOutcome;
  error: string | null;
  instance: string;
  /** The first RESPONSE_EXCERPT_BYTES of the receiver's answer, as text; null when there was no answer. */
  response_excerpt: string | null;
  /** 1 when the answer was longer than the excerpt. */
  response_truncated: Generated<number>;
}

export type Webhook = Selectable<WebhooksTable>;
export type EventRow = Selectable<EventsTable>;
export type Delivery = Selectable<DeliveriesTable>;
export type DeliveryAttempt = Selectable<DeliveryAttemptsTable>;
