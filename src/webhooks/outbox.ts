/**
 * Publishing an event: build its envelope (event-types.ts) once, find the webhooks that receive it and
 * write event and deliveries through the caller's transaction. Call it with the same transaction
 * as the change the event reports, so both commit or neither does.
 */
import { newId } from "../ids.ts";
import type { Db } from "../store/database.ts";
import { insertEventWithDeliveries } from "../store/events.repository.ts";
import { listActiveWebhooks } from "../store/webhooks.repository.ts";
import { isSubscribed, type EventDataByType, type EventEnvelope, type EventType } from "./event-types.ts";

export interface PublishInput<T extends EventType> {
  type: T;
  data: EventDataByType[T];
  /** Only this organization's webhooks receive it; omitted: every organization's. */
  organizationId?: string;
  /** Only this webhook receives it, whatever it subscribes to (webhook.test). */
  webhookId?: string;
  /** An event with a key already published is not published again. */
  dedupeKey?: string;
}

export interface Published<T extends EventType> {
  envelope: EventEnvelope<T>;
  /** false when the dedupe key had been published already: nothing was written. */
  created: boolean;
  deliveries: number;
}

export async function publishEvent<T extends EventType>(db: Db, input: PublishInput<T>, now: Date): Promise<Published<T>> {
  const envelope: EventEnvelope<T> = { id: newId("evt"), type: input.type, created_at: now.toISOString(), data: input.data };
  const receivers = input.webhookId
    ? [input.webhookId]
    : (await listActiveWebhooks(db, input.organizationId ?? null))
        .filter((webhook) => isSubscribed(JSON.parse(webhook.events) as string[], input.type))
        .map((webhook) => webhook.id);
  const created = await insertEventWithDeliveries(
    db,
    {
      id: envelope.id,
      type: input.type,
      organizationId: input.organizationId ?? null,
      webhookId: input.webhookId ?? null,
      dedupeKey: input.dedupeKey ?? null,
      payload: JSON.stringify(envelope),
      createdAt: envelope.created_at,
    },
    receivers,
  );
  return { envelope, created, deliveries: created ? receivers.length : 0 };
}
