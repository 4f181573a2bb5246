/**
 * `buckeye boundaries import|status|rollback` and importBoundaryFile against a real database (a
 * SQLite file, or a PostgreSQL schema under TEST_DATABASE_URL), with SYNTHETIC files generated
 * from data/. Refused files must change nothing: the same active version, the same rows.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { strToU8, zipSync } from "fflate";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBoundaryFile, MIN_SHARE_OF_ACTIVE, versionFromName } from "../src/boundaries/import-file.ts";
import { boundaryStatus, rollbackBoundaries } from "../src/boundaries/versions.ts";
import { activeBoundaryFile } from "../src/freshness/boundary-file.ts";
import { boundaryWorkspace, linedRecords, type BoundaryWorkspace } from "./_boundary-files.ts";

const run = promisify(execFile);
const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;
const RECORDS = 4000;

let ws: BoundaryWorkspace;
let first: string;

/** What the database holds: the pointer, every version row and how many records each version has. */
async function snapshot() {
  const { db } = ws.store;
  const status = await boundaryStatus(db);
  const versions = await db.selectFrom("boundary_versions").select(["version", "status", "records"]).orderBy("version").execute();
  const rows = await db.selectFrom("boundary_records").select(["version", (eb) => eb.fn.countAll<number>().as("n")]).groupBy("version").orderBy("version").execute();
  return { status, versions: versions.map((v) => ({ ...v, records: Number(v.records) })), rows: rows.map((r) => ({ version: r.version, n: Number(r.n) })) };
}

function counts(records: number) {
  const all = linedRecords(records);
  return {
    records: all.length,
    address_ranges: all.filter((r) => r.recordType === "A").length,
    zip4_ranges: all.filter((r) => r.recordType === "4").length,
    zip5_ranges: all.filter((r) => r.recordType === "Z").length,
  };
}

beforeAll(async () => {
  ws = await boundaryWorkspace();
  first = await ws.write("OHB2026Q3JUN1-synthetic.csv", RECORDS);
});

afterAll(async () => {
  await ws?.close();
});

describe("the version comes from the file name", () => {
  it.each([
    ["OHB2026Q4SEP17.zip", "OHB2026Q4SEP17"],
    ["ohb2026q1nov28.csv", "OHB2026Q1NOV28"],
    ["OHB2026Q3JUN1-synthetic.csv", "OHB2026Q3JUN1"],
    ["OHR2026Q1NOV28.csv", null],
    ["KYB2026Q1NOV28.csv", null],
    ["boundaries.csv", null],
  ])("%s → %s", (name, version) => {
    expect(versionFromName(name)).toBe(version);
  });
});

describe("importing a file writes every record under its version and makes it active", () => {
  it("counts each record type, and status says which version is active and when it was imported", async () => {
    const before = Date.now();
    const result = await importBoundaryFile({ store: ws.store, source: first, synthetic: true });
    expect(result).toMatchObject({ version: "OHB2026Q3JUN1-SYNTHETIC", status: "imported", previous_version: null, error: null, ...counts(RECORDS) });
    const { status, versions, rows } = await snapshot();
    expect(status.active).toMatchObject({ version: "OHB2026Q3JUN1-SYNTHETIC", ...counts(RECORDS) });
    expect(Date.parse(status.active!.imported_at!)).toBeGreaterThanOrEqual(before - 1000);
    expect(status.previous).toBeNull();
    expect(versions).toEqual([{ version: "OHB2026Q3JUN1-SYNTHETIC", status: "ready", records: RECORDS }]);
    expect(rows).toEqual([{ version: "OHB2026Q3JUN1-SYNTHETIC", n: RECORDS }]);
    // `buckeye data status` and the dashboard read the same version through the freshness seam.
    expect(await activeBoundaryFile(ws.store.db)).toEqual({ version: "OHB2026Q3JUN1-SYNTHETIC", imported_at: status.active!.imported_at });
  });

  it("importing the active version again changes nothing", async () => {
    const before = await snapshot();
    const result = await importBoundaryFile({ store: ws.store, source: first, synthetic: true });
    expect(result).toMatchObject({ version: "OHB2026Q3JUN1-SYNTHETIC", status: "unchanged", records: RECORDS });
    expect(await snapshot()).toEqual(before);
  });
});

