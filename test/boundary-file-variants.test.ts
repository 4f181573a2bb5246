/**
 * Boundary files as member states publish them (docs/guides/boundary-file.md, "Files as states
 * publish them"), imported into a real database (a SQLite file, or a PostgreSQL schema under
 * TEST_DATABASE_URL): each variant is accepted and stored exactly as the standard form; rows that
 * answer no Ohio lookup are skipped and reported; corrupt input and input past a cap refuse the
 * whole file and change nothing. Every file is SYNTHETIC: the generator's rows, rewritten per variant.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importBoundaryFile, MAX_CHANGED_SHARE, type ImportOptions } from "../src/boundaries/import-file.ts";
import { openBoundaryIndex } from "../src/boundaries/boundary-index.ts";
import { formatBoundaryRow } from "../src/boundaries/record-layout.ts";
import { boundaryStatus, rollbackBoundaries } from "../src/boundaries/versions.ts";
import { SYNTHETIC_CITY_MARK } from "../src/boundaries/synthetic-file.ts";
import { runBoundaryImport } from "../src/boundaries/boundary-job.ts";
import { Scheduler } from "../src/scheduled/scheduler.ts";
import { loadConfig } from "../src/config.ts";
import { boundaryWorkspace, DATA_DIR, linedRecords, TEST_ZIPS, type BoundaryWorkspace } from "./_boundary-files.ts";

const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;
const RECORDS = 1000;
const records = linedRecords(RECORDS);
let ws: BoundaryWorkspace;
/** The standard file's rows, without their line breaks. */
let standard: string[];
/** What the standard file stored (older versions are deleted as later ones are imported). */
let standardStored: Awaited<ReturnType<typeof stored>>;
const BASELINE = "OHB2026Q1OCT1";

beforeAll(async () => {
  ws = await boundaryWorkspace();
  const path = await ws.write(`${BASELINE}-synthetic.csv`, RECORDS);
  standard = readFileSync(path, "utf8").split("\r\n").slice(0, -1);
  expect(await importBoundaryFile({ store: ws.store, source: path, synthetic: true })).toMatchObject({ status: "imported", records: RECORDS });
  standardStored = await stored(`${BASELINE}-SYNTHETIC`);
});

afterAll(async () => {
  await ws?.close();
});

let files = 0;

/** A synthetic file of these rows under a version never imported before (OHB2026Q1NOV1-SYNTHETIC, NOV2, …). */
function file(rows: readonly string[], { eol = "\r\n", finalBreak = true, bom = false } = {}): { path: string; version: string } {
  const name = `OHB2026Q1NOV${++files}`;
  const version = `${name}-SYNTHETIC`;
  const path = join(ws.dir, `${name}-synthetic.csv`);
  writeFileSync(path, `${bom ? "\uFEFF" : ""}${rows.join(eol)}${finalBreak ? eol : ""}`);
  return { path, version };
}

/** Each standard row with `edit` applied to its fields. */
function edited(edit: (fields: string[], index: number) => string[] | void): string[] {
  return standard.map((row, i) => {
    const fields = row.split(",");
    return (edit(fields, i) ?? fields).join(",");
  });
}

/**
 * The same rows with the SYNTHETIC mark taken off and a name without it: a stand-in for the
 * state's file where the import runs without --synthetic (the scheduled job). Test folder only.
 */
function standIn(rows: readonly string[]): { path: string } {
  const path = join(ws.dir, `OHB2026Q1NOV${++files}.csv`);
  writeFileSync(path, `${rows.join("\r\n").replaceAll(SYNTHETIC_CITY_MARK, "")}\r\n`);
  return { path };
}

/** What a version's stored records hold, in file order. */
async function stored(version: string) {
  return ws.store.db
    .selectFrom("boundary_records")
    .select(["line", "record_type", "effective_from", "effective_to", "zip5", "zip5_high", "plus4_low", "plus4_high", "street", "house_low", "house_high", "parity", "unit_designator", "unit_low", "unit_high", "unit_parity", "county_fips", "transit_code"])
    .where("version", "=", version)
    .orderBy("line")
    .orderBy("zip5")
    .execute();
}

/** The pointer, every version row and how many records each version has. */
async function snapshot() {
  const { db } = ws.store;
  const versions = await db.selectFrom("boundary_versions").select(["version", "status", "records"]).orderBy("version").execute();
  const rows = await db.selectFrom("boundary_records").select(["version", (eb) => eb.fn.countAll<number>().as("n")]).groupBy("version").orderBy("version").execute();
  return { status: await boundaryStatus(db), versions: versions.map((v) => ({ ...v, records: Number(v.records) })), rows: rows.map((r) => ({ ...r, n: Number(r.n) })) };
}

