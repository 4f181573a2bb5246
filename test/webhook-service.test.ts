/**
 * The webhook service's rules (src/webhooks/webhook-service.ts), without HTTP: the API and the
 * dashboard both call these actions, so each rule is tested here once, against a real database.
 * Host names resolve through a stand-in resolver (no DNS here); everything else is the real code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/store/connect.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { publishEvent } from "../src/webhooks/outbox.ts";
import { secretBoxFrom } from "../src/webhooks/secret-box.ts";
import { createWebhookService, MAX_RECOVERED, ROTATION_GRACE_MS, WebhookRefusal, type WebhookService } from "../src/webhooks/webhook-service.ts";
import { listDeliveries } from "../src/store/deliveries.repository.ts";
import { freshStore } from "./_store.ts";

const NOW = new Date("2026-11-24T12:00:00Z");
let store: Store;
let close: () => Promise<void>;
let webhooks: WebhookService;
let wakes = 0;
let org: string;
let other: string;

/** The refusal an action ends in (its code), or "done". */
async function outcome(action: Promise<unknown>): Promise<string> {
  try {
    await action;
    return "done";
  } catch (error) {
    if (error instanceof WebhookRefusal) return error.refusal.code;
    throw error;
  }
}

/** The service on the test store, with a cap of `webhooksPerOrganization` webhooks. */
function serviceWithCap(webhooksPerOrganization: number): WebhookService {
  return createWebhookService({
    db: store.db,
    now: () => NOW,
    secrets: secretBoxFrom({ secretsKey: null, secretsKeyPrevious: null }),
    privateTargets: new Set(["loopback"]),
    wakeDeliveries: () => wakes++,
    webhooksPerOrganization,
    // hooks.example.com stands for a public receiver.
    resolve: async (host) => (host === "hooks.example.com" ? ["93.184.216.34"] : []),
  });
}

beforeAll(async () => {
  ({ store, close } = await freshStore());
  webhooks = serviceWithCap(20);
  org = (await createOrganization(store.db, "Service Org")).id;
  other = (await createOrganization(store.db, "Other Org")).id;
});
afterAll(() => close());

describe("a webhook's URL must be usable for its environment", () => {
  it("a live webhook needs https to a public address; loopback is refused", async () => {
    expect(await outcome(webhooks.register(org, "live", { url: "http://127.0.0.1:9/hook", events: ["*"] }))).toBe("invalid-url");
    expect(await outcome(webhooks.register(org, "live", { url: "https://hooks.example.com/tax", events: ["*"] }))).toBe("done");
  });

  it("a test webhook may reach loopback when the operator allows it", async () => {
    const row = await webhooks.register(org, "test", { url: "http://127.0.0.1:9/hook", events: ["rate.changed"] });
    expect(row).toMatchObject({ env: "test", url: "http://127.0.0.1:9/hook" });
  });

  it("a change of URL is judged as live when the webhook is live, even when a test caller asks", async () => {
    const live = await webhooks.register(org, "live", { url: "https://hooks.example.com/a", events: ["*"] });
    expect(await outcome(webhooks.update(org, "test", live.id, { url: "http://127.0.0.1:9/b" }))).toBe("invalid-url");
    expect((await webhooks.find(org, live.id)).url).toBe("https://hooks.example.com/a");
  });
});

describe("every action is scoped to one organization", () => {
  it("another organization's webhook is not found, and is left as it was", async () => {
    const row = await webhooks.register(org, "live", { url: "https://hooks.example.com/scoped", events: ["*"] });
    expect(await outcome(webhooks.find(other, row.id))).toBe("webhook-not-found");
    expect(await outcome(webhooks.remove(other, row.id))).toBe("webhook-not-found");
    expect(await outcome(webhooks.rotateSecret(other, row.id))).toBe("webhook-not-found");
    expect((await webhooks.find(org, row.id)).status).toBe("active");
  });
});

describe("a rotated-out secret keeps signing for ROTATION_GRACE_MS", () => {
  it("gives a new secret and keeps the old one until now + 24 hours", async () => {
    const row = await webhooks.register(org, "live", { url: "https://hooks.example.com/rotate", events: ["*"] });
    const rotated = await webhooks.rotateSecret(org, row.id);
    expect(rotated.secret).not.toBe(row.secret);
    expect(ROTATION_GRACE_MS).toBe(24 * 60 * 60 * 1000);
    expect(rotated.previous_secret_expires_at).toBe(new Date(NOW.getTime() + ROTATION_GRACE_MS).toISOString());
  });
});

