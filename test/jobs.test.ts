/**
 * Scheduled jobs on croner in America/New_York, driven by an injected clock: the tests move the
 * clock and let the scheduler run what croner says is due; nothing sleeps.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { setFilingFrequency } from "../src/store/organizations.repository.ts";
import { call } from "./_api.ts";
import { startTestService, testConfig, type TestService } from "./_setup.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FUTURE_CHANGE = fileURLToPath(new URL("fixtures/sst/OHR2027Q1NOV30.csv", import.meta.url));

async function events(api: TestService, type?: string) {
  const rows = await api.service.store.db
    .selectFrom("events")
    .selectAll()
    .$if(type !== undefined, (q) => q.where("type", "=", type!))
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ type: row.type, organization_id: row.organization_id, ...(JSON.parse(row.payload) as { created_at: string; data: any }) }));
}

describe("schedules run in America/New_York", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("rate-changes runs shortly after midnight in Ohio, in winter (UTC−5) and summer (UTC−4)", () => {
    const next = (from: string) => api.service.background.scheduler.nextRuns(new Date(from)).find((r) => r.job === "rate-changes")!.next!.toISOString();
    expect(next("2026-12-31T12:00:00Z")).toBe("2027-01-01T05:05:00.000Z");
    expect(next("2027-06-30T12:00:00Z")).toBe("2027-07-01T04:05:00.000Z");
  });

  it("each schedule is configurable, or off", () => {
    const config = loadConfig({ SCHEDULE_RECONCILE: "0 6 * * 1", SCHEDULE_FILING_REMINDERS: "off" });
    expect(config.jobs.schedules).toEqual({ reconcile: "0 6 * * 1", "rate-changes": "5 0 * * *", "filing-reminders": null, "certificate-expiry": "15 8 * * *", retention: "30 3 * * *" });
    expect(() => loadConfig({ SCHEDULE_RATE_CHANGES: "every day" })).toThrow(/SCHEDULE_RATE_CHANGES: not a cron pattern/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: "5s,soon" })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: "10000", WEBHOOK_LEASE_MS: "5000" })).toThrow(/WEBHOOK_LEASE_MS/);
  });
});

describe("seven weeks on an injected clock: every job at its scheduled times", () => {
  let api: TestService;
  let clock = new Date("2026-11-30T12:00:00Z");
  beforeAll(async () => {
    api = await startTestService({ RECONCILE_SOURCE: FUTURE_CHANGE });
    api.clock.set(() => clock);
    await call(api, "POST", "/api/v1/certificates", {
      body: { customer_id: "cust_1", customer_name: "Marietta Marine", exempt_reason: "resale", expires_on: "2027-01-15" },
    });
  });
  afterAll(() => api.close());

  it("reconcile → rate.announced; rate-changes → rate.changed at 00:05; filing.due 7 and 1 days ahead; certificate.expiring at 30 and 7 days", async () => {
    const { scheduler } = api.service.background;
    scheduler.setCursor(clock);
    clock = new Date("2027-01-20T00:00:00Z");
    const ran = await scheduler.advanceTo(clock);
    expect(ran.filter((r) => r.job === "rate-changes")).toHaveLength(50);
    expect(ran.every((r, i) => i === 0 || r.at >= ran[i - 1]!.at)).toBe(true);

    const sent = (await events(api)).map((e) => [e.type, e.created_at, e.data.days_until]);
    expect(sent).toEqual([
      ["rate.announced", "2026-12-01T10:30:00.000Z", 31],
      ["certificate.expiring", "2026-12-16T13:15:00.000Z", 30],
      ["filing.due", "2026-12-16T13:00:00.000Z", 7],
      ["filing.due", "2026-12-22T13:00:00.000Z", 1],
      ["rate.changed", "2027-01-01T05:05:00.000Z", 0],
      ["certificate.expiring", "2027-01-08T13:15:00.000Z", 7],
      ["filing.due", "2027-01-16T13:00:00.000Z", 7],
    ].sort((a, b) => String(a[1]).localeCompare(String(b[1]))));
    expect((await events(api, "rate.changed"))[0]!.data).toMatchObject({ county: "Wayne", old_rate: 0.065, new_rate: 0.07, effective_date: "2027-01-01", lead_days: 32 });
    expect((await events(api, "filing.due")).map((e) => e.data.due_date)).toEqual(["2026-12-23", "2026-12-23", "2027-01-23"]);
    // Each names its period and where its worksheet is, which answers with the key's ledger.
    const [november] = await events(api, "filing.due");
    expect([november!.data.period, november!.data.worksheet]).toEqual(["2026-11", { api_path: "/api/v1/returns/2026-11", dashboard_path: "/dashboard/returns/2026-11" }]);
    const worksheet = await call(api, "GET", november!.data.worksheet.api_path);
    expect([worksheet.res.status, worksheet.body.period, worksheet.body.due_date]).toEqual([200, "2026-11", november!.data.due_date]);
  });

  it("running a job again for the same day sends nothing twice", async () => {
    const { scheduler } = api.service.background;
    const before = (await events(api)).length;
    expect(await scheduler.run("rate-changes", new Date("2027-01-01T09:00:00Z"))).toEqual({ date: "2027-01-01", events: 0 });
    expect(await scheduler.run("filing-reminders", new Date("2027-01-16T20:00:00Z"))).toEqual({ date: "2027-01-16", events: 0 });
    expect(await scheduler.run("certificate-expiry", new Date("2027-01-09T13:15:00Z"))).toEqual({ date: "2027-01-09", events: 0 });
    expect((await events(api)).length).toBe(before);
  });
});

describe("filing.due (Ohio returns are due on the 23rd of the month after the period)", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("semiannual filers: January–June is due July 23, July–December January 23; other months send nothing", async () => {
    await setFilingFrequency(api.service.store.db, api.orgId, "semiannual");
    const { scheduler } = api.service.background;
    expect(await scheduler.run("filing-reminders", new Date("2027-02-16T13:00:00Z"))).toMatchObject({ events: 0 });
    expect(await scheduler.run("filing-reminders", new Date("2027-01-22T13:00:00Z"))).toMatchObject({ events: 1 });
    expect(await scheduler.run("filing-reminders", new Date("2027-07-16T13:00:00Z"))).toMatchObject({ events: 1 });
    expect((await events(api, "filing.due")).map((e) => [e.organization_id, e.data])).toEqual([
      [api.orgId, { filing_frequency: "semiannual", period: "2026-H2", period_start: "2026-07-01", period_end: "2026-12-31", due_date: "2027-01-23", days_until: 1, worksheet: { api_path: "/api/v1/returns/2026-H2", dashboard_path: "/dashboard/returns/2026-H2" } }],
      [api.orgId, { filing_frequency: "semiannual", period: "2027-H1", period_start: "2027-01-01", period_end: "2027-06-30", due_date: "2027-07-23", days_until: 7, worksheet: { api_path: "/api/v1/returns/2027-H1", dashboard_path: "/dashboard/returns/2027-H1" } }],
    ]);
  });
});

describe("certificate.expiring at 30 and 7 days before expiry, once each", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api.close());

  it("a reminder missed on its day is sent on the next run inside its window, with the days really left", async () => {
    await call(api, "POST", "/api/v1/certificates", {
      body: { customer_id: "cust_9", customer_name: "Lima Lumber", exempt_reason: "manufacturing", expires_on: "2027-03-31" },
    });
    const { scheduler } = api.service.background;
    expect(await scheduler.run("certificate-expiry", new Date("2027-02-28T13:15:00Z"))).toMatchObject({ date: "2027-02-28", events: 0 });
    expect(await scheduler.run("certificate-expiry", new Date("2027-03-04T13:15:00Z"))).toMatchObject({ events: 1 });
    expect(await scheduler.run("certificate-expiry", new Date("2027-03-05T13:15:00Z"))).toMatchObject({ events: 0 });
    expect(await scheduler.run("certificate-expiry", new Date("2027-03-25T13:15:00Z"))).toMatchObject({ events: 1 });
    expect(await scheduler.run("certificate-expiry", new Date("2027-03-31T13:15:00Z"))).toMatchObject({ events: 0 });
    expect((await events(api, "certificate.expiring")).map((e) => e.data.days_until)).toEqual([27, 6]);
  });

  it("a deleted certificate is not reminded of", async () => {
    const created = (await call(api, "POST", "/api/v1/certificates", {
      body: { customer_id: "cust_10", customer_name: "Kent Kilns", exempt_reason: "resale", expires_on: "2027-05-31" },
    })).body.certificate;
    await call(api, "DELETE", `/api/v1/certificates/${created.id}`);
    expect(await api.service.background.scheduler.run("certificate-expiry", new Date("2027-05-24T13:15:00Z"))).toMatchObject({ events: 0 });
  });
});

describe("buckeye jobs run NAME", () => {
  const env = (dir: string) => ({ ...process.env, DATABASE_URL: `sqlite:${dir}/buckeye.sqlite`, LOG_LEVEL: "silent" });

  it("runs one job as of --at and prints its result; an unknown job exits 1", async () => {
    const { config, cleanup } = testConfig();
    try {
      const dir = config.databaseUrl.slice("sqlite:".length).replace(/\/buckeye\.sqlite$/, "");
      const run = spawnSync(process.execPath, ["bin/buckeye.js", "jobs", "run", "rate-changes", "--at", "2027-01-01T00:05:00-05:00", "--json"], { cwd: ROOT, env: env(dir), encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ job: "rate-changes", at: "2027-01-01T05:05:00.000Z", result: { date: "2027-01-01", events: 0 } });

      const reconcile = spawnSync(process.execPath, ["bin/buckeye.js", "reconcile", "--source", FUTURE_CHANGE, "--at", "2026-12-01T05:30:00-05:00", "--json"], { cwd: ROOT, env: env(dir), encoding: "utf8" });
      expect(reconcile.status, reconcile.stderr).toBe(0);
      expect(JSON.parse(reconcile.stdout).result).toMatchObject({ status: "succeeded", periodsRecorded: 1, eventsEmitted: 1 });

      const unknown = spawnSync(process.execPath, ["bin/buckeye.js", "jobs", "run", "payroll"], { cwd: ROOT, env: env(dir), encoding: "utf8" });
      expect(unknown.status).toBe(1);
      expect(unknown.stdout).toMatch(/no job named payroll; jobs: reconcile, rate-changes, filing-reminders, certificate-expiry/);
    } finally {
      await cleanup();
    }
  });
});
