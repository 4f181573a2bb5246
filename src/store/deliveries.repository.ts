/**
 * Deliveries: claiming due ones under a lease, recording each attempt, listing them.
 *
 * Claims are fair between organizations (docs/guides/webhooks-and-jobs.md, "Fairness between
 * organizations"):
 *
 * - the next slot goes to the organization holding the fewest, and among those to the one that
 *   has waited longest: since its oldest due delivery became due, or since it was last given a
 *   slot (`delivery_turns`), whichever is later. How much an organization has queued, and how
 *   long ago, buys it nothing once it has been served;
 * - no organization holds more than `perOrganization` live claims at once, counting every
 *   instance's, and an organization in trial (made by open sign-up, not verified yet) no more than
 *   one, since anyone can make many;
 * - an endpoint in doubt (its last attempt failed, or it never answered and another endpoint of
 *   its organization is failing) has one delivery in flight at a time, and deliveries to endpoints
 *   in doubt hold at most `doubtfulSlots` of this instance's slots. Receivers that never answer
 *   hold a slot for the whole timeout; the other slots stay for receivers that answer.
 *
 * That count must not be raced: on PostgreSQL a claim first takes a transaction-scoped advisory
 * lock, so instances claim one after another (a claim is one short query) and each sees the
 * claims committed before it; SQLite has a single writer, so its transaction is enough. The
 * UPDATE re-checks that each row is still pending and unclaimed, so no delivery is claimed twice.
 */
import { sql } from "kysely";
import { newId } from "../ids.ts";
import type { Dialect } from "./connect.ts";
import type { Db } from "./database.ts";
import type { AttemptOutcome, Delivery, DeliveryAttempt, DeliveryStatus } from "./webhooks.tables.ts";

export interface Claim {
  instance: string;
  now: Date;
  leaseUntil: Date;
  limit: number;
  /** Live claims one organization may hold at once, across every instance (WEBHOOK_IN_FLIGHT_PER_ORG). */
  perOrganization: number;
  /** Live claims of this instance that may go to endpoints in doubt (half of WEBHOOK_CONCURRENCY). */
  doubtfulSlots: number;
}

/** Live claims an organization in trial may hold (docs/guides/dashboard.md, "Trial organizations"). */
export const TRIAL_IN_FLIGHT = 1;

/** Names the advisory lock that serialises delivery claims on PostgreSQL (any constant no other lock uses). */
const CLAIM_LOCK = 0x0b0c_de11;

/**
 * Claims up to `limit` due deliveries (pending, due, and unclaimed or with a lapsed lease) by the
 * rules above, and records the claim time of each organization served.
 */
