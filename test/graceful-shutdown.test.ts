/**
 * Graceful shutdown of `buckeye serve` (docs/operations/README.md): on SIGTERM the process stops
 * accepting connections, finishes the requests and webhook deliveries in flight, then exits 0.
 * Real processes; the upstreams are labelled fakes: the Census Geocoder fake holds an address
 * lookup until released, and a loopback webhook receiver answers slowly.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { FAKE_ADDRESSES, oneLine, startFakeCensusGeocoder, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import { startServe, type ServeProcess } from "./_serve-process.ts";
import { freshDatabase, type FreshDatabase } from "./_setup.ts";
import { until } from "./_wait.ts";

const dir = mkdtempSync(join(tmpdir(), "buckeye-shutdown-"));
let database: FreshDatabase;
let liveKey: string;
let testKey: string;
let geocoder: FakeCensusGeocoder;
let receiver: Receiver | undefined;
let server: ServeProcess | undefined;

beforeAll(async () => {
  database = freshDatabase(dir);
  const store = openStore(database.url);
  await migrateToLatest(store.db);
  const org = await createOrganization(store.db, "Shutdown Co");
  liveKey = (await createKey(store.db, org.id, "shutdown live", "live")).key;
  testKey = (await createKey(store.db, org.id, "shutdown sandbox", "test")).key;
  await store.close();
  geocoder = await startFakeCensusGeocoder();
});

afterEach(async () => {
  server?.child.kill("SIGKILL");
  await receiver?.close();
  receiver = undefined;
});

afterAll(async () => {
  await geocoder?.close();
  rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

function serve(): Promise<ServeProcess> {
  return startServe({
    env: { DATABASE_URL: database.url, CENSUS_GEOCODER_URL: geocoder.url, WORKER_THREADS: "1", LOG_LEVEL: "info", WEBHOOK_POLL_MS: "100", WEBHOOK_PRIVATE_TARGETS: "loopback" },
  });
}

describe("SIGTERM: stop accepting, finish what is in flight, exit 0", () => {
  it("a request in flight when SIGTERM arrives is answered; new connections are refused meanwhile", async () => {
    server = await serve();
    const url = server.url;
    geocoder.setMode("hold");
    const seen = geocoder.requests.length;
    const inFlight = fetch(`${url}/api/v1/rates?address=${encodeURIComponent(oneLine("statehouse"))}`, {
      headers: { authorization: `Bearer ${liveKey}` },
    });
    await until(() => geocoder.requests.length > seen, "the lookup to reach the geocoder");

    server.child.kill("SIGTERM");
    await until(() => server!.logs.some((l) => l.msg?.toString().startsWith("shutting down")), "the shutdown log line");
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();

    geocoder.release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { county: string; request_id: string };
    expect(body.county).toBe(FAKE_ADDRESSES.statehouse.county.name.replace(/ County$/, ""));
    expect(await server.exited).toBe(0);
    expect(server.logs.at(-1)).toMatchObject({ level: "info", msg: "stopped" });
  });

  it("a webhook delivery being sent when SIGTERM arrives is finished and recorded as delivered before exit", async () => {
    receiver = await startReceiver(() => ({ status: 200, delayMs: 1500 }));
    server = await serve();
    const created = await fetch(`${server.url}/api/v1/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${testKey}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ["*"] }),
    });
    expect(created.status).toBe(201);
    const webhookId = ((await created.json()) as { webhook: { id: string } }).webhook.id;
    const sent = await fetch(`${server.url}/api/v1/webhooks/${webhookId}/test`, { method: "POST", headers: { authorization: `Bearer ${testKey}` } });
    expect(sent.status).toBeLessThan(300);
    await receiver.waitFor((r) => r.length === 1);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    const store = openStore(database.url);
    try {
      const rows = await store.db.selectFrom("deliveries").select(["status", "attempts"]).where("webhook_id", "=", webhookId).execute();
      expect(rows).toEqual([{ status: "delivered", attempts: 1 }]);
    } finally {
      await store.close();
    }
  });
});