async function imports(path: string, options: Partial<ImportOptions> = {}) {
  // Every file here is made from the generator's SYNTHETIC rows: imported as such, its version labelled.
  return importBoundaryFile({ store: ws.store, source: path, synthetic: true, ...options });
}

/** Imports the variant and checks it stored exactly what the standard file did. */
async function importsAsStandard(variant: { path: string; version: string }): Promise<void> {
  expect(await imports(variant.path)).toMatchObject({ status: "imported", version: variant.version, records: RECORDS, error: null, skipped: { rows: 0 } });
  expect(await stored(variant.version)).toEqual(standardStored);
}

describe("a file as a state publishes it is stored exactly as the standard form", () => {
  it("lower-case record types and odd/even flags", async () => {
    await importsAsStandard(file(edited((f) => void ([f[0], f[5], f[13]] = [f[0]!.toLowerCase(), f[5]!.toLowerCase(), f[13]!.toLowerCase()]))));
  });

  it("no line break after the last record, with CRLF line ends", async () => {
    await importsAsStandard(file(standard, { finalBreak: false }));
  });

  it("no line break after the last record, with LF line ends and a byte-order mark", async () => {
    await importsAsStandard(file(standard, { eol: "\n", finalBreak: false, bom: true }));
  });

  it("rows of 90 columns, the last one empty", async () => {
    await importsAsStandard(file(standard.map((row) => `${row},`)));
  });

  it("open ends written 29991231 or 20991231", async () => {
    await importsAsStandard(file(edited((f, i) => void (f[2] === "99991231" && (f[2] = i % 2 ? "29991231" : "20991231")))));
  });

  it("unpadded plus-4s (1 for 0001)", async () => {
    const unpad = (text: string) => (text === "" ? text : String(Number(text)));
    await importsAsStandard(file(edited((f) => void ([f[16], f[18], f[20]] = [unpad(f[16]!), unpad(f[18]!), unpad(f[20]!)]))));
  });
});

describe("a ZIP+4 range across two ZIP5s is stored as one range per ZIP5 and answers lookups in both", () => {
  it("45998-0011…45999-9999 answers 45998-0011 and 45999-5000, not 45998-0010", async () => {
    const base = records.find((r) => r.recordType === "4" && r.effectiveTo === null && r.effectiveFrom <= "2026-01-01")!;
    const across = formatBoundaryRow({ ...base, zip5: "45998", zip5High: "45999", plus4Low: "0011", plus4High: "9999" }).join(",");
    const wide = file([...standard, across]);
    expect(await imports(wide.path)).toMatchObject({ status: "imported", records: RECORDS + 1, zip4_ranges: records.filter((r) => r.recordType === "4").length + 1 });
    expect((await stored(wide.version)).filter((r) => r.line === RECORDS + 1).map((r) => [r.zip5, r.zip5_high, r.plus4_low, r.plus4_high])).toEqual([
      ["45998", "45998", "0011", "9999"],
      ["45999", "45999", "0000", "9999"],
    ]);
    const index = openBoundaryIndex(ws.store, { refreshMs: 0 });
    try {
      const answer = { version: wide.version, recordType: "4", line: RECORDS + 1, countyFips: base.countyFips };
      expect(await index.probe({ zip5: "45998", zip4: "0011", date: "2026-12-01" })).toMatchObject(answer);
      expect(await index.probe({ zip5: "45999", zip4: "5000", date: "2026-12-01" })).toMatchObject(answer);
      expect(await index.probe({ zip5: "45998", zip4: "0010", date: "2026-12-01" })).toBeNull();
    } finally {
      await index.close();
    }
  });

  it("a Z record over a range of ZIPs is stored with its range", async () => {
    const base = records.find((r) => r.recordType === "Z")!;
    const range = file([...standard, formatBoundaryRow({ ...base, zip5: "45990", zip5High: "45995" }).join(",")]);
    expect(await imports(range.path)).toMatchObject({ status: "imported", records: RECORDS + 1 });
    expect((await stored(range.version)).filter((r) => r.line === RECORDS + 1)).toMatchObject([{ record_type: "Z", zip5: "45990", zip5_high: "45995" }]);
  });
});

