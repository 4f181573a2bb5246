/**
 * End-to-end webhook delivery (every event type with its headers, retries, 410 Gone, timeouts and secret rotation): the service's own delivery actor POSTs to a real
 * receiver on loopback, and the official `stripe` package verifies signatures as an independent client.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "./_api.ts";
import { deleteWebhooks, deliverySteps, RETRY_DELAY_MS, TIMEOUT_MS, startDeliveryService } from "./_delivery.ts";
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

describe("every event type is delivered with its headers, verified by the stripe package", () => {
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
      period: "2026-11",
      period_start: "2026-11-01",
      period_end: "2026-11-30",
      due_date: "2026-12-23",
      days_until: 7,
      worksheet: { api_path: "/api/v1/returns/2026-11", dashboard_path: "/dashboard/returns/2026-11" },
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

  it("each attempt keeps the first 2 KB of the receiver's answer as text, and whether there was more (the dashboard's delivery log shows it)", async () => {
    const long = `{"error":"ünïcode ✓"}${"y".repeat(4000)}`;
    receiver = await startReceiver((_request, index) => (index === 0 ? { status: 503, body: long } : { status: 200, body: "" }));
    const webhook = await register(["filing.due"]);
    await publishFilingDue(webhook.id);
    const delivery = await waitForDelivery(webhook.id, (d) => d.status !== "pending");
    const attempts = await api.service.store.db
      .selectFrom("delivery_attempts")
      .select(["number", "status_code", "response_excerpt", "response_truncated"])
      .where("delivery_id", "=", delivery.id)
      .orderBy("number")
      .execute();
    expect(attempts).toEqual([
      { number: 1, status_code: 503, response_excerpt: Buffer.from(long).subarray(0, 2048).toString("utf8"), response_truncated: 1 },
      { number: 2, status_code: 200, response_excerpt: "", response_truncated: 0 },
    ]);
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
