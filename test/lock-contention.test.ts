/**
 * Background work gives way to another writer holding the store's lock (src/store/lock-contention.ts):
 * the webhook outbox's claims and records, and the scheduler's occurrences, try again instead of
 * logging failures. On SQLite a second connection holds the write lock longer than busy_timeout (5 s),
 * as a batch lane thread committing a large job can; on PostgreSQL it holds the deliveries table, and
 * the claim waits. The delivery still goes out once, and no error is logged.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Scheduler, type OccurrenceLedger } from "../src/scheduled/scheduler.ts";
import { call } from "./_api.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import { startTestService, type TestService } from "./_setup.ts";
import { publishEvent } from "../src/webhooks/outbox.ts";

const logged: Array<Record<string, unknown>> = [];
let api: TestService;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  api = await startTestService(
    { WEBHOOK_POLL_MS: "50", WEBHOOK_LEASE_MS: "30000", WEBHOOK_TIMEOUT_MS: "5000", WEBHOOK_PRIVATE_TARGETS: "loopback", LOG_LEVEL: "debug" },
    false,
    (entry) => logged.push(entry),
  );
}, 60_000);
afterAll(async () => {
  await api?.close();
  await receiver?.close();
});

/** Holds the store's write lock (SQLite) or the deliveries table (PostgreSQL) from another connection; the returned function lets go. */
async function holdTheLock(): Promise<() => Promise<void>> {
  const url = api.config.databaseUrl;
  if (url.startsWith("sqlite:")) {
    const other = new Database(url.slice("sqlite:".length));
    other.exec("BEGIN IMMEDIATE");
    return async () => {
      other.exec("COMMIT");
      other.close();
    };
  }
  const schema = new URL(url).searchParams.get("schema");
  const other = new pg.Client({ connectionString: url.replace(/[?&]schema=[^&]*/, "") });
  await other.connect();
  await other.query("BEGIN");
  await other.query(`LOCK TABLE "${schema}".deliveries IN EXCLUSIVE MODE`);
  return async () => {
    await other.query("COMMIT");
    await other.end();
  };
}

describe("the webhook outbox gives way to another writer and tries again", () => {
  it("a delivery published while another connection holds the lock past busy_timeout goes out once the lock is let go, with no error logged", async () => {
    const { body } = await call(api, "POST", "/api/v1/webhooks", { key: api.testKey, body: { url: `${receiver.url}/hooks`, events: ["filing.due"] } });
    const webhookId = body.webhook.id as string;
    await api.service.store.db.transaction().execute((trx) =>
      publishEvent(
        trx,
        {
          type: "filing.due",
          data: {
            filing_frequency: "monthly",
            period: "2026-11",
            period_start: "2026-11-01",
            period_end: "2026-11-30",
            due_date: "2026-12-23",
            days_until: 7,
            worksheet: { api_path: "/api/v1/returns/2026-11", dashboard_path: "/dashboard/returns/2026-11" },
          },
          organizationId: api.orgId,
          webhookId,
        },
        new Date(),
      ),
    );
    const loggedBefore = logged.length;
    const letGo = await holdTheLock();
    api.service.background.actor.start();
    // Longer than busy_timeout, so a claim made meanwhile fails with `database is locked` on SQLite.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    await letGo();
    await receiver.waitFor((received) => received.length >= 1, 30_000);
    const errors = logged.slice(loggedBefore).filter((entry) => entry.level === "error");
    expect(errors).toEqual([]);
    expect(receiver.received).toHaveLength(1);
    // On SQLite the claims made meanwhile did lose to the lock: they gave way, and said so only at debug level.
    if (api.config.databaseUrl.startsWith("sqlite:")) {
      expect(logged.slice(loggedBefore).some((entry) => entry.level === "debug" && String(entry.msg).startsWith("claiming deliveries gave way"))).toBe(true);
    }
  }, 60_000);
});

describe("the scheduler gives way to another writer and tries again: a lost race for the lock skips no occurrence", () => {
  it("an occurrence whose take, run and record each first lose to another writer (`database is locked`) runs once, with no error logged", async () => {
    const at = new Date("2027-01-01T05:00:00Z");
    // A test double of the store's answers, not of the scheduler: each call fails the way SQLite does under another writer's lock, once or twice, then succeeds.
    const locked = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    const failing = (times: number) => {
      let left = times;
      return () => {
        if (left-- > 0) throw locked();
      };
    };
    const takeFails = failing(2);
    const finishFails = failing(1);
    const runFails = failing(1);
    const ledger: OccurrenceLedger<"tick"> = {
      take: async () => {
        takeFails();
        return true;
      },
      finish: async () => finishFails(),
    };
    let runs = 0;
    const lines: Array<Record<string, unknown>> = [];
    const scheduler = new Scheduler({
      jobs: {
        tick: async () => {
          runs++;
          runFails();
          return "done";
        },
      },
      schedules: { tick: "0 * * * *" },
      clock: { now: () => at },
      log: (entry) => lines.push(entry),
      ledger,
    });
    const ran = await scheduler.advanceTo(new Date(at.getTime() + 3_600_000));
    expect(ran).toEqual([{ job: "tick", at: new Date("2027-01-01T06:00:00.000Z"), result: "done" }]);
    expect(runs).toBe(2);
    expect(lines.filter((line) => line.level === "error")).toEqual([]);
  });
});
