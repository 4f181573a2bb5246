/**
 * Synthetic data never passes for the state's: a SYNTHETIC boundary file (src/boundaries/synthetic-file.ts)
 * imports only with an explicit flag, keeps its label in its version, and leaves the name of the
 * state's file of that quarter free. Against a real database (SQLite, or PostgreSQL under
 * TEST_DATABASE_URL); the answers' notes are in test/boundary-lookups.test.ts.
 */
import { execFile } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { boundaryStatus } from "../src/boundaries/versions.ts";
import { boundaryWorkspace, type BoundaryWorkspace } from "./_boundary-files.ts";

const run = promisify(execFile);
const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;
const RECORDS = 3000;

let ws: BoundaryWorkspace;
let synthetic: string;

beforeAll(async () => {
  ws = await boundaryWorkspace();
  synthetic = await ws.write("OHB2026Q4SEP17-synthetic.csv", RECORDS);
});

afterAll(async () => {
  await ws?.close();
});

describe("importing a synthetic file needs the explicit flag", () => {
  it("refused without it, by its name, and nothing changes", async () => {
    const result = await importBoundaryFile({ store: ws.store, source: synthetic });
    expect(result).toMatchObject({ status: "refused", error: expect.stringContaining("SYNTHETIC boundary file") });
    expect(result.error).toContain("--synthetic");
    expect((await boundaryStatus(ws.store.db)).active).toBeNull();
  });

  it("refused without it when renamed as the state's file would be: its records carry the mark", async () => {
    const renamed = join(ws.dir, "OHB2026Q4SEP17.csv");
    copyFileSync(synthetic, renamed);
    expect(await importBoundaryFile({ store: ws.store, source: renamed })).toMatchObject({ status: "refused", line: 1, error: expect.stringContaining("--synthetic") });
    expect((await boundaryStatus(ws.store.db)).active).toBeNull();
  });

  it("the CLI refuses it without --synthetic, exit status 1", { timeout: 60_000 }, async () => {
    const env = { ...process.env, DATABASE_URL: ws.databaseUrl, LOG_LEVEL: "silent" };
    const failure = await run(process.execPath, [BIN, "boundaries", "import", synthetic, "--json"], { env }).then(
      () => null,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(JSON.parse(failure!.stdout)).toMatchObject({ status: "refused", error: expect.stringContaining("--synthetic") });
  });
});

describe("a synthetic file keeps its label in its version, and the state's file of that quarter still imports", () => {
  it("imported with the flag as OHB…-SYNTHETIC, shown as synthetic by status; the state's file then imports under its own name", async () => {
    expect(await importBoundaryFile({ store: ws.store, source: synthetic, synthetic: true })).toMatchObject({ status: "imported", version: "OHB2026Q4SEP17-SYNTHETIC" });
    expect((await boundaryStatus(ws.store.db)).active).toMatchObject({ version: "OHB2026Q4SEP17-SYNTHETIC", synthetic: true });

    const state = await ws.writeStandIn("OHB2026Q4SEP17.csv", RECORDS);
    expect(readFileSync(state, "utf8")).not.toContain("SYNTHETIC");
    expect(await importBoundaryFile({ store: ws.store, source: state })).toMatchObject({ status: "imported", version: "OHB2026Q4SEP17", previous_version: "OHB2026Q4SEP17-SYNTHETIC" });
    const status = await boundaryStatus(ws.store.db);
    expect(status.active).toMatchObject({ version: "OHB2026Q4SEP17", synthetic: false });
    expect(status.previous).toMatchObject({ version: "OHB2026Q4SEP17-SYNTHETIC", synthetic: true });
  });
});

describe("the guide's trial commands use a throwaway database", () => {
  it("every boundaries import of a synthetic file in docs/guides/boundary-file.md names its own DATABASE_URL", () => {
    const guide = readFileSync(new URL("../docs/guides/boundary-file.md", import.meta.url), "utf8");
    const trials = guide.split("\n").filter((line) => /boundaries import .*synthetic/i.test(line));
    expect(trials.length).toBeGreaterThan(0);
    for (const line of trials) expect(line).toMatch(/DATABASE_URL=sqlite:\S*trial\S*\.sqlite .*--synthetic/);
  });
});
