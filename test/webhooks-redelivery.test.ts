/**
 * End-to-end webhook delivery (graceful shutdown, the SSRF guard at delivery time, redelivery and recovery): the service's own delivery actor POSTs to a real
 * receiver on loopback, and the official `stripe` package verifies signatures as an independent client.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recoverUndelivered } from "../src/store/deliveries.repository.ts";
import { insertWebhook } from "../src/store/webhooks.repository.ts";
import { newWebhookSecret } from "../src/webhooks/sign.ts";
import { call } from "./_api.ts";
import { deleteWebhooks, deliverySteps, startDeliveryService } from "./_delivery.ts";
import { verifySignature as verify } from "./_signatures.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import type { TestService } from "./_setup.ts";

let api: TestService;
let receiver: Receiver;
let clock: Date | null = null;

beforeAll(async () => {
  api = await startDeliveryService(() => clock);
});
afterAll(() => api.close());

afterEach(async () => {
  clock = null;
  await receiver?.close();
  await deleteWebhooks(api);
});

const { register, deliveriesOf, waitForDelivery, publishFilingDue } = deliverySteps(() => api, () => receiver);

describe("graceful shutdown drains in-flight deliveries", () => {
  it("stop() waits for the attempt under way and records it", async () => {
    receiver = await startReceiver(() => ({ status: 200, delayMs: 200 }));
    const webhook = await register(["filing.due"]);
    await publishFilingDue(webhook.id);
    await receiver.waitFor((r) => r.length === 1);
    await api.service.background.actor.stop();
    try {
      const [delivery] = await deliveriesOf(webhook.id);
      expect(delivery).toMatchObject({ status: "delivered", attempt_count: 1 });
    } finally {
      api.service.background.actor.start();
    }
  });
});

describe("SSRF guard at delivery time", () => {
  it("a live webhook whose address is not public is refused when sending, not only at registration", async () => {
    receiver = await startReceiver();
    // Written straight to the store: the API would refuse this URL for a live key.
    const row = await insertWebhook(
      api.service.store.db,
      { organizationId: api.orgId, env: "live", url: `${receiver.url}/hooks`, events: ["filing.due"], secret: newWebhookSecret() },
      new Date(),
    );
    await publishFilingDue(row.id);
    const delivery = await waitForDelivery(row.id, (d) => d.attempt_count > 0);
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^refused: 127\.0\.0\.1 is not a public address/) });
    expect(receiver.received).toHaveLength(0);
    await call(api, "DELETE", `/api/v1/webhooks/${row.id}`);
  });
});

describe("redelivery: POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver", () => {
  it("replays a failed event to a webhook set active again, with the same X-Webhook-ID, and leaves the failed delivery as it was", async () => {
    receiver = await startReceiver(() => ({ status: 503 }));
    const webhook = await register(["filing.due"]);
    const event = await publishFilingDue(webhook.id);
    const failed = await waitForDelivery(webhook.id, (d) => d.status !== "pending");
    expect(failed).toMatchObject({ status: "failed", attempt_count: 4 });
    const path = `/api/v1/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`;

    const whileDisabled = await call(api, "POST", path, { key: api.testKey });
    expect(whileDisabled.res.status).toBe(409);
    expect(whileDisabled.res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(whileDisabled.body).toMatchObject({ type: expect.stringMatching(/\/webhook-disabled$/), status: 409 });
    expect(await deliveriesOf(webhook.id)).toHaveLength(1);

    expect((await call(api, "PATCH", `/api/v1/webhooks/${webhook.id}`, { key: api.testKey, body: { status: "active" } })).res.status).toBe(200);
    // Slow enough that the second click below lands while the replay is still in flight.
    receiver.respond = () => ({ status: 200, delayMs: 300 });
    const queued = await call(api, "POST", path, { key: api.testKey });
    expect(queued.res.status).toBe(202);
    expect(queued.body.delivery).toMatchObject({ event_id: event.id, event_type: "filing.due", status: "pending", attempt_count: 0, attempts: [] });
    expect(queued.body.delivery.id).not.toBe(failed.id);

    const again = await call(api, "POST", path, { key: api.testKey });
    expect(again.res.status).toBe(409);
    expect(again.body).toMatchObject({ type: expect.stringMatching(/\/delivery-pending$/), detail: expect.stringContaining(queued.body.delivery.id) });

    const replayed = await waitForDelivery(webhook.id, (d) => d.id === queued.body.delivery.id && d.status !== "pending");
    expect(replayed).toMatchObject({ status: "delivered", attempt_count: 1 });
    const [, stillFailed] = await deliveriesOf(webhook.id);
    expect(stillFailed).toMatchObject({ id: failed.id, status: "failed", attempt_count: 4 });

    const last = receiver.received.at(-1)!;
    expect(receiver.received).toHaveLength(5);
    expect(last.headers["x-webhook-id"]).toBe(event.id);
    expect(verify(last, webhook.secret)).toEqual(event);
  });

  it("a delivery that is not this webhook's, or does not exist, is 404 delivery-not-found and queues nothing", async () => {
    receiver = await startReceiver();
    const first = await register(["filing.due"]);
    const second = await register(["filing.due"]);
    await publishFilingDue(first.id);
    const delivered = await waitForDelivery(first.id, (d) => d.status === "delivered");

    for (const [webhookId, deliveryId] of [
      [second.id, delivered.id],
      [first.id, "dlv_00000000000000000000000000"],
    ]) {
      const answer = await call(api, "POST", `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { key: api.testKey });
      expect(answer.res.status).toBe(404);
      expect(answer.body).toMatchObject({ type: expect.stringMatching(/\/delivery-not-found$/), status: 404 });
    }
    expect(await deliveriesOf(first.id)).toHaveLength(1);
    expect(await deliveriesOf(second.id)).toHaveLength(0);
    expect(receiver.received).toHaveLength(1);
  });
});

describe("recovery: POST /api/v1/webhooks/{id}/recover queues every event since a time that the webhook never received", () => {
  it("after an outage, the events that failed or were cancelled arrive again with their own X-Webhook-IDs; a second call queues nothing", async () => {
    receiver = await startReceiver(() => ({ status: 503 }));
    const webhook = await register(["filing.due"]);
    const path = `/api/v1/webhooks/${webhook.id}/recover`;
    const since = new Date(Date.now() - 1000).toISOString();
    const first = await publishFilingDue(webhook.id);
    const second = await publishFilingDue(webhook.id);
    // The first event's last failure disables the webhook, which cancels what is still queued.
    const deadline = Date.now() + 20_000;
    let settled: any[] = [];
    while (Date.now() < deadline) {
      settled = await deliveriesOf(webhook.id);
      if (settled.length === 2 && settled.every((d) => d.status !== "pending")) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(settled).toHaveLength(2);
    expect(settled.every((d) => d.status === "failed" || d.status === "cancelled")).toBe(true);

    const whileDisabled = await call(api, "POST", path, { key: api.testKey, body: { since } });
    expect(whileDisabled.body).toMatchObject({ status: 409, type: expect.stringMatching(/\/webhook-disabled$/) });
    for (const bad of [{}, { since: "yesterday" }, { since: "2999-01-01T00:00:00Z" }, { since, extra: 1 }]) {
      const refused = await call(api, "POST", path, { key: api.testKey, body: bad });
      expect(refused.res.status).toBe(400);
      expect(refused.body.invalid_params.length).toBeGreaterThan(0);
    }
    expect(await deliveriesOf(webhook.id)).toHaveLength(2);

    await call(api, "PATCH", `/api/v1/webhooks/${webhook.id}`, { key: api.testKey, body: { status: "active" } });
    const before = receiver.received.length;
    receiver.respond = () => ({ status: 200 });
    const recovered = await call(api, "POST", path, { key: api.testKey, body: { since } });
    expect(recovered.res.status).toBe(202);
    expect(recovered.body).toMatchObject({ queued: 2, remaining: 0 });
    await receiver.waitFor((r) => r.length === before + 2);
    const replayed = receiver.received.slice(before).map((r) => verify(r, webhook.secret).id);
    expect(new Set(replayed)).toEqual(new Set([first.id, second.id]));

    const settledAgain = Date.now() + 20_000;
    while ((await deliveriesOf(webhook.id)).some((d) => d.status === "pending") && Date.now() < settledAgain) await new Promise((r) => setTimeout(r, 20));
    expect((await call(api, "POST", path, { key: api.testKey, body: { since } })).body).toMatchObject({ queued: 0, remaining: 0 });
    expect(receiver.received).toHaveLength(before + 2);
  });

  it("queues at most the limit per call, oldest first, and says how many remain", async () => {
    receiver = await startReceiver();
    const webhook = await register(["filing.due"]);
    await api.service.background.actor.stop();
    try {
      const db = api.service.store.db;
      const events = [];
      // A second apart, so "oldest first" has one answer.
      for (let i = 0; i < 3; i++) {
        clock = new Date(Date.now() - (3 - i) * 1000);
        events.push(await publishFilingDue(webhook.id));
      }
      clock = null;
      await db.updateTable("deliveries").set({ status: "failed" }).where("webhook_id", "=", webhook.id).execute();
      const since = new Date(Date.parse(events[0]!.created_at) - 1000);
      const queuedIds = async () =>
        (await db.selectFrom("deliveries").select("event_id").where("webhook_id", "=", webhook.id).where("status", "=", "pending").execute()).map((d) => d.event_id);
      expect(await recoverUndelivered(db, webhook.id, since, new Date(), 2)).toEqual({ queued: 2, remaining: 1 });
      expect(new Set(await queuedIds())).toEqual(new Set([events[0]!.id, events[1]!.id]));
      expect(await recoverUndelivered(db, webhook.id, since, new Date(), 2)).toEqual({ queued: 1, remaining: 0 });
      expect(await recoverUndelivered(db, webhook.id, since, new Date(), 2)).toEqual({ queued: 0, remaining: 0 });
      expect(new Set(await queuedIds())).toEqual(new Set(events.map((e) => e.id)));
    } finally {
      api.service.background.actor.start();
    }
  });
});
