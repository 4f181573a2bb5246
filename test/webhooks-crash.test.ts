/**
 * Durability: a real `buckeye serve` child process is killed with SIGKILL in the middle of a run
 * of 200 deliveries, then started again on the same database. Every event must reach the receiver
 * (at least once; duplicates are allowed by the contract, and counted here).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { addDays, dateInOhio } from "../src/rates/calendar.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { startReceiver } from "./_receiver.ts";
import { freshDatabase } from "./_setup.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EVENTS = 200;
/** The receiver answers this many deliveries, then holds every later one open: the kill lands mid-run. */
const ANSWERED_BEFORE_KILL = 60;

const dir = mkdtempSync(join(tmpdir(), "buckeye-crash-"));
const database = freshDatabase(dir);
const children = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
});

const env = {
  ...process.env,
  DATABASE_URL: database.url,
  PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "info",
  RATE_LIMIT_PER_SECOND: "100000",
  WEBHOOK_CONCURRENCY: "10",
  WEBHOOK_POLL_MS: "100",
  WEBHOOK_TIMEOUT_MS: "1000",
  WEBHOOK_LEASE_MS: "2000",
  WEBHOOK_RETRY_SCHEDULE: "100ms,200ms,400ms,800ms,1s,1s,1s,1s,1s,1s",
  // The test receiver listens on loopback, which webhooks may reach only when the operator allows it.
  WEBHOOK_PRIVATE_TARGETS: "loopback",
  SCHEDULE_RECONCILE: "off",
  SCHEDULE_RATE_CHANGES: "off",
  SCHEDULE_FILING_REMINDERS: "off",
  SCHEDULE_CERTIFICATE_EXPIRY: "off",
};

/** Starts `node bin/buckeye.js serve` and resolves with its URL once it is listening. */
function serve(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["bin/buckeye.js", "serve"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr! });
    lines.on("line", (line) => {
      if (!line.startsWith("{")) return;
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === "listening" && entry.url) resolve({ child, url: entry.url });
    });
    child.on("exit", (code) => reject(new Error(`serve exited with ${code} before listening`)));
  });
}

async function post(url: string, key: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

describe("durable outbox: kill -9 in the middle of 200 deliveries, restart, nothing is lost", () => {
  it("every event is delivered after a SIGKILL and a restart; duplicates are counted", { timeout: 120_000 }, async () => {
    const store = openStore(env.DATABASE_URL);
    await migrateToLatest(store.db);
    const org = await createOrganization(store.db, "Crash Test Org");
    const key = (await createKey(store.db, org.id, "crash test", "test")).key;

    let killed = false;
    const acknowledged = new Map<string, number>();
    const receiver = await startReceiver((request, index) => {
      if (!killed && index >= ANSWERED_BEFORE_KILL) return { status: 200, hang: true };
      const id = String(request.headers["x-webhook-id"]);
      acknowledged.set(id, (acknowledged.get(id) ?? 0) + 1);
      return { status: 200 };
    });

    const first = await serve();
    await post(`${first.url}/api/v1/webhooks`, key, { url: `${receiver.url}/hooks`, events: ["certificate.expiring"] });
    const expiresOn = addDays(dateInOhio(new Date()), 20);
    for (let i = 0; i < EVENTS; i++) {
      await post(`${first.url}/api/v1/certificates`, key, { customer_id: `cust_${i}`, customer_name: `Customer ${i}`, exempt_reason: "resale", expires_on: expiresOn });
    }
    // A second process publishes the 200 events into the shared outbox, as `buckeye jobs run` does.
    const job = spawnSync(process.execPath, ["bin/buckeye.js", "jobs", "run", "certificate-expiry", "--json"], { cwd: ROOT, env, encoding: "utf8" });
    expect(job.status, job.stderr).toBe(0);
    expect(JSON.parse(job.stdout).result.events).toBe(EVENTS);

    await receiver.waitFor((received) => received.length > ANSWERED_BEFORE_KILL, 30_000);
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    killed = true;
    const beforeRestart = acknowledged.size;
    expect(beforeRestart).toBeLessThan(EVENTS);

    const second = await serve();
    const published = await store.db.selectFrom("events").select("id").where("type", "=", "certificate.expiring").execute();
    expect(published).toHaveLength(EVENTS);
    await receiver.waitFor(() => published.every((e) => acknowledged.has(e.id)), 60_000);

    second.child.kill("SIGTERM");
    await new Promise((resolve) => second.child.once("exit", resolve));
    const receipts = receiver.received.length;
    const duplicates = receipts - new Set(receiver.received.map((r) => r.headers["x-webhook-id"])).size;
    const states = await store.db.selectFrom("deliveries").select(["status", (eb) => eb.fn.countAll<number>().as("n")]).groupBy("status").execute();
    console.log(
      `crash test: ${EVENTS} events, ${beforeRestart} acknowledged before SIGKILL, ${receipts} requests received in all, ` +
        `${duplicates} duplicate receipts (same X-Webhook-ID again), 0 missing; deliveries by status: ${JSON.stringify(states)}`,
    );
    expect(states.map((s) => [s.status, Number(s.n)])).toEqual([["delivered", EVENTS]]);
    await store.close();
    await receiver.close();
  });
});
