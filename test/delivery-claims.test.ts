/**
 * A delivery attempt settles its delivery only while its sender still holds the claim. Without
 * HTTP: the repositories on the test database, the actor not started, nothing sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDueDeliveries, recordAttempt } from "../src/store/deliveries.repository.ts";
import { disableWebhook, insertWebhook, updateWebhook } from "../src/store/webhooks.repository.ts";
import { publishEvent } from "../src/webhooks/outbox.ts";
import { newWebhookSecret } from "../src/webhooks/sign.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService();
});
afterAll(() => api.close());

describe("an attempt whose claim was lost (webhook disabled meanwhile, then set active again) settles nothing", () => {
  it("is logged, leaves the delivery cancelled, and reports that it did not apply, so its failure cannot disable the webhook again", async () => {
    const db = api.service.store.db;
    const now = new Date();
    const webhook = await insertWebhook(db, { organizationId: api.orgId, env: "live", url: "https://receiver.example/hooks", events: ["filing.due"], secret: newWebhookSecret() }, now);
    await db.transaction().execute((trx) =>
      publishEvent(
        trx,
        {
          type: "filing.due",
          data: { filing_frequency: "monthly", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7 },
          organizationId: api.orgId,
          webhookId: webhook.id,
        },
        now,
      ),
    );
    const [claimed] = await claimDueDeliveries(db, api.service.store.dialect, { instance: "sender-a", now, leaseUntil: new Date(now.getTime() + 60_000), limit: 10 });
    expect(claimed).toBeDefined();

    // Another delivery's last failure disables the webhook (cancelling this one); the owner sets it active again.
    await disableWebhook(db, webhook.id, "every one of 4 attempts failed", now);
    await updateWebhook(db, api.orgId, webhook.id, { status: "active" }, now);

    const attempt = { deliveryId: claimed!.id, number: 4, attemptedAt: now, statusCode: 503, latencyMs: 3, outcome: "failed" as const, error: "HTTP 503", status: "failed" as const, nextAttemptAt: null, finishedAt: now };
    expect(await recordAttempt(db, { ...attempt, instance: "sender-a" })).toBe(false);
    const delivery = await db.selectFrom("deliveries").select(["status", "attempts"]).where("id", "=", claimed!.id).executeTakeFirstOrThrow();
    expect(delivery.status).toBe("cancelled");
    const attempts = await db.selectFrom("delivery_attempts").select("number").where("delivery_id", "=", claimed!.id).execute();
    expect(attempts).toEqual([{ number: 4 }]);
  });

  it("an attempt whose sender still holds the claim applies", async () => {
    const db = api.service.store.db;
    const now = new Date();
    const webhook = await insertWebhook(db, { organizationId: api.orgId, env: "live", url: "https://receiver.example/other", events: ["filing.due"], secret: newWebhookSecret() }, now);
    await db.transaction().execute((trx) =>
      publishEvent(trx, { type: "filing.due", data: { filing_frequency: "monthly", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7 }, organizationId: api.orgId, webhookId: webhook.id }, now),
    );
    const claimed = await claimDueDeliveries(db, api.service.store.dialect, { instance: "sender-b", now, leaseUntil: new Date(now.getTime() + 60_000), limit: 10 });
    const mine = claimed.find((d) => d.webhook_id === webhook.id)!;
    const applied = await recordAttempt(db, { deliveryId: mine.id, instance: "sender-b", number: 1, attemptedAt: now, statusCode: 200, latencyMs: 3, outcome: "delivered", error: null, status: "delivered", nextAttemptAt: null, finishedAt: now });
    expect(applied).toBe(true);
    expect((await db.selectFrom("deliveries").select("status").where("id", "=", mine.id).executeTakeFirstOrThrow()).status).toBe("delivered");
  });
});
