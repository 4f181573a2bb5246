/**
 * Scheduled jobs across instances: every instance runs the same croner schedules, and
 * each scheduled occurrence runs on exactly one of them, the one whose job_runs row went in first.
 * Two services share one database here (one SQLite file, or one PostgreSQL schema); the clock is
 * driven with advanceTo, never by sleeping. test/multi-instance.test.ts shows the same with two
 * processes and real timers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService, type Service } from "../src/service.ts";
import { listJobRuns } from "../src/store/job-runs.repository.ts";
import { testConfig } from "./_setup.ts";

let a: Service;
let b: Service;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const test = testConfig();
  cleanup = test.cleanup;
  a = await createService(test.config);
  b = await createService(test.config);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await cleanup?.();
});

describe("scheduled jobs: once per schedule across instances", () => {
  it("two instances advancing over the same three days run every occurrence once in total, never on both", async () => {
    const to = new Date(Date.now() + 3 * 86_400_000);
    const [ranA, ranB] = await Promise.all([a.background.scheduler.advanceTo(to), b.background.scheduler.advanceTo(to)]);
    const ran = [...ranA, ...ranB].map((r) => `${r.job} ${r.at.toISOString()}`);

    // Five daily jobs over three days.
    expect(ran).toHaveLength(15);
    expect(new Set(ran).size).toBe(15);
    const runs = await listJobRuns(a.store.db);
    expect(runs.map((r) => `${r.name} ${r.scheduled_for}`).sort()).toEqual([...ran].sort());
    expect(runs.every((r) => r.status === "succeeded" && r.finished_at !== null)).toBe(true);
    expect(new Set(runs.map((r) => r.instance))).toSatisfy((instances: Set<string>) =>
      [...instances].every((i) => i === a.background.actor.instance || i === b.background.actor.instance),
    );
  });

  it("an occurrence taken by one instance is skipped by the other when its timer reaches it later", async () => {
    const from = new Date(Date.now() + 3 * 86_400_000);
    const to = new Date(from.getTime() + 86_400_000);
    const ranA = await a.background.scheduler.advanceTo(to);
    const ranB = await b.background.scheduler.advanceTo(to);
    expect(ranA).toHaveLength(5);
    expect(ranB).toEqual([]);
  });

  it("a job run by hand (`buckeye jobs run NAME`) is not a scheduled occurrence and always runs", async () => {
    const before = (await listJobRuns(a.store.db)).length;
    await a.background.scheduler.run("filing-reminders");
    await b.background.scheduler.run("filing-reminders");
    expect(await listJobRuns(a.store.db)).toHaveLength(before);
  });
});
