/**
 * What the webhook delivery tests share: a service whose delivery actor runs with short retries
 * against a real receiver on loopback, a clock a test may pin, and the steps they repeat
 * (register a webhook, read its deliveries, wait for one to settle, publish an event).
 */
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { publishEvent } from "../src/webhooks/outbox.ts";
import { call } from "./_api.ts";
import type { Receiver } from "./_receiver.ts";
import { startTestService, type TestService } from "./_setup.ts";

export const FUTURE_CHANGE = fileURLToPath(new URL("fixtures/sst/OHR2027Q1NOV30.csv", import.meta.url));
export const RETRY_DELAY_MS = 50;
// Generous: on a machine loaded by the whole suite a prompt answer can still take a few hundred ms,
// and a timed-out attempt would add one to the counts these tests expect.
export const TIMEOUT_MS = 1500;

/** A service with its delivery actor started; `clock()` is its time unless it returns null. */
export async function startDeliveryService(clock: () => Date | null): Promise<TestService> {
  const api = await startTestService({
    WEBHOOK_RETRY_SCHEDULE: `${RETRY_DELAY_MS}ms,${RETRY_DELAY_MS}ms,${RETRY_DELAY_MS}ms`,
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_LEASE_MS: "3000",
    WEBHOOK_POLL_MS: "50",
    // The test receiver listens on loopback, which webhooks may reach only when the operator allows it.
    WEBHOOK_PRIVATE_TARGETS: "loopback",
    RECONCILE_SOURCE: FUTURE_CHANGE,
  });
  api.clock.set(() => clock() ?? new Date());
  api.service.background.actor.start();
  return api;
}

/** Deletes every webhook of the test key's organization, so each test starts with none. */
export async function deleteWebhooks(api: TestService): Promise<void> {
  for (const webhook of (await call(api, "GET", "/api/v1/webhooks", { key: api.testKey })).body.webhooks) {
    await call(api, "DELETE", `/api/v1/webhooks/${webhook.id}`, { key: api.testKey });
  }
}

export function deliverySteps(api: () => TestService, receiver: () => Receiver) {
  async function register(events: string[]): Promise<{ id: string; secret: string }> {
    const { res, body } = await call(api(), "POST", "/api/v1/webhooks", { key: api().testKey, body: { url: `${receiver().url}/hooks`, events } });
    expect(res.status).toBe(201);
    return body.webhook;
  }

  async function deliveriesOf(webhookId: string): Promise<any[]> {
    return (await call(api(), "GET", `/api/v1/webhooks/${webhookId}/deliveries`, { key: api().testKey })).body.deliveries;
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
    const service = api().service;
    const published = await service.store.db.transaction().execute((trx) =>
      publishEvent(
        trx,
        {
          type: "filing.due",
          data: { filing_frequency: "monthly", period: "2026-11", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7, worksheet: { api_path: "/api/v1/returns/2026-11", dashboard_path: "/dashboard/returns/2026-11" } },
          organizationId: api().orgId,
          webhookId,
        },
        service.context.now(),
      ),
    );
    service.background.actor.wake();
    return published.envelope;
  }

  return { register, deliveriesOf, waitForDelivery, publishFilingDue };
}
