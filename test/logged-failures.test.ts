/**
 * Failures the service carries on through are logged once, with their cause: a rate-table refresh
 * that cannot read the database (the table already read keeps answering) and a scheduled
 * occurrence whose end cannot be recorded. Each test reads the JSON lines a real logger writes.
 */
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/config.ts";
import { RateData } from "../src/freshness/rate-data.ts";
import { Scheduler, type OccurrenceLedger } from "../src/scheduled/scheduler.ts";
import { loadShippedData } from "../src/load-data.ts";
import { jsonLogger } from "../src/log.ts";
import { freshStore } from "./_store.ts";

/** A logger at `info` writing to a stream, and the entries written to it so far (each read once). */
function loggedLines() {
  const out = new PassThrough();
  return {
    log: jsonLogger("info", out),
    read: (): Array<Record<string, unknown>> =>
      String(out.read() ?? "")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe("a rate-table refresh that fails is logged with its cause, and the table already read is served", () => {
  let store: Awaited<ReturnType<typeof freshStore>>;
  beforeAll(async () => {
    store = await freshStore();
  });
  afterAll(() => store?.close());

  it("one warning per failed check, naming the database's error", async () => {
    const shipped = loadShippedData(join(REPO_ROOT, "data"));
    const { log, read } = loggedLines();
    let now = 0;
    const rates = new RateData({ db: store.store.db, shipped: shipped.table, shippedFreshness: shipped.meta, log, clock: { now: () => new Date(now) }, recheckMs: 1000 });
    const before = await rates.recheck();
    expect(read()).toEqual([]);

    await sql`ALTER TABLE reconciliations RENAME TO reconciliations_away`.execute(store.store.db);
    try {
      now += 1000;
      expect(await rates.recheck()).toEqual(before);
      // Within recheckMs of the failed check nothing is read again, so nothing more is logged.
      expect(await rates.recheck()).toEqual(before);
      const lines = read();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: "warn", msg: "could not refresh the rate table: serving the one already read" });
      expect(lines[0]!.error).toMatch(/reconciliations/);
    } finally {
      await sql`ALTER TABLE reconciliations_away RENAME TO reconciliations`.execute(store.store.db);
    }
  });
});

describe("a scheduled occurrence whose end cannot be recorded is logged with its cause", () => {
  const at = new Date("2027-01-01T05:00:00Z");
  const refused = () => new Error("could not write job_runs", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }) });
  const ledger: OccurrenceLedger<"tick"> = {
    take: async () => true,
    finish: async () => {
      throw refused();
    },
  };
  const scheduled = (job: () => Promise<unknown>) => {
    const { log, read } = loggedLines();
    const scheduler = new Scheduler({ jobs: { tick: job }, schedules: { tick: "0 * * * *" }, clock: { now: () => at }, log, ledger });
    return { scheduler, read };
  };
  const unrecorded = { level: "error", msg: "could not record the end of a job occurrence", job: "tick", error: "could not write job_runs: connect ECONNREFUSED 127.0.0.1:5432", code: "ECONNREFUSED" };

  it("after a run that succeeded: logged, and the failure is what advanceTo throws", async () => {
    const { scheduler, read } = scheduled(async () => "done");
    await expect(scheduler.advanceTo(new Date(at.getTime() + 3_600_000))).rejects.toThrow("could not write job_runs");
    const lines = read();
    expect(lines.filter((line) => line.msg === "job finished")).toHaveLength(1);
    // The success could not be recorded, nor then the failure to record it: each is one line.
    expect(lines.filter((line) => line.msg === unrecorded.msg)).toEqual([expect.objectContaining(unrecorded), expect.objectContaining(unrecorded)]);
  });

  it("after a run that failed: logged once beside the job's own error, which is the one thrown", async () => {
    const { scheduler, read } = scheduled(async () => {
      throw new Error("rate file unreadable");
    });
    await expect(scheduler.advanceTo(new Date(at.getTime() + 3_600_000))).rejects.toThrow("rate file unreadable");
    const lines = read();
    expect(lines.filter((line) => line.msg === "job failed")).toEqual([expect.objectContaining({ level: "error", error: "rate file unreadable" })]);
    expect(lines.filter((line) => line.msg === unrecorded.msg)).toEqual([expect.objectContaining({ ...unrecorded, scheduled_for: "2027-01-01T06:00:00.000Z" })]);
  });
});
