/**
 * The outbox is fair between organizations: one organization's receiver that hangs, with a
 * backlog of hundreds of deliveries, holds at most WEBHOOK_IN_FLIGHT_PER_ORG of the delivery
 * slots, and another organization's event goes out beside that backlog, not behind it. A real
 * service with its delivery actor, real receivers on loopback, events queued through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { call } from "./_api.ts";
import { FUTURE_CHANGE } from "./_delivery.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import { startTestService, type TestService } from "./_setup.ts";

const IN_FLIGHT_PER_ORG = 4;
const CONCURRENCY = 8;
const HOOKS = 100;
const EVENTS = 200;

let api: TestService;
let hanging: Receiver;
let prompt: Receiver;

beforeAll(async () => {
  hanging = await startReceiver(() => ({ status: 200, hang: true }));
  prompt = await startReceiver(() => ({ status: 200 }));
  api = await startTestService({
    WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_IN_FLIGHT_PER_ORG: String(IN_FLIGHT_PER_ORG),
    WEBHOOKS_PER_ORG: String(HOOKS),
    // A hung attempt holds its slot this long: far longer than the test waits for the other organization.
    WEBHOOK_TIMEOUT_MS: "60000",
    WEBHOOK_LEASE_MS: "120000",
    WEBHOOK_POLL_MS: "50",
    WEBHOOK_PRIVATE_TARGETS: "loopback",
    RECONCILE_SOURCE: FUTURE_CHANGE,
  });
  api.service.background.actor.start();
});
afterAll(async () => {
  // The hung requests end with their receiver, so the actor's in-flight attempts settle and it stops at once.
  await hanging.close();
  await prompt.close();
  await api.close();
});

async function pendingOf(webhookIds: string[], key: string): Promise<number> {
  let pending = 0;
  for (const id of webhookIds) {
    const { body } = await call(api, "GET", `/api/v1/webhooks/${id}/deliveries?limit=200`, { key });
    pending += body.deliveries.filter((d: { status: string }) => d.status === "pending").length;
  }
  return pending;
}

describe("one organization's hanging receiver does not hold up another organization's deliveries", () => {
  it(`with ${HOOKS} webhooks and ${EVENTS} test events hanging, the other organization's event arrives while that backlog is still pending, and the hanging organization never holds more than ${IN_FLIGHT_PER_ORG} slots`, async () => {
    const slowIds: string[] = [];
    for (let i = 0; i < HOOKS; i++) {
      const { res, body } = await call(api, "POST", "/api/v1/webhooks", { key: api.testKey, body: { url: `${hanging.url}/hooks/${i}`, events: ["*"] } });
      expect(res.status).toBe(201);
      slowIds.push(body.webhook.id);
    }
    for (let i = 0; i < EVENTS; i++) {
      const { res } = await call(api, "POST", `/api/v1/webhooks/${slowIds[i % HOOKS]}/test`, { key: api.testKey });
      expect(res.status).toBe(202);
    }
    await hanging.waitFor((received) => received.length >= IN_FLIGHT_PER_ORG);

    // Another organization, queued after the whole backlog.
    const other = await createOrganization(api.service.store.db, "Prompt Org");
    const otherKey = (await createKey(api.service.store.db, other.id, "prompt", "test")).key;
    const { body } = await call(api, "POST", "/api/v1/webhooks", { key: otherKey, body: { url: `${prompt.url}/hooks`, events: ["*"] } });
    await call(api, "POST", `/api/v1/webhooks/${body.webhook.id}/test`, { key: otherKey });
    // Generous: the rule is "beside the backlog", not a latency; the backlog would take minutes to drain.
    await prompt.waitFor((received) => received.length === 1, 15_000);

    expect(hanging.received.length).toBe(IN_FLIGHT_PER_ORG);
    expect(await pendingOf(slowIds, api.testKey)).toBe(EVENTS);
    expect(api.service.background.actor.busy).toBeLessThanOrEqual(IN_FLIGHT_PER_ORG);
  }, 60_000);
});
