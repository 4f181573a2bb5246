/**
 * Receivers that never answer cannot buy the outbox: many organizations, each with every one of
 * its webhooks pointed at a receiver that never answers and an event queued to each, do not hold
 * up another organization's event for longer than about one delivery timeout. A real service with
 * its delivery actor, real receivers on loopback (one never answers, one answers at once).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { insertWebhook } from "../src/store/webhooks.repository.ts";
import { publishEvent } from "../src/webhooks/outbox.ts";
import { newWebhookSecret } from "../src/webhooks/sign.ts";
import { call } from "./_api.ts";
import { FUTURE_CHANGE } from "./_delivery.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import { startTestService } from "./_setup.ts";

const CONCURRENCY = 16;
const IN_FLIGHT_PER_ORG = 4;
const HOOKS_PER_ORG = 20;
// The defaults but a shorter timeout (10 s by default), so the test takes seconds: the bound scales with it.
const TIMEOUT_MS = 2000;
// Every slot is held when the event is queued, so it waits for slots to come free (one timeout); the
// organizations queued before it and not served yet go first (a second timeout at most), and never
// again once served. Slack for a loaded machine. Before the next slot went to whoever has waited
// longest, 24 organizations held it up for about 25 timeouts (253 s at the default 10 s).
const BOUND_MS = 4 * TIMEOUT_MS;

let never: Receiver;
let prompt: Receiver;
beforeAll(async () => {
  never = await startReceiver(() => ({ status: 200, hang: true }));
  prompt = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  await never.close();
  await prompt.close();
});

/** Queues `organizations` × HOOKS_PER_ORG deliveries to the receiver that never answers, then, once every slot is taken, one to the prompt receiver; returns how long that one took. */
async function delayBehind(organizations: number): Promise<{ delayMs: number; hostileSent: number; hostileQueued: number }> {
  const api = await startTestService({
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_IN_FLIGHT_PER_ORG: String(IN_FLIGHT_PER_ORG),
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_LEASE_MS: String(4 * TIMEOUT_MS),
    WEBHOOK_PRIVATE_TARGETS: "loopback",
    RECONCILE_SOURCE: FUTURE_CHANGE,
  });
  try {
    const db = api.service.store.db;
    const sentBefore = never.received.length;
    api.service.background.actor.start();
    for (let o = 0; o < organizations; o++) {
      const organization = await createOrganization(db, `Hostile ${o}`);
      for (let h = 0; h < HOOKS_PER_ORG; h++) {
        const at = new Date();
        const webhook = await insertWebhook(db, { organizationId: organization.id, env: "test", url: `${never.url}/o${o}/h${h}`, events: ["*"], secret: newWebhookSecret() }, at);
        await db.transaction().execute((trx) =>
          publishEvent(trx, { type: "webhook.test", data: { webhook_id: webhook.id, message: "hostile" }, organizationId: organization.id, webhookId: webhook.id }, at),
        );
      }
    }
    // Every slot is taken by a receiver that never answers when the other organization's event is queued.
    await never.waitFor((received) => received.length - sentBefore >= CONCURRENCY);
    const { body } = await call(api, "POST", "/api/v1/webhooks", { key: api.testKey, body: { url: `${prompt.url}/hooks/${organizations}`, events: ["*"] } });
    const path = `/hooks/${organizations}`;
    const queued = performance.now();
    expect((await call(api, "POST", `/api/v1/webhooks/${body.webhook.id}/test`, { key: api.testKey })).res.status).toBe(202);
    await prompt.waitFor((received) => received.some((r) => r.path === path), 30 * TIMEOUT_MS);
    const delayMs = prompt.received.find((r) => r.path === path)!.at - queued;
    return { delayMs, hostileSent: never.received.length - sentBefore, hostileQueued: organizations * HOOKS_PER_ORG };
  } finally {
    await api.close();
  }
}

describe("an organization that has waited longest gets the next delivery slot, however much the others have queued to receivers that never answer", () => {
  for (const organizations of [8, 24]) {
    it(`${organizations} organizations with ${HOOKS_PER_ORG} never-answering webhooks each delay another organization's event by about two timeouts at most`, async () => {
      const { delayMs, hostileSent, hostileQueued } = await delayBehind(organizations);
      expect(delayMs).toBeLessThan(BOUND_MS);
      // Beside the backlog, not behind it: most of it has not even been tried yet.
      expect(hostileSent).toBeLessThan(hostileQueued / 2);
    }, 120_000);
  }
});