describe("queuing an event wakes the delivery actor", () => {
  it("a test event is queued for this webhook alone", async () => {
    const row = await webhooks.register(org, "live", { url: "https://hooks.example.com/test", events: ["rate.changed"] });
    const before = wakes;
    const published = await webhooks.sendTest(org, row.id, "hello");
    expect(published.envelope).toMatchObject({ type: "webhook.test", data: { webhook_id: row.id, message: "hello" } });
    expect(wakes).toBe(before + 1);
    expect((await webhooks.deliveries(org, row.id, 10)).deliveries.map((d) => d.event_id)).toEqual([published.envelope.id]);
  });
});

describe("redelivery and recovery", () => {
  it("a delivery of another webhook is not found", async () => {
    const row = await webhooks.register(org, "live", { url: "https://hooks.example.com/redeliver", events: ["*"] });
    expect(await outcome(webhooks.redeliver(org, row.id, "dlv_nope"))).toBe("delivery-not-found");
  });

  it("a delivery still pending is not queued twice", async () => {
    const row = await webhooks.register(org, "live", { url: "https://hooks.example.com/pending", events: ["*"] });
    await webhooks.sendTest(org, row.id, "pending");
    const [pending] = await listDeliveries(store.db, row.id, 10);
    expect(await outcome(webhooks.redeliver(org, row.id, pending!.id))).toBe("delivery-pending");
  });

  it("both are refused for a disabled webhook, whose new delivery would be cancelled at once", async () => {
    const row = await webhooks.register(org, "live", { url: "https://hooks.example.com/disabled", events: ["*"] });
    await store.db.transaction().execute((trx) => publishEvent(trx, { type: "webhook.test", data: { webhook_id: row.id, message: "x" }, organizationId: org, webhookId: row.id }, NOW));
    const [delivery] = await listDeliveries(store.db, row.id, 10);
    await webhooks.update(org, "live", row.id, { status: "disabled" });
    expect(await outcome(webhooks.redeliver(org, row.id, delivery!.id))).toBe("webhook-disabled");
    expect(await outcome(webhooks.recover(org, row.id, new Date("2026-11-01T00:00:00Z")))).toBe("webhook-disabled");
  });

  it("a recovery from a time in the future is refused: nothing could have been missed yet", async () => {
    const row = await webhooks.register(org, "live", { url: "https://hooks.example.com/future", events: ["*"] });
    expect(await outcome(webhooks.recover(org, row.id, new Date(NOW.getTime() + 1000)))).toBe("since-in-future");
  });

  it("a recovery with nothing missed queues nothing and wakes no one", async () => {
    const row = await webhooks.register(org, "live", { url: "https://hooks.example.com/nothing", events: ["*"] });
    const before = wakes;
    expect(await webhooks.recover(org, row.id, new Date("2026-11-01T00:00:00Z"))).toEqual({ queued: 0, remaining: 0 });
    expect(wakes).toBe(before);
    expect(MAX_RECOVERED).toBe(1000);
  });
});

describe("an organization has at most webhooksPerOrganization webhooks (WEBHOOKS_PER_ORG)", () => {
  it("the one past the cap is refused, disabled ones count, another organization is not affected, and deleting one makes room", async () => {
    const capped = serviceWithCap(2);
    const full = (await createOrganization(store.db, "Full Org")).id;
    const spare = (await createOrganization(store.db, "Spare Org")).id;
    const hook = { url: "https://hooks.example.com/tax", events: ["*"] };
    const first = await capped.register(full, "live", hook);
    await capped.register(full, "live", hook);
    await capped.update(full, "live", first.id, { status: "disabled" });
    const refused = await capped.register(full, "live", hook).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WebhookRefusal);
    expect((refused as WebhookRefusal).refusal).toEqual({ code: "webhook-limit-reached", limit: 2 });
    expect((refused as WebhookRefusal).message).toMatch(/has 2 webhooks, the most it may have/);
    expect(await outcome(capped.register(spare, "live", hook))).toBe("done");
    await capped.remove(full, first.id);
    expect(await outcome(capped.register(full, "live", hook))).toBe("done");
  });

  it("registrations at the same moment cannot overshoot it", async () => {
    const capped = serviceWithCap(3);
    const racing = (await createOrganization(store.db, "Racing Org")).id;
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => outcome(capped.register(racing, "live", { url: "https://hooks.example.com/tax", events: ["*"] }))));
    expect(outcomes.filter((o) => o === "done")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "webhook-limit-reached")).toHaveLength(27);
    expect(await capped.list(racing)).toHaveLength(3);
  });
});