describe("rows that answer no Ohio lookup are skipped, counted by reason with their first lines, and status keeps the report", () => {
  it("six rows with no county and one of another state: 993 records imported, the report names them", async () => {
    const blank = new Set([3, 10, 20, 30, 40, 50]);
    const skipping = file(edited((f, i) => void (blank.has(i + 1) ? (f[24] = "") : i + 1 === 7 && ([f[22], f[23]] = ["27", "27"]))));
    const skipped = {
      rows: 7,
      by_reason: { "no-county": { rows: 6, first_lines: [3, 10, 20, 30, 40] }, "other-state": { rows: 1, first_lines: [7] } },
    };
    expect(await imports(skipping.path)).toMatchObject({ status: "imported", records: RECORDS - 7, skipped });
    expect((await stored(skipping.version)).map((r) => r.line)).toEqual(standard.map((_, i) => i + 1).filter((line) => !blank.has(line) && line !== 7));
    expect((await boundaryStatus(ws.store.db)).active).toMatchObject({ version: skipping.version, report: { skipped } });
  });
});

describe("corrupt input refuses the whole file and changes nothing", () => {
  async function refuses(path: string, error: RegExp | string, line: number | null = null, options: Partial<ImportOptions> = {}) {
    const before = await snapshot();
    const result = await imports(path, options);
    expect(result).toMatchObject({ status: "refused", line });
    expect(result.error).toMatch(error);
    expect(await snapshot()).toEqual(before);
  }

  it("an impossible date", async () => {
    await refuses(file(edited((f, i) => void (i === 499 && (f[1] = "20250230")))).path, 'line 500: begin date "20250230"', 500);
  });

  it("a last row cut short, with no line break after it", async () => {
    const rows = [...standard.slice(0, -1), standard.at(-1)!.slice(0, 30)];
    await refuses(file(rows, { finalBreak: false }).path, new RegExp(`^line ${RECORDS}: \\d+ columns, expected 89.*the file was probably cut short$`), RECORDS);
  });

  it("a last row whose end date is cut short", async () => {
    const rows = [...standard.slice(0, -1), standard.at(-1)!.split(",").slice(0, 3).join(",").slice(0, -4)];
    await refuses(file(rows, { finalBreak: false }).path, /columns, expected 89.*cut short/, RECORDS);
  });

  it("a row cut short in the middle of the file", async () => {
    await refuses(file(standard.map((row, i) => (i === 99 ? row.slice(0, 40) : row))).path, /^line 100: \d+ columns, expected 89/, 100);
  });

  it("a 90th column that is not empty, and 91 columns", async () => {
    await refuses(file(standard.map((row, i) => (i === 9 ? `${row},X` : row))).path, "line 10: 90 columns, expected 89 (or 90 with the last one empty)", 10);
    await refuses(file(standard.map((row) => `${row},,`)).path, "line 1: 91 columns", 1);
  });

  it("a file far smaller than the active one (under 90 % of its records)", async () => {
    await refuses(file(standard.slice(0, Math.floor(RECORDS * 0.85))).path, /fewer than 90 % of the active version/);
  });
});

describe("caps on text, rows and line length refuse a file while it streams, and nothing changes", () => {
  async function refusesPastCap(path: string, caps: ImportOptions["caps"], setting: string) {
    const before = await snapshot();
    const result = await imports(path, { caps });
    expect(result).toMatchObject({ status: "refused" });
    expect(result.error).toContain(setting);
    expect(await snapshot()).toEqual(before);
  }

  it("a ZIP archive whose CSV inflates past BOUNDARY_MAX_BYTES", async () => {
    const csv = `${Array.from({ length: 20 }, () => standard.join("\r\n")).join("\r\n")}\r\n`;
    const path = join(ws.dir, "OHB2026Q2FEB27.zip");
    writeFileSync(path, zipSync({ "OHB2026Q2FEB27.csv": Buffer.from(csv) }));
    await refusesPastCap(path, { bytes: csv.length / 4 }, "BOUNDARY_MAX_BYTES");
  });

  it("more rows than BOUNDARY_MAX_RECORDS", async () => {
    await refusesPastCap(file(standard).path, { records: RECORDS - 1 }, "BOUNDARY_MAX_RECORDS");
  });

  it("a line longer than BOUNDARY_MAX_LINE_LENGTH, with no line break in it at all", async () => {
    await refusesPastCap(file([...standard.slice(0, 10), "A".repeat(2_000_000)]).path, { lineLength: 4096 }, "BOUNDARY_MAX_LINE_LENGTH");
  });

  it("a file exactly at the caps imports", async () => {
    const exact = file(standard);
    const bytes = readFileSync(exact.path).length;
    const longest = Math.max(...standard.map((row) => row.length));
    expect(await imports(exact.path, { caps: { bytes, records: RECORDS, lineLength: longest } })).toMatchObject({ status: "imported", records: RECORDS });
  });
});

