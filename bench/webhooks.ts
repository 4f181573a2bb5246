/**
 * Webhook delivery throughput: deliveries per second from the outbox to a local receiver with 10
 * endpoints, through the real delivery actor (claim under lease, sign, POST, record the attempt).
 * The receiver answers 200 at once, so this measures our side: the database round trips per
 * delivery and the signing and HTTP work. Run on its own:
 *
 *   node --import tsx bench/webhooks.ts
 *
 * BENCH_WEBHOOK_EVENTS (default 1000) events go to each of the 10 endpoints; BENCH_DATABASE_URL
 * picks the database (default a fresh SQLite file); WEBHOOK_CONCURRENCY as in production (16).
 * Figures go to bench/results-webhooks.json.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../src/store/connect.ts";
import { countDeliveries } from "../src/store/deliveries.repository.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { DeliveryActor } from "../src/webhooks/delivery-actor.ts";
import { SecretBox } from "../src/webhooks/secret-box.ts";
import { registerWebhook } from "../src/webhooks/webhook-secrets.ts";
import { publishEvent } from "../src/webhooks/outbox.ts";
import { newWebhookSecret } from "../src/webhooks/sign.ts";

const ENDPOINTS = 10;
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const CONCURRENCY = Number(process.env.WEBHOOK_CONCURRENCY ?? 16);
const root = new URL("..", import.meta.url).pathname;

const dir = mkdtempSync(join(tmpdir(), "buckeye-bench-webhooks-"));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${join(dir, "bench.sqlite")}`;
const store = openStore(databaseUrl);
await migrateToLatest(store.db);

let received = 0;
const receiver = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    received++;
    response.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const port = (receiver.address() as AddressInfo).port;

const org = await createOrganization(store.db, "Bench Org");
// Sealed, as a deployment with SECRETS_KEY stores them: each attempt pays for opening the secret.
const secrets = new SecretBox(randomBytes(32));
for (let i = 0; i < ENDPOINTS; i++) {
  await registerWebhook(store.db, { organizationId: org.id, env: "test", url: `http://127.0.0.1:${port}/endpoint/${i}`, events: ["*"], secret: newWebhookSecret() }, new Date(), secrets);
}
// All events are in the outbox before the clock starts: the figure is delivery, not publishing.
await store.db.transaction().execute(async (trx) => {
  for (let i = 0; i < EVENTS; i++) {
    await publishEvent(
      trx,
      { type: "filing.due", data: { filing_frequency: "monthly", period: "2026-11", period_start: "2026-11-01", period_end: "2026-11-30", due_date: "2026-12-23", days_until: 7, worksheet: { api_path: "/api/v1/returns/2026-11", dashboard_path: "/dashboard/returns/2026-11" } }, organizationId: org.id },
      new Date(),
    );
  }
});
const total = EVENTS * ENDPOINTS;

const actor = new DeliveryActor({
  db: store.db,
  dialect: store.dialect,
  // The receiver is on loopback, which test-key webhooks reach only when the operator allows it.
  // One organization owns every endpoint here: its in-flight cap is the whole pool, so the figure is the pool's throughput.
  settings: { timeoutMs: 10_000, retrySchedule: [5_000], concurrency: CONCURRENCY, pollIntervalMs: 50, leaseMs: 60_000, perOrganization: CONCURRENCY, privateTargets: new Set(["loopback"]) },
  secrets,
});
const started = performance.now();
actor.start();
for (;;) {
  const counts = await countDeliveries(store.db);
  if (counts.delivered + counts.failed + counts.cancelled >= total) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const seconds = (performance.now() - started) / 1000;
await actor.stop();
const counts = await countDeliveries(store.db);

const result = {
  measured_at: new Date().toISOString(),
  machine: { cores: cpus().length, node: process.version },
  database: store.dialect,
  endpoints: ENDPOINTS,
  events: EVENTS,
  deliveries: total,
  delivered: counts.delivered,
  failed: counts.failed,
  requests_received: received,
  concurrency: CONCURRENCY,
  seconds: Number(seconds.toFixed(2)),
  deliveries_per_second: Math.round(counts.delivered / seconds),
};
console.log(`webhooks: ${result.delivered} of ${total} deliveries to ${ENDPOINTS} endpoints in ${result.seconds} s on ${result.database}: ${result.deliveries_per_second} deliveries/s (concurrency ${CONCURRENCY})`);
writeFileSync(join(root, "bench/results-webhooks.json"), `${JSON.stringify(result, null, 2)}\n`);

await store.close();
receiver.close();
rmSync(dir, { recursive: true, force: true });
