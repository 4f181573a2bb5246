/**
 * A delivery attempt settles its delivery only while its sender still holds the claim, and claims
 * take organizations in turn, never past an organization's cap of deliveries in flight. Without
 * HTTP: the repositories on the test database, the actor not started, nothing sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDueDeliveries, recordAttempt, releaseClaims } from "../src/store/deliveries.repository.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { disableWebhook, insertWebhook, noteEndpointAnswer, updateWebhook } from "../src/store/webhooks.repository.ts";
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
          data: { filing_frequency: "monthly", period: "2026-11", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7, worksheet: { api_path: "/api/v1/returns/2026-11", dashboard_path: "/dashboard/returns/2026-11" } },
          organizationId: api.orgId,
          webhookId: webhook.id,
        },
        now,
      ),
    );
    const [claimed] = await claimDueDeliveries(db, api.service.store.dialect, { instance: "sender-a", now, leaseUntil: new Date(now.getTime() + 60_000), limit: 10, perOrganization: 10, doubtfulSlots: 10 });
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
      publishEvent(trx, { type: "filing.due", data: { filing_frequency: "monthly", period: "2026-11", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7, worksheet: { api_path: "/api/v1/returns/2026-11", dashboard_path: "/dashboard/returns/2026-11" } }, organizationId: api.orgId, webhookId: webhook.id }, now),
    );
    const claimed = await claimDueDeliveries(db, api.service.store.dialect, { instance: "sender-b", now, leaseUntil: new Date(now.getTime() + 60_000), limit: 10, perOrganization: 10, doubtfulSlots: 10 });
    const mine = claimed.find((d) => d.webhook_id === webhook.id)!;
    const applied = await recordAttempt(db, { deliveryId: mine.id, instance: "sender-b", number: 1, attemptedAt: now, statusCode: 200, latencyMs: 3, outcome: "delivered", error: null, status: "delivered", nextAttemptAt: null, finishedAt: now });
    expect(applied).toBe(true);
    expect((await db.selectFrom("deliveries").select("status").where("id", "=", mine.id).executeTakeFirstOrThrow()).status).toBe("delivered");
  });
});

/** An organization of its own with one webhook and `count` due deliveries to it, each a millisecond older than the next. */
async function organizationWithDue(name: string, count: number, oldest: Date): Promise<{ organizationId: string; webhookId: string }> {
  const organization = await createOrganization(api.service.store.db, name);
  return { organizationId: organization.id, webhookId: await webhookWithDue(organization.id, name, count, oldest) };
}

/** A webhook of the organization with `count` due deliveries to it, each a millisecond older than the next. */
async function webhookWithDue(organizationId: string, name: string, count: number, oldest: Date): Promise<string> {
  const db = api.service.store.db;
  const webhook = await insertWebhook(db, { organizationId, env: "live", url: `https://${name.toLowerCase()}.example/hooks`, events: ["filing.due"], secret: newWebhookSecret() }, oldest);
  for (let i = 0; i < count; i++) {
    await db.transaction().execute((trx) =>
      publishEvent(
        trx,
        { type: "filing.due", data: { filing_frequency: "monthly", period: "2026-11", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7, worksheet: { api_path: "/api/v1/returns/2026-11", dashboard_path: "/dashboard/returns/2026-11" } }, organizationId, webhookId: webhook.id },
        new Date(oldest.getTime() + i),
      ),
    );
  }
  return webhook.id;
}

/** Settles every delivery earlier tests left pending, so a test's claims see only its own. */
async function cancelPending(): Promise<void> {
  await api.service.store.db.updateTable("deliveries").set({ status: "cancelled", claimed_by: null, claimed_until: null }).where("status", "=", "pending").execute();
}

function claimAt(instance: string, now: Date, limit: number, perOrganization: number, doubtfulSlots: number) {
  return claimDueDeliveries(api.service.store.db, api.service.store.dialect, { instance, now, leaseUntil: new Date(now.getTime() + 60_000), limit, perOrganization, doubtfulSlots });
}

describe("claims are fair between organizations", () => {
  it("take organizations in turn: each one's oldest due delivery before any one's next, so a backlog published first does not go first", async () => {
    const db = api.service.store.db;
    const base = new Date("2030-01-01T00:00:00Z");
    const busy = await organizationWithDue("Busy", 6, base);
    const quiet = await organizationWithDue("Quiet", 2, new Date(base.getTime() + 1000));
    const now = new Date(base.getTime() + 60_000);
    const claimed = await claimDueDeliveries(db, api.service.store.dialect, { instance: "turns", now, leaseUntil: new Date(now.getTime() + 60_000), limit: 4, perOrganization: 4, doubtfulSlots: 4 });
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
      ["instance-1", "instance-2"].map((instance) => claimDueDeliveries(db, dialect, { instance, now, leaseUntil: lease, limit: 10, perOrganization: 3, doubtfulSlots: 10 })),
    );
    const all = [...first!, ...second!];
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
    expect(all.filter((d) => d.webhook_id === hog.webhookId)).toHaveLength(3);
    expect(all.filter((d) => d.webhook_id === other.webhookId)).toHaveLength(3);

    // Nothing more for the hog while its claims are live; once they lapse, its next 3.
    const meanwhile = await claimDueDeliveries(db, dialect, { instance: "instance-3", now, leaseUntil: lease, limit: 10, perOrganization: 3, doubtfulSlots: 10 });
    expect(meanwhile.filter((d) => d.webhook_id === hog.webhookId)).toEqual([]);
    const later = new Date(lease.getTime() + 1);
    const retaken = await claimDueDeliveries(db, dialect, { instance: "instance-3", now: later, leaseUntil: new Date(later.getTime() + 60_000), limit: 10, perOrganization: 3, doubtfulSlots: 10 });
    expect(retaken.filter((d) => d.webhook_id === hog.webhookId)).toHaveLength(3);
  });
});