describe("a file is checked against its SHA-256 when one is given, and plain http needs one", () => {
  it("a plain http:// BOUNDARY_SOURCE without BOUNDARY_SHA256 is refused at start-up; https, or http with a checksum, is not", () => {
    expect(() => loadConfig({ BOUNDARY_SOURCE: "http://files.example.gov/OHB2026Q4SEP17.zip" })).toThrow("BOUNDARY_SOURCE: is a plain http:// URL: use https://, or set BOUNDARY_SHA256");
    expect(loadConfig({ BOUNDARY_SOURCE: "http://files.example.gov/OHB2026Q4SEP17.zip", BOUNDARY_SHA256: "A".repeat(64) }).jobs.boundarySha256).toBe("a".repeat(64));
    expect(loadConfig({ BOUNDARY_SOURCE: "https://files.example.gov/OHB2026Q4SEP17.zip" }).jobs.boundarySha256).toBeNull();
  });

  it("a plain http:// source without a checksum is refused before it is fetched", async () => {
    const before = await snapshot();
    expect(await imports("http://127.0.0.1:9/OHB2026Q2MAR1.csv")).toMatchObject({ status: "refused", error: expect.stringMatching(/plain http:\/\/ needs its SHA-256/) });
    expect(await snapshot()).toEqual(before);
  });

  it("a file whose SHA-256 differs is refused and changes nothing; the right one imports", async () => {
    const checked = file(standard);
    const sha256 = createHash("sha256").update(readFileSync(checked.path)).digest("hex");
    const before = await snapshot();
    expect(await imports(checked.path, { sha256: "0".repeat(64) })).toMatchObject({ status: "refused", error: expect.stringContaining(`SHA-256 is ${sha256}`) });
    expect(await snapshot()).toEqual(before);
    expect(await imports(checked.path, { sha256: sha256.toUpperCase() })).toMatchObject({ status: "imported", version: checked.version });
  });
});

describe("a scheduled import that refuses its file logs the refusal as a warning", () => {
  it("the job's line is at warn, and carries the refusal", async () => {
    const log: Array<Record<string, unknown>> = [];
    const corrupt = standIn(edited((f, i) => void (i === 4 && (f[1] = "20251341")))).path;
    const scheduler = new Scheduler({ jobs: { "boundary-import": () => runBoundaryImport(ws.store, corrupt) }, schedules: { "boundary-import": null }, log: (entry) => log.push(entry) });
    await scheduler.run("boundary-import");
    expect(log).toEqual([expect.objectContaining({ level: "warn", msg: "job finished", job: "boundary-import", result: expect.objectContaining({ status: "refused", line: 5 }) })]);
  });
});

/** The standard rows with the first `share` of them moved to Adams County (001), transit removed. */
function moved(share: number): string[] {
  return edited((f, i) => {
    if (i >= RECORDS * share) return;
    f[24] = "001";
    for (let c = 29; c < 89; c++) f[c] = "";
  });
}

/** YYYYMMDD one day earlier. */
function dayBefore(yyyymmdd: string): string {
  const day = new Date(Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)) - 1));
  return day.toISOString().slice(0, 10).replaceAll("-", "");
}

