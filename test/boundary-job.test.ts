/**
 * The scheduled boundary import (job "boundary-import"): on only with BOUNDARY_SOURCE; from a
 * folder it imports the newest OHB… file once, and never re-imports a version an operator rolled
 * back from, and never imports a SYNTHETIC file. Runs through a real service's scheduler on a fresh
 * database; the files are synthetic, with their mark taken out where they stand in for the state's.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { versionOrder } from "../src/boundaries/boundary-job.ts";
import { boundaryStatus, rollbackBoundaries } from "../src/boundaries/versions.ts";
import { startTestService, type TestService } from "./_setup.ts";
import { boundaryWorkspace, type BoundaryWorkspace } from "./_boundary-files.ts";

let ws: BoundaryWorkspace;
let api: TestService;
let off: TestService;
let folder: string;

beforeAll(async () => {
  ws = await boundaryWorkspace();
  folder = join(ws.dir, "drop");
  mkdirSync(folder);
  api = await startTestService({ BOUNDARY_SOURCE: folder, SCHEDULE_BOUNDARY_IMPORT: "0 6 * * *" });
  off = await startTestService();
});

afterAll(async () => {
  await api?.close();
  await off?.close();
  await ws?.close();
});

describe("versions sort by year and quarter, then by posting date", () => {
  it("2026 Q1 posted in Nov 2025 sorts before 2026 Q1 posted in Dec 2025, and before 2026 Q2", () => {
    const sorted = ["OHB2026Q2FEB27", "OHB2026Q1DEC5", "OHB2025Q4SEP17", "OHB2026Q1NOV28"].sort((a, b) => versionOrder(a).localeCompare(versionOrder(b)));
    expect(sorted).toEqual(["OHB2025Q4SEP17", "OHB2026Q1NOV28", "OHB2026Q1DEC5", "OHB2026Q2FEB27"]);
  });
});

describe("the boundary-import job runs only when BOUNDARY_SOURCE is set", () => {
  it("scheduled with a source, off without one (and then a run by hand is skipped)", async () => {
    const next = (service: TestService) => service.service.background.scheduler.nextRuns(new Date("2026-12-01T12:00:00Z")).find((r) => r.job === "boundary-import");
    expect(next(api)?.next?.toISOString()).toBe("2026-12-02T11:00:00.000Z");
    expect(next(off)).toBeUndefined();
    expect(await off.service.background.scheduler.run("boundary-import")).toEqual({ status: "skipped", reason: "BOUNDARY_SOURCE is not set" });
  });
});

describe("from a folder, the job imports the newest file once and respects a rollback", () => {
  it("imports the newest, skips it next time, takes a newer one, and does not undo a rollback", async () => {
    const { scheduler } = api.service.background;
    const db = api.service.store.db;
    expect(await scheduler.run("boundary-import")).toMatchObject({ status: "skipped", reason: expect.stringContaining("no boundary file") });

    await ws.writeStandIn("drop/OHB2026Q1NOV28.csv", 3000);
    await ws.writeStandIn("drop/OHB2026Q2FEB27.csv", 3000);
    expect(await scheduler.run("boundary-import")).toMatchObject({ status: "imported", version: "OHB2026Q2FEB27", records: 3000 });
    expect(await scheduler.run("boundary-import")).toEqual({ status: "skipped", reason: "OHB2026Q2FEB27 is already imported" });

    await ws.writeStandIn("drop/OHB2026Q3JUN1.csv", 3100);
    expect(await scheduler.run("boundary-import")).toMatchObject({ status: "imported", version: "OHB2026Q3JUN1", previous_version: "OHB2026Q2FEB27" });

    await rollbackBoundaries(db);
    expect(await scheduler.run("boundary-import")).toEqual({ status: "skipped", reason: "OHB2026Q3JUN1 is already imported" });
    expect((await boundaryStatus(db)).active?.version).toBe("OHB2026Q2FEB27");
  });
});

describe("the job never imports a synthetic file", () => {
  it("a synthetic file dropped in the folder is refused and the active version stays", async () => {
    const { scheduler } = api.service.background;
    const before = (await boundaryStatus(api.service.store.db)).active?.version;
    await ws.write("drop/OHB2026Q4SEP17-synthetic.csv", 3200);
    expect(await scheduler.run("boundary-import")).toMatchObject({ status: "refused", error: expect.stringContaining("SYNTHETIC") });
    expect((await boundaryStatus(api.service.store.db)).active?.version).toBe(before);
  });
});
