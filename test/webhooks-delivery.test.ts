/**
 * End-to-end delivery: the service's own delivery actor POSTs to a real receiver on loopback, and
 * the official `stripe` package verifies every signature as an independent client.
 */
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recoverUndelivered } from "../src/store/deliveries.repository.ts";
import { insertWebhook } from "../src/store/webhooks.repository.ts";
import { publishEvent } from "../src/webhooks/outbox.ts";
import { newWebhookSecret } from "../src/webhooks/sign.ts";
import { call } from "./_api.ts";
import { verifySignature as verify } from "./_signatures.ts";
import { startReceiver, type Receiver, type Received } from "./_receiver.ts";
import { startTestService, type TestService } from "./_setup.ts";

const FUTURE_CHANGE = fileURLToPath(new URL("fixtures/sst/OHR2027Q1NOV30.csv", import.meta.url));
const RETRY_DELAY_MS = 50;
// Generous: on a machine loaded by the whole suite a prompt answer can still take a few hundred ms,
// and a timed-out attempt would add one to the counts these tests expect.
const TIMEOUT_MS = 1500;


let api: TestService;
let receiver: Receiver;
let clock: Date | null = null;

beforeAll(async () => {
  api = await startTestService({
    WEBHOOK_RETRY_SCHEDULE: `${RETRY_DELAY_MS}ms,${RETRY_DELAY_MS}ms,${RETRY_DELAY_MS}ms`,
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_LEASE_MS: "3000",
    WEBHOOK_POLL_MS: "50",
    // The test receiver listens on loopback, which webhooks may reach only when the operator allows it.
    WEBHOOK_PRIVATE_TARGETS: "loopback",
    RECONCILE_SOURCE: FUTURE_CHANGE,
  });
  // The injected clock: real time unless a test pins it.
  api.service.context.now = () => clock ?? new Date();
  api.service.background.actor.start();
});
afterAll(() => api.close());

afterEach(async () => {
  clock = null;
  await receiver?.close();
  for (const webhook of (await call(api, "GET", "/api/v1/webhooks", { key: api.testKey })).body.webhooks) {
    await call(api, "DELETE", `/api/v1/webhooks/${webhook.id}`, { key: api.testKey });
  }
});

async function register(events: string[]): Promise<{ id: string; secret: string }> {
  const { res, body } = await call(api, "POST", "/api/v1/webhooks", { key: api.testKey, body: { url: `${receiver.url}/hooks`, events } });
  expect(res.status).toBe(201);
  return body.webhook;
}

async function deliveriesOf(webhookId: string): Promise<any[]> {
  return (await call(api, "GET", `/api/v1/webhooks/${webhookId}/deliveries`, { key: api.testKey })).body.deliveries;
}