describe(`a file that moves more than ${MAX_CHANGED_SHARE * 100} % of the active version's ranges, or repeats rows, needs --force`, () => {
  it("0.5 % changed imports, and the report says so", async () => {
    const active = (await boundaryStatus(ws.store.db)).active!.version;
    const result = await imports(file(moved(0.005)).path);
    expect(result).toMatchObject({ status: "imported", changes: { against: active, ranges_added: 0, ranges_removed: 0, jurisdictions_moved: [], duplicate_rows: 0, duplicate_share: 0 } });
    expect(result.changes!.ranges_compared).toBe(result.changes!.ranges_in_active);
    // Rows already in Adams County without transit do not change: at most 5 do.
    expect(result.changes!.ranges_changed).toBeGreaterThan(0);
    expect(result.changes!.changed_share).toBeCloseTo(result.changes!.ranges_changed / result.changes!.ranges_in_active, 4);
    expect(result.changes!.changed_share).toBeLessThanOrEqual(MAX_CHANGED_SHARE);
    expect((await boundaryStatus(ws.store.db)).active?.report?.changes).toEqual(result.changes);
  });

  it("every range moved to the cheapest county with transit removed is refused and changes nothing; --force imports it", async () => {
    const rewritten = file(moved(1));
    const before = await snapshot();
    const refused = await imports(rewritten.path);
    expect(refused).toMatchObject({ status: "refused" });
    expect(refused.changes!.ranges_compared).toBe(refused.changes!.ranges_in_active);
    expect(refused.error).toMatch(/\d+ ranges changed county, transit or current record, 0 were removed and 0 kept but shadowed \(lookups in them now answer another county or transit code from a range added over them\), of the \d+ in the active version .* \(\d+\.\d %, more than 1 %\): refused as a probably rewritten file/);
    expect(await snapshot()).toEqual(before);
    expect(await imports(rewritten.path, { force: true })).toMatchObject({ status: "imported", version: rewritten.version });
  });

  it("duplicate rows are counted; more than 5 % of them is refused", async () => {
    const few = await imports(file([...standard, ...standard.slice(0, 10)]).path, { force: true });
    expect(few).toMatchObject({ status: "imported", changes: { duplicate_rows: 10 } });
    const before = await snapshot();
    const many = await imports(file([...standard, ...standard.slice(0, 100)]).path);
    expect(many).toMatchObject({ status: "refused", changes: { duplicate_rows: 100 } });
    expect(many.error).toMatch(/100 rows repeat another row \(9\.1 %, more than 5 %\)/);
    expect(await snapshot()).toEqual(before);
  });

  it("the scheduled job never forces: it is refused where --force would import", async () => {
    const rewritten = standIn(moved(1)).path;
    expect(await runBoundaryImport(ws.store, rewritten)).toMatchObject({ status: "refused", error: expect.stringContaining("probably rewritten") });
  });
});

/** What a generated record covers: several records (periods) may share it. */
const coverage = (r: (typeof records)[number]) =>
  [r.recordType, r.zip5, r.zip5High, r.plus4Low, r.plus4High, r.preDirectional, r.streetName, r.suffix, r.postDirectional, r.houseLow, r.houseHigh, r.parity, r.unit?.designator, r.unit?.low, r.unit?.high].join("|");