export async function claimDueDeliveries(db: Db, dialect: Dialect, claim: Claim): Promise<Delivery[]> {
  if (claim.limit <= 0) return [];
  const now = claim.now.toISOString();
  return db.transaction().execute(async (trx) => {
    if (dialect === "postgres") await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
    // Window functions over CTEs read the same on SQLite and PostgreSQL; the query builder would spell the five steps less plainly.
    const { rows: chosen } = await sql<{ id: string; organization_id: string }>`
      with endpoints as (
        select w.id, w.organization_id,
          case when w.consecutive_failures > 0
            or (w.last_success_at is null and w.organization_id in (select f.organization_id from webhooks f where f.consecutive_failures > 0))
          then 1 else 0 end as doubtful
        from webhooks w
      ),
      live as (
        select d.webhook_id, d.claimed_by, e.organization_id, e.doubtful
        from deliveries d join endpoints e on e.id = d.webhook_id
        where d.status = 'pending' and d.claimed_until >= ${now}
      ),
      endpoint_live as (select webhook_id, count(*) as claims from live group by webhook_id),
      organization_live as (select organization_id, count(*) as claims from live group by organization_id),
      mine_doubtful as (select count(*) as claims from live where claimed_by = ${claim.instance} and doubtful = 1),
      due as (
        select d.id, d.next_attempt_at, e.organization_id, e.doubtful,
          row_number() over (partition by d.webhook_id order by d.next_attempt_at, d.id) + coalesce(el.claims, 0) as endpoint_turn
        from deliveries d
        join endpoints e on e.id = d.webhook_id
        left join endpoint_live el on el.webhook_id = d.webhook_id
        where d.status = 'pending' and d.next_attempt_at <= ${now} and (d.claimed_until is null or d.claimed_until < ${now})
      ),
      eligible as (
        select due.id, due.next_attempt_at, due.organization_id, due.doubtful,
          row_number() over (partition by due.organization_id order by due.next_attempt_at, due.id) + coalesce(ol.claims, 0) as turn,
          min(due.next_attempt_at) over (partition by due.organization_id) as oldest_due
        from due left join organization_live ol on ol.organization_id = due.organization_id
        where due.doubtful = 0 or due.endpoint_turn <= 1
      ),
      ranked as (
        select el.id, el.organization_id, el.doubtful, el.turn, el.next_attempt_at,
          case when t.last_claimed_at > el.oldest_due then t.last_claimed_at else el.oldest_due end as waiting_since
        from eligible el
        join organizations o on o.id = el.organization_id
        left join delivery_turns t on t.organization_id = el.organization_id
        -- PostgreSQL would type a CASE of bare parameters as text; the cast keeps the comparison numeric.
        where el.turn <= cast(case when o.verified_at is null then ${TRIAL_IN_FLIGHT} else ${claim.perOrganization} end as integer)
      ),
      ordered as (
        select r.*, row_number() over (partition by r.doubtful order by r.turn, r.waiting_since, r.next_attempt_at, r.id) as doubtful_rank
        from ranked r
      )
      select o.id, o.organization_id from ordered o cross join mine_doubtful m
      where o.doubtful = 0 or o.doubtful_rank + m.claims <= ${claim.doubtfulSlots}
      order by o.turn, o.waiting_since, o.next_attempt_at, o.id
      limit ${claim.limit}
    `.execute(trx);
    if (chosen.length === 0) return [];
    const claimed = await trx
      .updateTable("deliveries")
      .set({ claimed_by: claim.instance, claimed_until: claim.leaseUntil.toISOString() })
      .where("id", "in", chosen.map((row) => row.id))
      .where("status", "=", "pending")
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
      .returningAll()
      .execute();
    const served = [...new Set(chosen.map((row) => row.organization_id))];
    await trx
      .insertInto("delivery_turns")
      .values(served.map((organization_id) => ({ organization_id, last_claimed_at: now })))
      .onConflict((oc) => oc.column("organization_id").doUpdateSet({ last_claimed_at: now }))
      .execute();
    return claimed;
  });
}

/** What sending one delivery needs: the exact payload and where and how to sign and send it. */
export interface DeliveryWork {
  delivery: Delivery;
  eventId: string;
  eventType: string;
  payload: string;
  webhook: {
    id: string;
    url: string;
    env: "live" | "test";
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: string | null;
  } | null;
}

/** One query: the event's payload and the webhook's address and secrets (null once it is deleted). */
export async function loadDeliveryWork(db: Db, delivery: Delivery): Promise<DeliveryWork> {
  const row = await db
    .selectFrom("events")
    .leftJoin("webhooks", (join) => join.on("webhooks.id", "=", delivery.webhook_id))
    .select([
      "events.id as event_id",
      "events.type as event_type",
      "events.payload as payload",
      "webhooks.id as webhook_id",
      "webhooks.url as url",
      "webhooks.env as env",
      "webhooks.secret as secret",
      "webhooks.previous_secret as previous_secret",
      "webhooks.previous_secret_expires_at as previous_secret_expires_at",
    ])
    .where("events.id", "=", delivery.event_id)
    .executeTakeFirstOrThrow();
  return {
    delivery,
    eventId: row.event_id,
    eventType: row.event_type,
    payload: row.payload,
    webhook:
      row.webhook_id !== null && row.url !== null && row.env !== null && row.secret !== null
        ? {
            id: row.webhook_id,
            url: row.url,
            env: row.env,
            secret: row.secret,
            previousSecret: row.previous_secret,
            previousSecretExpiresAt: row.previous_secret_expires_at,
          }
        : null,
  };
}