async function waitForDelivery(webhookId: string, done: (delivery: any) => boolean): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [latest] = await deliveriesOf(webhookId);
    if (latest && done(latest)) return latest;
    if (Date.now() > deadline) throw new Error(`delivery not settled: ${JSON.stringify(latest)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An event published to the outbox for one webhook, as the jobs publish theirs. */
async function publishFilingDue(webhookId: string) {
  const published = await api.service.store.db.transaction().execute((trx) =>
    publishEvent(
      trx,
      {
        type: "filing.due",
        data: { filing_frequency: "monthly", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7 },
        organizationId: api.orgId,
        webhookId,
      },
      api.service.context.now(),
    ),
  );
  api.service.context.wakeDeliveries();
  return published.envelope;
}

describe("every event type is delivered with the headers of spec §6, verified by the stripe package", () => {
  it("rate.announced, rate.changed, filing.due, certificate.expiring and webhook.test", async () => {
    receiver = await startReceiver();
    const webhook = await register(["*"]);
    const { scheduler } = api.service.background;

    // Time moves on only once what is due has been delivered and recorded, as it would on a real clock.
    const settled = async (count: number) => {
      await receiver.waitFor((r) => r.length >= count);
      const deadline = Date.now() + 20_000;
      while ((await deliveriesOf(webhook.id)).some((d) => d.status === "pending")) {
        if (Date.now() > deadline) throw new Error("deliveries still pending");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const test = await call(api, "POST", `/api/v1/webhooks/${webhook.id}/test`, { key: api.testKey });
    await settled(1);
    clock = new Date("2026-12-01T10:30:00Z");
    await scheduler.run("reconcile", clock);
    await settled(2);
    clock = new Date("2026-12-16T13:15:00Z");
    await call(api, "POST", "/api/v1/certificates", {
      key: api.testKey,
      body: { customer_id: "cust_7", customer_name: "Zanesville Feed & Seed", exempt_reason: "agriculture", expires_on: "2027-01-15" },
    });
    await scheduler.run("filing-reminders", clock);
    await scheduler.run("certificate-expiry", clock);
    await settled(4);
    clock = new Date("2027-01-01T05:05:00Z");
    await scheduler.run("rate-changes", clock);
    await settled(5);
    expect(receiver.received).toHaveLength(5);

    const events = new Map(receiver.received.map((r) => [verify(r, webhook.secret).type as string, { request: r, event: verify(r, webhook.secret) }]));
    expect([...events.keys()].sort()).toEqual(["certificate.expiring", "filing.due", "rate.announced", "rate.changed", "webhook.test"]);

    for (const { request, event } of events.values()) {
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["user-agent"]).toBe("Buckeye-Webhook/1.0");
      expect(request.headers["x-webhook-id"]).toBe(event.id);
      expect(event.id).toMatch(/^evt_[0-9a-z]{26}$/);
      expect(request.headers["x-webhook-timestamp"]).toMatch(/^\d{10}$/);
      expect(request.headers["x-webhook-signature"]).toMatch(new RegExp(`^t=${request.headers["x-webhook-timestamp"]},v1=[0-9a-f]{64}$`));
      expect(Object.keys(event).sort()).toEqual(["created_at", "data", "id", "type"]);
      expect(new Date(event.created_at).toISOString()).toBe(event.created_at);
    }

    expect(events.get("webhook.test")!.event.id).toBe(test.body.event.id);
    expect(events.get("rate.announced")!.event.data).toEqual({
      county: "Wayne",
      county_slug: "wayne",
      fips: "39169",
      old_rate: 0.065,
      new_rate: 0.07,
      effective_date: "2027-01-01",
      announced_date: "2026-11-30",
      lead_days: 32,
      days_until: 31,
    });
    expect(events.get("rate.changed")!.event.data).toEqual({
      county: "Wayne",
      county_slug: "wayne",
      fips: "39169",
      old_rate: 0.065,
      new_rate: 0.07,
      effective_date: "2027-01-01",
      lead_days: 32,
      days_until: 0,
    });
    expect(events.get("filing.due")!.event.data).toEqual({
      filing_frequency: "monthly",
      period_start: "2026-11-01",
      period_end: "2026-11-30",
      due_date: "2026-12-23",
      days_until: 7,
    });
    expect(events.get("certificate.expiring")!.event.data).toEqual({
      certificate_id: expect.stringMatching(/^cert_/),
      customer_id: "cust_7",
      customer_name: "Zanesville Feed & Seed",
      exempt_reason: "agriculture",
      expires_on: "2027-01-15",
      days_until: 30,
    });
    // The timestamp is the attempt's, in seconds on the service's clock.
    expect(Number(events.get("rate.changed")!.request.headers["x-webhook-timestamp"])).toBe(Date.parse("2027-01-01T05:05:00Z") / 1000);
  });

  it("a webhook receives only the events it subscribes to", async () => {
    receiver = await startReceiver();
    const webhook = await register(["certificate.expiring"]);
    clock = new Date("2026-12-16T13:00:00Z");
    await api.service.background.scheduler.run("filing-reminders", new Date("2026-12-22T13:00:00Z"));
    await call(api, "POST", "/api/v1/certificates", {
      key: api.testKey,
      body: { customer_id: "cust_8", customer_name: "Ashland Tools", exempt_reason: "resale", expires_on: "2026-12-23" },
    });
    await api.service.background.scheduler.run("certificate-expiry", clock);
    await receiver.waitFor((r) => r.length >= 1);
    const delivered = await deliveriesOf(webhook.id);
    expect(delivered.map((d) => d.event_type)).toEqual(["certificate.expiring"]);
    expect(verify(receiver.received[0]!, webhook.secret).data).toMatchObject({ customer_id: "cust_8", days_until: 7 });
  });
});

describe("retries: exponential backoff with jitter, the same X-Webhook-ID on every attempt", () => {
  it("a receiver that fails then recovers gets the event, each attempt recorded with status code, latency and error", async () => {
    receiver = await startReceiver((_request, index) => ({ status: index < 2 ? 500 : 200 }));
    const webhook = await register(["filing.due"]);
    const event = await publishFilingDue(webhook.id);
    const delivery = await waitForDelivery(webhook.id, (d) => d.status !== "pending");

    expect(delivery).toMatchObject({ event_id: event.id, status: "delivered", attempt_count: 3, next_attempt_at: null, delivered_at: expect.any(String) });
    expect(delivery.attempts.map((a: any) => [a.number, a.status_code, a.outcome, a.error])).toEqual([
      [1, 500, "retry", "HTTP 500"],
      [2, 500, "retry", "HTTP 500"],
      [3, 200, "delivered", null],
    ]);
    for (const attempt of delivery.attempts) expect(attempt.latency_ms).toEqual(expect.any(Number));
    expect(new Set(receiver.received.map((r) => r.headers["x-webhook-id"]))).toEqual(new Set([event.id]));
    expect(receiver.received.map((r) => r.headers["x-webhook-attempt"])).toEqual(["1", "2", "3"]);
    // Jitter keeps every wait within ±20 % of the schedule: never sooner than 80 % of it.
    for (let i = 1; i < receiver.received.length; i++) {
      expect(receiver.received[i]!.at - receiver.received[i - 1]!.at).toBeGreaterThanOrEqual(RETRY_DELAY_MS * 0.8 - 1);
    }
    for (const request of receiver.received) expect(verify(request, webhook.secret).id).toBe(event.id);
  });

  it("Retry-After on 429 is honoured instead of the schedule", async () => {
    receiver = await startReceiver((_request, index) => (index === 0 ? { status: 429, headers: { "retry-after": "1" } } : { status: 204 }));
    const webhook = await register(["filing.due"]);
    await publishFilingDue(webhook.id);
    const delivery = await waitForDelivery(webhook.id, (d) => d.status !== "pending");
    expect(delivery.status).toBe("delivered");
    expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("after the final attempt fails, the delivery fails and the webhook is disabled", async () => {
    receiver = await startReceiver(() => ({ status: 503 }));
    const webhook = await register(["filing.due"]);
    await publishFilingDue(webhook.id);
    const delivery = await waitForDelivery(webhook.id, (d) => d.status !== "pending");
    expect(delivery).toMatchObject({ status: "failed", attempt_count: 4 });
    expect(delivery.attempts.map((a: any) => a.outcome)).toEqual(["retry", "retry", "retry", "failed"]);
    const read = await call(api, "GET", `/api/v1/webhooks/${webhook.id}`, { key: api.testKey });
    expect(read.body.webhook).toMatchObject({ status: "disabled", disabled_reason: expect.stringMatching(/4 attempts/) });
  });
});

describe("410 Gone disables the webhook at once", () => {
  it("no retry follows, the webhook's status becomes disabled and new events no longer reach it", async () => {
    receiver = await startReceiver(() => ({ status: 410 }));
    const webhook = await register(["filing.due"]);
    await publishFilingDue(webhook.id);
    const delivery = await waitForDelivery(webhook.id, (d) => d.status !== "pending");
    expect(delivery).toMatchObject({ status: "failed", attempt_count: 1 });
    expect(delivery.attempts[0]).toMatchObject({ status_code: 410, outcome: "gone" });
    const read = await call(api, "GET", `/api/v1/webhooks/${webhook.id}`, { key: api.testKey });
    expect(read.body.webhook).toMatchObject({ status: "disabled", disabled_reason: expect.stringMatching(/410/) });
    const after = await api.service.background.scheduler.run("filing-reminders", new Date("2027-01-22T13:00:00Z"));
    expect(after).toMatchObject({ events: 1 });
    expect(await deliveriesOf(webhook.id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });
});

describe("timeout: a 2xx must come within the timeout", () => {
  it("a receiver slower than the timeout is a failed attempt, retried", async () => {
    receiver = await startReceiver((_request, index) => ({ status: 200, delayMs: index === 0 ? TIMEOUT_MS * 3 : 0 }));
    const webhook = await register(["filing.due"]);
    await publishFilingDue(webhook.id);
    const delivery = await waitForDelivery(webhook.id, (d) => d.status !== "pending");
    expect(delivery.status).toBe("delivered");
    expect(delivery.attempts[0]).toMatchObject({ number: 1, status_code: null, outcome: "retry", error: `timed out after ${TIMEOUT_MS} ms` });
    expect(delivery.attempts[0].latency_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 1);
    expect(delivery.attempts[1]).toMatchObject({ number: 2, status_code: 200, outcome: "delivered" });
  });
});

describe("secret rotation: two v1= signatures for 24 h", () => {
  it("both the old and the new secret verify; after 24 h only the new one signs", async () => {
    receiver = await startReceiver();
    const webhook = await register(["filing.due"]);
    const rotated = (await call(api, "POST", `/api/v1/webhooks/${webhook.id}/rotate-secret`, { key: api.testKey })).body.webhook;
    await call(api, "POST", `/api/v1/webhooks/${webhook.id}/test`, { key: api.testKey });
    await receiver.waitFor((r) => r.length === 1);
    const during = receiver.received[0]!;
    expect(String(during.headers["x-webhook-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verify(during, webhook.secret).type).toBe("webhook.test");
    expect(verify(during, rotated.secret).type).toBe("webhook.test");
    // Move the clock only once that attempt is recorded: a day later its claim would look lapsed
    // and, on a slow machine, be taken and sent again.
    await waitForDelivery(webhook.id, (d) => d.status !== "pending");

    clock = new Date(Date.parse(rotated.previous_secret_expires_at) + 1000);
    await call(api, "POST", `/api/v1/webhooks/${webhook.id}/test`, { key: api.testKey });
    await receiver.waitFor((r) => r.length === 2);
    const later = receiver.received[1]!;
    expect(String(later.headers["x-webhook-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(later, rotated.secret).type).toBe("webhook.test");
    expect(() => verify(later, webhook.secret)).toThrow(/signature/i);
  });
});

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