describe("the next slot goes to the organization that has waited longest, since its delivery became due or it was last served", () => {
  it("an organization served since its backlog became due waits behind one whose delivery has waited longer, however old that backlog is", async () => {
    await cancelPending();
    const base = new Date("2032-01-01T00:00:00Z");
    const backlog = await organizationWithDue("Backlog", 5, base);
    const waiting = await organizationWithDue("Waiting", 1, new Date(base.getTime() + 30_000));
    // The backlog is served first: it has waited since base, the other only since base + 30 s.
    const first = await claimAt("served", new Date(base.getTime() + 40_000), 1, 4, 4);
    expect(first.map((d) => d.webhook_id)).toEqual([backlog.webhookId]);
    await releaseClaims(api.service.store.db, "served", first.map((d) => d.id));
    // Served at base + 40 s, it has waited less than the delivery due at base + 30 s.
    const next = await claimAt("served", new Date(base.getTime() + 50_000), 1, 4, 4);
    expect(next.map((d) => d.webhook_id)).toEqual([waiting.webhookId]);
  });
});

describe("an endpoint in doubt (its last attempt failed, or it never answered and its organization has a failing endpoint) has one delivery in flight at a time", () => {
  it("a failing endpoint with five due deliveries is given one; one that answered is given all of its", async () => {
    await cancelPending();
    const db = api.service.store.db;
    const base = new Date("2033-01-01T00:00:00Z");
    const failing = await organizationWithDue("Failing", 5, base);
    await noteEndpointAnswer(db, failing.webhookId, false, base);
    const answering = await organizationWithDue("Answering", 5, base);
    await noteEndpointAnswer(db, answering.webhookId, true, base);
    const now = new Date(base.getTime() + 1000);
    const claimed = await claimAt("doubt", now, 20, 10, 10);
    expect(claimed.filter((d) => d.webhook_id === failing.webhookId)).toHaveLength(1);
    expect(claimed.filter((d) => d.webhook_id === answering.webhookId)).toHaveLength(5);
    // Nothing more for it while that one is in flight.
    expect((await claimAt("doubt-2", now, 20, 10, 10)).filter((d) => d.webhook_id === failing.webhookId)).toEqual([]);
  });

  it("a new endpoint of an organization with a failing endpoint is in doubt too, while one that has answered is not", async () => {
    await cancelPending();
    const db = api.service.store.db;
    const base = new Date("2034-01-01T00:00:00Z");
    const { organizationId, webhookId: failing } = await organizationWithDue("Mixed", 3, base);
    await noteEndpointAnswer(db, failing, false, base);
    const fresh = await webhookWithDue(organizationId, "mixed-new", 3, base);
    const proven = await webhookWithDue(organizationId, "mixed-proven", 3, base);
    await noteEndpointAnswer(db, proven, true, base);
    const claimed = await claimAt("mixed", new Date(base.getTime() + 1000), 20, 20, 20);
    expect(claimed.filter((d) => d.webhook_id === failing)).toHaveLength(1);
    expect(claimed.filter((d) => d.webhook_id === fresh)).toHaveLength(1);
    expect(claimed.filter((d) => d.webhook_id === proven)).toHaveLength(3);
  });
});

describe("deliveries to endpoints in doubt hold at most their share of an instance's slots; the rest stay for receivers that answer", () => {
  it("four failing organizations get two of eight slots, the answering organization its four, and the instance takes no more in doubt until those settle", async () => {
    await cancelPending();
    const db = api.service.store.db;
    const base = new Date("2035-01-01T00:00:00Z");
    const failing: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { webhookId } = await organizationWithDue(`Hanging${i}`, 2, base);
      await noteEndpointAnswer(db, webhookId, false, base);
      failing.push(webhookId);
    }
    const answering = await organizationWithDue("Prompt", 4, new Date(base.getTime() + 5000));
    const now = new Date(base.getTime() + 10_000);
    const claimed = await claimAt("share", now, 8, 4, 2);
    expect(claimed.filter((d) => failing.includes(d.webhook_id))).toHaveLength(2);
    expect(claimed.filter((d) => d.webhook_id === answering.webhookId)).toHaveLength(4);
    expect(await claimAt("share", now, 8, 4, 2)).toEqual([]);
    // Another instance has a share of its own.
    expect((await claimAt("share-2", now, 8, 4, 2)).filter((d) => failing.includes(d.webhook_id))).toHaveLength(2);
  });
});

describe("an organization in trial (made by open sign-up, not verified yet) has one delivery in flight", () => {
  it("of its five due deliveries one is claimed, while a verified organization's five are", async () => {
    await cancelPending();
    const db = api.service.store.db;
    const base = new Date("2036-01-01T00:00:00Z");
    const trial = await createOrganization(db, "Trial Hooks", base, { trial: true });
    const trialHook = await webhookWithDue(trial.id, "trial-hooks", 5, base);
    const verified = await organizationWithDue("Verified Hooks", 5, base);
    const claimed = await claimAt("trial", new Date(base.getTime() + 1000), 20, 10, 10);
    expect(claimed.filter((d) => d.webhook_id === trialHook)).toHaveLength(1);
    expect(claimed.filter((d) => d.webhook_id === verified.webhookId)).toHaveLength(5);
  });
});
