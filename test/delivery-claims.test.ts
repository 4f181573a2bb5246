/**
 * A delivery attempt settles its delivery only while its sender still holds the claim, and claims
 * take organizations in turn, never past an organization's cap of deliveries in flight. Without
 * HTTP: the repositories on the test database, the actor not started, nothing sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDueDeliveries, recordAttempt } from "../src/store/deliveries.repository.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
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
    const [claimed] = await claimDueDeliveries(db, api.service.store.dialect, { instance: "sender-a", now, leaseUntil: new Date(now.getTime() + 60_000), limit: 10, perOrganization: 10 });
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
    const claimed = await claimDueDeliveries(db, api.service.store.dialect, { instance: "sender-b", now, leaseUntil: new Date(now.getTime() + 60_000), limit: 10, perOrganization: 10 });
    const mine = claimed.find((d) => d.webhook_id === webhook.id)!;
    const applied = await recordAttempt(db, { deliveryId: mine.id, instance: "sender-b", number: 1, attemptedAt: now, statusCode: 200, latencyMs: 3, outcome: "delivered", error: null, status: "delivered", nextAttemptAt: null, finishedAt: now });
    expect(applied).toBe(true);
    expect((await db.selectFrom("deliveries").select("status").where("id", "=", mine.id).executeTakeFirstOrThrow()).status).toBe("delivered");
  });
});

/** An organization of its own with one webhook and `count` due deliveries to it, each a millisecond older than the next. */
async function organizationWithDue(name: string, count: number, oldest: Date): Promise<{ organizationId: string; webhookId: string }> {
  const db = api.service.store.db;
  const organization = await createOrganization(db, name);
  const webhook = await insertWebhook(db, { organizationId: organization.id, env: "live", url: `https://${name.toLowerCase()}.example/hooks`, events: ["filing.due"], secret: newWebhookSecret() }, oldest);
  for (let i = 0; i < count; i++) {
    await db.transaction().execute((trx) =>
      publishEvent(
        trx,
        { type: "filing.due", data: { filing_frequency: "monthly", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7 }, organizationId: organization.id, webhookId: webhook.id },
        new Date(oldest.getTime() + i),
      ),
    );
  }
  return { organizationId: organization.id, webhookId: webhook.id };
}

describe("claims are fair between organizations", () => {
  it("take organizations in turn: each one's oldest due delivery before any one's next, so a backlog published first does not go first", async () => {
    const db = api.service.store.db;
    const base = new Date("2030-01-01T00:00:00Z");
    const busy = await organizationWithDue("Busy", 6, base);
    const quiet = await organizationWithDue("Quiet", 2, new Date(base.getTime() + 1000));
    const now = new Date(base.getTime() + 60_000);
    const claimed = await claimDueDeliveries(db, api.service.store.dialect, { instance: "turns", now, leaseUntil: new Date(now.getTime() + 60_000), limit: 4, perOrganization: 4 });
    const owner = new Map([[busy.webhookId, "busy"], [quiet.webhookId, "quiet"]]);
    expect(claimed.map((d) => owner.get(d.webhook_id)).sort()).toEqual(["busy", "busy", "quiet", "quiet"]);
  });

  it("never hold more than the per-organization cap in flight, counting every instance's live claims, while other organizations' deliveries are still claimed", async () => {
    const db = api.service.store.db;
    const dialect = api.service.store.dialect;
    const base = new Date("2031-01-01T00:00:00Z");
    const hog = await organizationWithDue("Hog", 12, base);
    const other = await organizationWithDue("Other", 3, new Date(base.getTime() + 1000));
    const now = new Date(base.getTime() + 60_000);
    const lease = new Date(now.getTime() + 60_000);
    // Two instances claim at the same moment: between them the hog still gets only 3.
    const [first, second] = await Promise.all(
      ["instance-1", "instance-2"].map((instance) => claimDueDeliveries(db, dialect, { instance, now, leaseUntil: lease, limit: 10, perOrganization: 3 })),
    );
    const all = [...first!, ...second!];
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
    expect(all.filter((d) => d.webhook_id === hog.webhookId)).toHaveLength(3);
    expect(all.filter((d) => d.webhook_id === other.webhookId)).toHaveLength(3);

    // Nothing more for the hog while its claims are live; once they lapse, its next 3.
    const meanwhile = await claimDueDeliveries(db, dialect, { instance: "instance-3", now, leaseUntil: lease, limit: 10, perOrganization: 3 });
    expect(meanwhile.filter((d) => d.webhook_id === hog.webhookId)).toEqual([]);
    const later = new Date(lease.getTime() + 1);
    const retaken = await claimDueDeliveries(db, dialect, { instance: "instance-3", now: later, leaseUntil: new Date(later.getTime() + 60_000), limit: 10, perOrganization: 3 });
    expect(retaken.filter((d) => d.webhook_id === hog.webhookId)).toHaveLength(3);
  });
});
