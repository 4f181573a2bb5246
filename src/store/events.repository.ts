/**
 * The outbox: an event row and one delivery row per receiving webhook, written by the caller's
 * transaction together with the change that caused the event. Nothing about an event lives only
 * in memory, so a crash after commit loses nothing.
 */
import type { Db } from "./database.ts";
import { newDelivery } from "./deliveries.repository.ts";

export interface OutboxEvent {
  id: string;
  type: string;
  organizationId: string | null;
  webhookId: string | null;
  dedupeKey: string | null;
  payload: string;
  createdAt: string;
}

/**
 * Inserts the event and its deliveries. Returns false, writing nothing, when an event with the
 * same dedupe key exists already.
 */
export async function insertEventWithDeliveries(db: Db, event: OutboxEvent, webhookIds: readonly string[]): Promise<boolean> {
  const inserted = await db
    .insertInto("events")
    .values({
      id: event.id,
      type: event.type,
      organization_id: event.organizationId,
      webhook_id: event.webhookId,
      dedupe_key: event.dedupeKey,
      payload: event.payload,
      created_at: event.createdAt,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return false;
  // Chunked so a broadcast to many webhooks stays under SQLite's bound-parameter limit.
  for (let start = 0; start < webhookIds.length; start += 500) {
    await db
      .insertInto("deliveries")
      .values(webhookIds.slice(start, start + 500).map((webhookId) => newDelivery(event.id, webhookId, event.createdAt)))
      .execute();
  }
  return true;
}