export interface AttemptRecord {
  deliveryId: string;
  instance: string;
  number: number;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  outcome: AttemptOutcome;
  error: string | null;
  /** The start of the receiver's answer (src/webhooks/post.ts); null when none came. */
  response?: { excerpt: string; truncated: boolean } | null;
  /** The delivery's state after this attempt. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  finishedAt: Date;
}

/**
 * Logs the attempt and moves the delivery on, releasing the claim. The update only applies while
 * this instance still holds the claim: if the webhook was disabled or deleted meanwhile, the
 * attempt is logged and the delivery stays as that change left it. Returns whether it applied.
 */
export async function recordAttempt(db: Db, record: AttemptRecord): Promise<boolean> {
  await db
    .insertInto("delivery_attempts")
    .values({
      id: newId("att"),
      delivery_id: record.deliveryId,
      number: record.number,
      attempted_at: record.attemptedAt.toISOString(),
      status_code: record.statusCode,
      latency_ms: Math.round(record.latencyMs),
      outcome: record.outcome,
      error: record.error,
      instance: record.instance,
      response_excerpt: record.response?.excerpt ?? null,
      response_truncated: record.response?.truncated ? 1 : 0,
    })
    .execute();
  const finished = record.finishedAt.toISOString();
  const moved = await db
    .updateTable("deliveries")
    .set({
      status: record.status,
      attempts: record.number,
      ...(record.nextAttemptAt && { next_attempt_at: record.nextAttemptAt.toISOString() }),
      claimed_by: null,
      claimed_until: null,
      last_status_code: record.statusCode,
      last_error: record.error,
      updated_at: finished,
      ...(record.status === "delivered" && { delivered_at: finished }),
    })
    .where("id", "=", record.deliveryId)
    .where("claimed_by", "=", record.instance)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/** Gives back claims this instance took but will not send (shutdown before they started). */
export async function releaseClaims(db: Db, instance: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("deliveries").set({ claimed_by: null, claimed_until: null }).where("claimed_by", "=", instance).where("id", "in", ids).execute();
}

export async function markCancelled(db: Db, deliveryId: string, reason: string, now: Date): Promise<void> {
  await db
    .updateTable("deliveries")
    .set({ status: "cancelled", claimed_by: null, claimed_until: null, last_error: reason, updated_at: now.toISOString() })
    .where("id", "=", deliveryId)
    .execute();
}

/** A delivery of one event to one webhook, due at `at`, not yet attempted. */
export function newDelivery(eventId: string, webhookId: string, at: string): Delivery {
  return {
    id: newId("dlv"),
    event_id: eventId,
    webhook_id: webhookId,
    status: "pending",
    attempts: 0,
    next_attempt_at: at,
    claimed_by: null,
    claimed_until: null,
    last_status_code: null,
    last_error: null,
    created_at: at,
    updated_at: at,
    delivered_at: null,
  };
}

export type Redelivery =
  | { outcome: "queued"; delivery: DeliveryWithAttempts }
  | { outcome: "not-found" }
  | { outcome: "already-pending"; pending: Delivery };

/**
 * Queues the event of a settled delivery (delivered, failed or cancelled) for this webhook again,
 * as a new delivery with a fresh retry schedule: the same event, so the same payload and the same
 * X-Webhook-ID a receiver deduplicates by. Refused while any delivery of that event to this
 * webhook is still pending, so repeated clicks queue it once.
 */
export async function redeliver(db: Db, webhookId: string, deliveryId: string, now: Date): Promise<Redelivery> {
  return db.transaction().execute(async (trx) => {
    const original = await trx
      .selectFrom("deliveries")
      .innerJoin("events", "events.id", "deliveries.event_id")
      .select(["deliveries.event_id", "events.type as event_type"])
      .where("deliveries.id", "=", deliveryId)
      .where("deliveries.webhook_id", "=", webhookId)
      .executeTakeFirst();
    if (!original) return { outcome: "not-found" };
    const pending = await trx
      .selectFrom("deliveries")
      .selectAll()
      .where("event_id", "=", original.event_id)
      .where("webhook_id", "=", webhookId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (pending) return { outcome: "already-pending", pending };
    const delivery = newDelivery(original.event_id, webhookId, now.toISOString());
    await trx.insertInto("deliveries").values(delivery).execute();
    return { outcome: "queued", delivery: { ...delivery, event_type: original.event_type, attempt_log: [] } };
  });
}

/**
 * Queues again, oldest first, up to `limit` events published since `since` that this webhook has
 * neither received nor still has queued (every delivery of them failed or was cancelled). Returns
 * how many were queued and how many such events are left for another call.
 */
export async function recoverUndelivered(db: Db, webhookId: string, since: Date, now: Date, limit: number): Promise<{ queued: number; remaining: number }> {
  return db.transaction().execute(async (trx) => {
    const missed = await trx
      .selectFrom("deliveries")
      .innerJoin("events", "events.id", "deliveries.event_id")
      .select(["deliveries.event_id as event_id", "events.created_at as created_at"])
      .where("deliveries.webhook_id", "=", webhookId)
      .where("events.created_at", ">=", since.toISOString())
      .groupBy(["deliveries.event_id", "events.created_at"])
      .having((eb) => eb.fn.sum<number>(eb.case().when("deliveries.status", "in", ["delivered", "pending"]).then(1).else(0).end()), "=", 0)
      .orderBy("events.created_at")
      .orderBy("deliveries.event_id")
      .execute();
    const at = now.toISOString();
    const chosen = missed.slice(0, limit);
    // Chunked so a large recovery stays under SQLite's bound-parameter limit.
    for (let start = 0; start < chosen.length; start += 500) {
      await trx
        .insertInto("deliveries")
        .values(chosen.slice(start, start + 500).map(({ event_id }) => newDelivery(event_id, webhookId, at)))
        .execute();
    }
    return { queued: chosen.length, remaining: missed.length - chosen.length };
  });
}

export interface DeliveryWithAttempts extends Delivery {
  event_type: string;
  attempt_log: DeliveryAttempt[];
  /** The event's body as sent (the same for every delivery of it). */
  payload?: string;
  /** 1 for the event's first delivery to this webhook, 2 and on for its redeliveries (and recoveries). */
  event_delivery_number?: number;
  /** Attempts made by this event's earlier deliveries to this webhook, so attempts number on across redeliveries. */
  earlier_attempts?: number;
}

export async function listDeliveries(db: Db, webhookId: string, limit: number): Promise<DeliveryWithAttempts[]> {
  const rows = await db
    .selectFrom("deliveries")
    .innerJoin("events", "events.id", "deliveries.event_id")
    .selectAll("deliveries")
    .select(["events.type as event_type", "events.payload as payload"])
    .where("deliveries.webhook_id", "=", webhookId)
    .orderBy("deliveries.created_at", "desc")
    .orderBy("deliveries.id", "desc")
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  // Every delivery of these events to this webhook, shown or not, in order: which one each is, and the attempts before it.
  const siblings = await db
    .selectFrom("deliveries")
    .select(["id", "event_id", "attempts"])
    .where("webhook_id", "=", webhookId)
    .where("event_id", "in", [...new Set(rows.map((r) => r.event_id))])
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const place = new Map<string, { number: number; earlier: number }>();
  const seen = new Map<string, { count: number; attempts: number }>();
  for (const s of siblings) {
    const before = seen.get(s.event_id) ?? { count: 0, attempts: 0 };
    place.set(s.id, { number: before.count + 1, earlier: before.attempts });
    seen.set(s.event_id, { count: before.count + 1, attempts: before.attempts + s.attempts });
  }
  const attempts = await db
    .selectFrom("delivery_attempts")
    .selectAll()
    .where(
      "delivery_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("number")
    .orderBy("attempted_at")
    .execute();
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  for (const attempt of attempts) byDelivery.set(attempt.delivery_id, [...(byDelivery.get(attempt.delivery_id) ?? []), attempt]);
  return rows.map((row) => ({
    ...row,
    attempt_log: byDelivery.get(row.id) ?? [],
    event_delivery_number: place.get(row.id)?.number ?? 1,
    earlier_attempts: place.get(row.id)?.earlier ?? 0,
  }));
}

/** Counts by status, for the benchmark and operators. */
export async function countDeliveries(db: Db): Promise<Record<DeliveryStatus, number>> {
  const rows = await db.selectFrom("deliveries").select(["status", (eb) => eb.fn.countAll<number>().as("n")]).groupBy("status").execute();
  const counts: Record<DeliveryStatus, number> = { pending: 0, delivered: 0, failed: 0, cancelled: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}