describe("ranges are compared by what they cover, whatever their dates", () => {
  /** Every begin date a day earlier and every district code cleared: 101 High St, Delaware went from 8.00 % to 7.00 % this way. */
  const shiftedAndCleared = () =>
    edited((f) => {
      f[1] = dayBefore(f[1]!);
      for (let c = 29; c < 89; c++) f[c] = "";
    });

  it("moving every begin date back a day and clearing the district codes is refused without --force, with every range compared", async () => {
    const before = await snapshot();
    const refused = await imports(file(shiftedAndCleared()).path);
    expect(refused).toMatchObject({ status: "refused", error: expect.stringMatching(/more than 1 %\): refused as a probably rewritten file/) });
    expect(refused.changes!.ranges_compared).toBe(refused.changes!.ranges_in_active);
    expect(refused.changes!.ranges_changed).toBe(new Set(records.filter((r) => r.transitCode !== null).map(coverage)).size);
    expect(await snapshot()).toEqual(before);
  });

  it("the scheduled job, which never forces, refuses it too", async () => {
    const before = await snapshot();
    expect(await runBoundaryImport(ws.store, standIn(shiftedAndCleared()).path)).toMatchObject({ status: "refused", error: expect.stringContaining("probably rewritten") });
    expect(await snapshot()).toEqual(before);
  });

  it("only the dates moved: every range compares unchanged, and the file imports", async () => {
    const result = await imports(file(edited((f) => void (f[1] = dayBefore(f[1]!)))).path);
    expect(result).toMatchObject({ status: "imported", changes: { ranges_changed: 0, ranges_added: 0, ranges_removed: 0, changed_share: 0 } });
  });

  it("a file none of whose ranges the active version has is refused as nothing compared", async () => {
    // Every house range, plus-4 range and ZIP range one wider: the same places, described so no range matches.
    const widened = edited((f) => {
      const plus4 = (n: number) => String(n).padStart(4, "0");
      if (f[0] === "A") f[4] = String(Number(f[4]) + 1);
      else if (f[0] === "4" && Number(f[18]) > 0) f[18] = plus4(Number(f[18]) - 1);
      else if (f[0] === "4") f[20] = plus4(Number(f[20]) + 1);
      else f[19] = String(Number(f[19]) + 1).padStart(5, "0");
    });
    const before = await snapshot();
    const refused = await imports(file(widened).path);
    expect(refused).toMatchObject({ status: "refused", changes: { ranges_compared: 0 }, error: expect.stringMatching(/^none of the file's ranges is also in the active version .*nothing could be compared/) });
    expect(await snapshot()).toEqual(before);
  });
});

describe("re-importing the version kept for rollback keeps it whole until the switch", { timeout: 120_000 }, () => {
  let fresh: BoundaryWorkspace;
  let kept: string;
  beforeAll(async () => {
    fresh = await boundaryWorkspace();
    kept = await fresh.write("OHB2026Q3JUN1-synthetic.csv", 20_000);
    expect(await importBoundaryFile({ store: fresh.store, source: kept, synthetic: true })).toMatchObject({ status: "imported" });
    expect(await importBoundaryFile({ store: fresh.store, source: await fresh.write("OHB2026Q4SEP17-synthetic.csv", 20_000), synthetic: true })).toMatchObject({ status: "imported" });
  });
  afterAll(() => fresh?.close());

  const recordsOf = async (version: string) =>
    Number((await fresh.store.db.selectFrom("boundary_records").select((eb) => eb.fn.countAll<number>().as("n")).where("version", "=", version).executeTakeFirstOrThrow()).n);

  it("a refused re-import leaves it ready, with every record, to roll back to", async () => {
    const lines = readFileSync(kept, "utf8").split("\r\n");
    lines[15_000] = lines[15_000]!.replace(/^([AZ4]),\d{8}/, "$1,20250230");
    const corrupt = join(fresh.dir, "again", "OHB2026Q3JUN1.csv");
    mkdirSync(dirname(corrupt), { recursive: true });
    writeFileSync(corrupt, lines.join("\r\n"));
    expect(await importBoundaryFile({ store: fresh.store, source: corrupt, synthetic: true })).toMatchObject({ status: "refused", line: 15_001 });
    expect((await boundaryStatus(fresh.store.db)).previous).toMatchObject({ version: "OHB2026Q3JUN1-SYNTHETIC", records: 20_000 });
    expect(await recordsOf("OHB2026Q3JUN1-SYNTHETIC")).toBe(20_000);
  });

  it("an import killed while it loads leaves it to roll back to; the next import removes the leftovers and replaces it", async () => {
    const child = spawn(process.execPath, [BIN, "boundaries", "import", kept, "--synthetic"], { env: { ...process.env, DATABASE_URL: fresh.databaseUrl, LOG_LEVEL: "silent" }, stdio: "ignore" });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // Killed once its rows are going in beside the kept version.
    const loading = async () => (await fresh.store.db.selectFrom("boundary_records").select("version").where("version", "like", "OHB2026Q3JUN1-SYNTHETIC~%").limit(1).execute()).length > 0;
    const deadline = Date.now() + 60_000;
    while (!(await loading())) {
      if (Date.now() > deadline) throw new Error("the import never began loading");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill("SIGKILL");
    await exited;
    expect((await boundaryStatus(fresh.store.db)).previous).toMatchObject({ version: "OHB2026Q3JUN1-SYNTHETIC", records: 20_000 });
    expect(await recordsOf("OHB2026Q3JUN1-SYNTHETIC")).toBe(20_000);
    expect((await rollbackBoundaries(fresh.store.db))?.active?.version).toBe("OHB2026Q3JUN1-SYNTHETIC");
    expect(await rollbackBoundaries(fresh.store.db)).toMatchObject({ active: { version: "OHB2026Q4SEP17-SYNTHETIC" }, previous: { version: "OHB2026Q3JUN1-SYNTHETIC" } });

    // The dead import's lease would lapse within 2 minutes; the test lets it lapse now.
    await fresh.store.db.updateTable("boundary_import_lease").set({ expires_at: new Date(0).toISOString() }).execute();
    const again = await importBoundaryFile({ store: fresh.store, source: kept, synthetic: true });
    expect(again).toMatchObject({ status: "imported", version: "OHB2026Q3JUN1-SYNTHETIC", previous_version: "OHB2026Q4SEP17-SYNTHETIC", records: 20_000 });
    expect((await fresh.store.db.selectFrom("boundary_versions").select("version").orderBy("version").execute()).map((v) => v.version)).toEqual(["OHB2026Q3JUN1-SYNTHETIC", "OHB2026Q4SEP17-SYNTHETIC"]);
    expect(await recordsOf("OHB2026Q3JUN1-SYNTHETIC")).toBe(20_000);
  });
});