describe("after an import the database plans probes of the new version from what it holds", () => {
  // PostgreSQL plans from statistics a bulk load leaves stale: taking a new version for a row or two, it
  // hashed the whole version for every batch of probes (src/store/boundaries.repository.ts, refreshPlannerStatistics).
  it("PostgreSQL estimates the version's address ranges within a factor of two; SQLite, which keeps no statistics, probes through boundary_records_address", async () => {
    const { db, sqlite } = ws.store;
    const version = "OHB2026Q3JUN1-SYNTHETIC";
    const ranges = await db.selectFrom("boundary_records").select(["zip5", "street", "house_low"]).where("version", "=", version).where("record_type", "=", "A").execute();
    expect(ranges.length).toBe(counts(RECORDS).address_ranges);
    if (sqlite) {
      const [range] = ranges;
      const plan = sqlite
        .prepare<unknown[], { detail: string }>(
          "EXPLAIN QUERY PLAN SELECT line FROM boundary_records r WHERE r.version = ? AND r.record_type = 'A' AND r.zip5 = ? AND r.street = ? AND r.house_low <= ? AND r.house_high >= ?",
        )
        .all(version, range!.zip5, range!.street, range!.house_low, range!.house_low);
      expect(plan.map((row) => row.detail).join("\n")).toContain("boundary_records_address");
    } else {
      const { rows } = await sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT line FROM boundary_records WHERE version = ${version} AND record_type = 'A'`.execute(db);
      const estimate = Number(/rows=(\d+)/.exec(rows[0]!["QUERY PLAN"])![1]);
      expect(estimate).toBeGreaterThan(ranges.length / 2);
      expect(estimate).toBeLessThan(ranges.length * 2);
    }
  });
});

describe("a malformed or cut-short file is refused with its line number, and nothing changes", () => {
  it("a row with an unknown county on line 1500 refuses the whole file", async () => {
    const lines = readFileSync(first, "utf8").split("\r\n");
    const fields = lines[1499]!.split(",");
    fields[24] = "200";
    lines[1499] = fields.join(",");
    const path = join(ws.dir, "OHB2026Q4SEP17-synthetic.csv");
    writeFileSync(path, lines.join("\r\n"));
    const before = await snapshot();
    const result = await importBoundaryFile({ store: ws.store, source: path, synthetic: true });
    expect(result).toMatchObject({ version: "OHB2026Q4SEP17-SYNTHETIC", status: "refused", line: 1500 });
    expect(result.error).toContain('line 1500: county FIPS "200"');
    expect(await snapshot()).toEqual(before);
  });

  it("a file cut in the middle of a row is refused at that row", async () => {
    const text = readFileSync(first, "utf8");
    const cut = text.slice(0, text.indexOf("\r\n", Math.floor(text.length / 2)) + 40);
    const path = join(ws.dir, "OHB2026Q4SEP17-synthetic.csv");
    writeFileSync(path, cut);
    const fullLines = cut.split("\r\n").length - 1;
    const before = await snapshot();
    const result = await importBoundaryFile({ store: ws.store, source: path, synthetic: true });
    expect(result).toMatchObject({ status: "refused", line: fullLines + 1 });
    expect(result.error).toMatch(new RegExp(`^line ${fullLines + 1}: \\d+ columns, expected 89 .*; the last row ends without a line break: the file was probably cut short$`));
    expect(await snapshot()).toEqual(before);
  });

  it("a ZIP archive cut short is refused", async () => {
    const zip = zipSync({ "OHB2026Q4SEP17.csv": readFileSync(first) });
    const path = join(ws.dir, "OHB2026Q4SEP17.zip");
    writeFileSync(path, zip.subarray(0, Math.floor(zip.length * 0.6)));
    const before = await snapshot();
    const result = await importBoundaryFile({ store: ws.store, source: path, synthetic: true });
    expect(result.status).toBe("refused");
    expect(result.error).toMatch(/ZIP archive|cut short/);
    expect(await snapshot()).toEqual(before);
  });

  it("a ZIP archive holding two CSV files is refused", async () => {
    const path = join(ws.dir, "OHB2026Q4SEP17.zip");
    writeFileSync(path, zipSync({ "a.csv": readFileSync(first), "b.csv": strToU8("x\r\n") }));
    const before = await snapshot();
    const result = await importBoundaryFile({ store: ws.store, source: path, synthetic: true });
    expect(result).toMatchObject({ status: "refused" });
    expect(result.error).toContain("more than one CSV file");
    expect(await snapshot()).toEqual(before);
  });

  it("a file whose name carries no version is refused before it is read", async () => {
    const path = join(ws.dir, "boundaries.csv");
    writeFileSync(path, readFileSync(first));
    const before = await snapshot();
    expect(await importBoundaryFile({ store: ws.store, source: path, synthetic: true })).toMatchObject({ status: "refused", version: null });
    expect(await snapshot()).toEqual(before);
  });
});

describe(`a file with fewer than ${MIN_SHARE_OF_ACTIVE * 100} % of the active version's records is refused unless forced`, () => {
  it("refused without --force, nothing changed; imported with it", async () => {
    const small = await ws.write("OHB2026Q4SEP17-synthetic.csv", Math.floor(RECORDS * MIN_SHARE_OF_ACTIVE) - 1);
    const before = await snapshot();
    const refused = await importBoundaryFile({ store: ws.store, source: small, synthetic: true });
    expect(refused.status).toBe("refused");
    expect(refused.error).toContain("fewer than 90 % of the active version OHB2026Q3JUN1-SYNTHETIC's 4000");
    expect(await snapshot()).toEqual(before);

    const forced = await importBoundaryFile({ store: ws.store, source: small, force: true, synthetic: true });
    expect(forced).toMatchObject({ status: "imported", version: "OHB2026Q4SEP17-SYNTHETIC", previous_version: "OHB2026Q3JUN1-SYNTHETIC" });
    const after = await snapshot();
    expect(after.status.active?.version).toBe("OHB2026Q4SEP17-SYNTHETIC");
    expect(after.status.previous?.version).toBe("OHB2026Q3JUN1-SYNTHETIC");
  });
});

describe("the previous version is kept for rollback; older ones are deleted", () => {
  it("rollback swaps the active and the previous version; a third import drops the oldest", async () => {
    const rolled = await rollbackBoundaries(ws.store.db);
    expect(rolled?.active?.version).toBe("OHB2026Q3JUN1-SYNTHETIC");
    expect(rolled?.previous?.version).toBe("OHB2026Q4SEP17-SYNTHETIC");

    const third = await ws.write("OHB2027Q1NOV28-synthetic.csv", RECORDS + 500);
    expect(await importBoundaryFile({ store: ws.store, source: third, synthetic: true })).toMatchObject({ status: "imported", previous_version: "OHB2026Q3JUN1-SYNTHETIC", records: RECORDS + 500 });
    const { versions, rows } = await snapshot();
    expect(versions.map((v) => v.version)).toEqual(["OHB2026Q3JUN1-SYNTHETIC", "OHB2027Q1NOV28-SYNTHETIC"]);
    expect(rows).toEqual([
      { version: "OHB2026Q3JUN1-SYNTHETIC", n: RECORDS },
      { version: "OHB2027Q1NOV28-SYNTHETIC", n: RECORDS + 500 },
    ]);
  });
});

// Each command is a fresh process that loads the CLI through tsx: seconds apiece on a loaded machine.
describe("buckeye boundaries import|status|rollback", { timeout: 120_000 }, () => {
  const env = () => ({ ...process.env, DATABASE_URL: ws.databaseUrl, LOG_LEVEL: "silent" });

  it("a ZIP holding one CSV imports, printing the counts as JSON; status --json names the active version", async () => {
    const path = join(ws.dir, "OHB2027Q2FEB27.zip");
    const csv = await ws.write("OHB2027Q2FEB27-synthetic.csv", RECORDS + 500);
    writeFileSync(path, zipSync({ "OHB2027Q2FEB27.csv": readFileSync(csv) }));
    const { stdout } = await run(process.execPath, [BIN, "boundaries", "import", path, "--synthetic", "--json"], { env: env() });
    expect(JSON.parse(stdout)).toMatchObject({ version: "OHB2027Q2FEB27-SYNTHETIC", status: "imported", ...counts(RECORDS + 500), skipped: { rows: 0, by_reason: {} } });
    const status = JSON.parse((await run(process.execPath, [BIN, "boundaries", "status", "--json"], { env: env() })).stdout);
    expect(status).toMatchObject({
      active: { version: "OHB2027Q2FEB27-SYNTHETIC", records: RECORDS + 500, report: { skipped: { rows: 0, by_reason: {} } } },
      previous: { version: "OHB2027Q1NOV28-SYNTHETIC" },
    });
  });

  it("a malformed file exits non-zero naming the line", async () => {
    const lines = readFileSync(first, "utf8").split("\r\n");
    lines[9] = lines[9]!.replace(/^[AZ4],/, "Q,");
    const path = join(ws.dir, "OHB2027Q3MAY30.csv");
    writeFileSync(path, lines.join("\r\n"));
    const failure = await run(process.execPath, [BIN, "boundaries", "import", path, "--synthetic", "--json"], { env: env() }).then(
      () => null,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(JSON.parse(failure!.stdout)).toMatchObject({ status: "refused", line: 10 });
  });

  it("rows skipped for want of a county are named in the text line, and status keeps them", async () => {
    const lines = readFileSync(await ws.write("OHB2027Q4SEP1-synthetic.csv", RECORDS + 500), "utf8").split("\r\n");
    const fields = lines[4]!.split(",");
    fields[24] = "";
    lines[4] = fields.join(",");
    const path = join(ws.dir, "OHB2027Q4SEP1-synthetic.csv");
    writeFileSync(path, lines.join("\r\n"));
    const { stdout } = await run(process.execPath, [BIN, "boundaries", "import", path, "--synthetic"], { env: env() });
    expect(stdout).toMatch(/^imported OHB2027Q4SEP1-SYNTHETIC: 4499 records .*; 1 row skipped, answering no Ohio lookup \(no county: 1, line 5\); OHB2027Q2FEB27-SYNTHETIC kept for rollback\n$/);
    const status = (await run(process.execPath, [BIN, "boundaries", "status"], { env: env() })).stdout;
    expect(status).toMatch(/^active: OHB2027Q4SEP1-SYNTHETIC \(SYNTHETIC: made-up data, not the state's\), 4499 records, imported \S+; 1 row skipped, answering no Ohio lookup \(no county: 1, line 5\)$/m);
  });
});
