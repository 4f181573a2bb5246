/**
 * ZIP lookups from the state's boundary file (docs/guides/boundary-file.md, "ZIP lookups"): with a
 * SYNTHETIC file active (test/_boundary-files.ts), a ZIP it covers takes its candidates from the
 * file's own Z, 4 and A records for the ZIP in effect on the date; a ZIP it does not cover answers
 * from the Census ZCTA table as before. GET /rates, a short inline batch (answering thread) and a
 * long one (batch lane) answer alike. Expected records are read from the generator, never hard-coded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REFRESH_MS } from "../src/boundaries/boundary-index.ts";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import type { ZipSummary } from "../src/boundaries/boundary-index.interface.ts";
import { writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import { boundaryStatus } from "../src/boundaries/versions.ts";
import { readZipCounties } from "../src/boundaries/zip-table.ts";
import { zipSourcesText } from "../src/cli/boundary-commands.ts";
import { resolveZipFromFile } from "../src/lookup/resolve-zip-file.ts";
import { DATA_DIR, linedRecords, TEST_ZIPS } from "./_boundary-files.ts";
import { startTestService, type TestService } from "./_setup.ts";

const V1 = { version: "OHB2026Q3JUN1-SYNTHETIC", records: 3000 };
const DATE = "2026-06-01";
const LUCAS = "39095";
const v1 = linedRecords(V1.records);

let api: TestService;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "buckeye-zips-"));
  api = await startTestService();
  const path = join(dir, `${V1.version.toLowerCase()}.csv`);
  await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, zips: TEST_ZIPS, records: V1.records });
  expect(await importBoundaryFile({ store: api.service.store, source: path, synthetic: true })).toMatchObject({ status: "imported", version: V1.version });
  // The service trusts the active version it read for DEFAULT_REFRESH_MS on its clock: past that, a lookup after this sees V1.
  api.clock.advance(DEFAULT_REFRESH_MS);
}, 60_000);

afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function rates(query: Record<string, string>) {
  const res = await api.get(`/api/v1/rates?${new URLSearchParams(query)}`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function batch(lookups: object[]): Promise<Array<Record<string, any>>> {
  const res = await api.service.app.fetch(
    new Request("http://buckeye.test/api/v1/rates/batch", {
      method: "POST",
      headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "application/json" },
      body: JSON.stringify({ lookups }),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: Array<{ body: Record<string, any> }> }).results.map((r) => r.body);
}

/** The file's records for a ZIP in effect on DATE. */
const inEffect = (zip: string) => v1.filter((r) => r.zip5 === zip && r.effectiveFrom <= DATE && (r.effectiveTo === null || r.effectiveTo >= DATE));

/** A body without its request id, to compare answers across routes. */
const bare = ({ request_id: _, ...rest }: Record<string, any>) => rest;

describe("a ZIP the file covers with one jurisdiction set answers outright, citing the record", () => {
  it("43604 (Lucas, TARTA countywide on every record): zip_unambiguous with the ZIP's Z record as boundary_record, and a note saying the file is SYNTHETIC", async () => {
    const records = inEffect("43604");
    expect(new Set(records.map((r) => `${r.countyFips}|${r.transitCode}`)).size).toBe(1);
    const z = records.find((r) => r.recordType === "Z")!;
    const { status, body } = await rates({ zip: "43604", date: DATE });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ambiguous: false,
      county: "Lucas",
      resolved_by: "zip_unambiguous",
      boundary_record: { version: V1.version, record_type: "Z", line: z.line, county_fips: LUCAS, transit_code: z.transitCode, effective_from: z.effectiveFrom, effective_to: null },
    });
    expect(body.note).toContain(`Answered from a SYNTHETIC boundary file (${V1.version})`);
    expect(body.note).toContain(`(${records.length} records) places it in Lucas County`);
  });

  it("43460 (Wood, split by the Rossford district): one county, so its rate with the district unsettled, as a county-only ZIP always answered; no one record is cited", async () => {
    expect(new Set(inEffect("43460").map((r) => r.transitCode)).size).toBe(2);
    const { body } = await rates({ zip: "43460", date: DATE });
    expect(body).toMatchObject({ ambiguous: false, county: "Wood", resolved_by: "zip_unambiguous", transit_district_possible: true });
    expect(body.transit_district.status).toBe("unknown");
    expect(body.boundary_record).toBeUndefined();
    expect(body.note).toContain("partly inside the TARTA district");
  });
});

describe("a split ZIP answers with the file's candidates and the lowest rate", () => {
  it("43064: one candidate per county the file's records name, the lowest combined rate among them, and a note naming the file", async () => {
    const counties = [...new Set(inEffect("43064").map((r) => r.countyFips))].sort();
    expect(counties.length).toBeGreaterThan(1);
    const { status, body } = await rates({ zip: "43064", date: DATE });
    expect(status).toBe(200);
    expect(body.ambiguous).toBe(true);
    expect(body.candidate_counties.map((c: any) => c.fips).sort()).toEqual(counties);
    expect(body.lowest_combined_rate).toBe(Math.min(...body.candidate_counties.map((c: any) => c.combined_rate)));
    expect(body.note).toContain(`of the SYNTHETIC boundary file ${V1.version} for ZIP 43064`);
  });

  it("the file decides the candidates, not the ZCTA table: one county in the file is an outright answer; a county the table lacks is a candidate with a null land share", () => {
    const data = { table: api.service.rates.table, zips: readZipCountiesIndex() };
    const context = { lastReconciled: DATE, confirmedThrough: DATE, requestId: "r" };
    const record = { recordType: "A" as const, line: 7, effectiveFrom: "2018-01-01", effectiveTo: null };
    const summary = (sets: Array<[string, string | null]>): ZipSummary => ({
      version: "OHB2026Q3JUN1", zip5: "43015", date: DATE, sets: sets.map(([countyFips, transitCode]) => ({ countyFips, transitCode, records: 3, record })),
    });
    // The ZCTA table has 43015 in Delaware and Union; the file, in Delaware only (outside COTA's Delaware district).
    const one = resolveZipFromFile(data, summary([["39041", null]]), context)!;
    expect(one).toMatchObject({ kind: "rate", body: { county: "Delaware", resolved_by: "zip_unambiguous", boundary_record: { record_type: "A", line: 7, county_fips: "39041", transit_code: null } } });
    expect((one as any).body.transit_district.status).toBe("outside");
    expect((one as any).body.note).not.toContain("SYNTHETIC");
    // The file adds Marion, which the table never lists for 43015.
    const split = resolveZipFromFile(data, summary([["39041", "96000"], ["39101", null]]), context)!;
    expect(split.kind).toBe("ambiguous");
    const candidates = (split as any).body.candidate_counties as Array<Record<string, any>>;
    expect(candidates.map((c) => [c.fips, c.land_area_share === null, c.transit_district?.status ?? null])).toEqual([
      ["39041", false, "inside"],
      ["39101", true, null],
    ]);
  });
});

describe("a ZIP the file does not cover answers from the ZCTA table, as before", () => {
  it("43215 (Franklin, not in the file): zip_unambiguous without a boundary_record; 43016 (split in the table): ambiguous with the table's land shares", async () => {
    const covered = await rates({ zip: "43215", date: DATE });
    expect(covered.body).toMatchObject({ county: "Franklin", resolved_by: "zip_unambiguous" });
    expect(covered.body.boundary_record).toBeUndefined();
    expect(covered.body.note).toBeUndefined();
    const split = await rates({ zip: "43016", date: DATE });
    expect(split.body.ambiguous).toBe(true);
    expect(split.body.candidate_counties.every((c: any) => typeof c.land_area_share === "number")).toBe(true);
    expect(split.body.note).toBeUndefined();
  });
});

describe("batches answer a row with only a zip as GET /rates does", () => {
  const zips = ["43604", "43460", "43064", "43081", "43215", "43016"];

  it("a short inline list (the answering thread) and a long one (the batch lane) give GET's answers", async () => {
    const single = await Promise.all(zips.map(async (zip) => bare((await rates({ zip, date: DATE })).body)));
    const short = await batch(zips.map((zip) => ({ zip, date: DATE })));
    expect(short.map(bare)).toEqual(single);
    const long = await batch(Array.from({ length: 5 }, () => zips.map((zip) => ({ zip, date: DATE }))).flat());
    expect(long).toHaveLength(30);
    expect(long.map(bare)).toEqual(Array.from({ length: 5 }, () => single).flat());
  });

  it("a row with a county beside its zip is still settled by the county", async () => {
    const [row] = await batch([{ zip: "43064", county: "union", date: DATE }]);
    expect(row).toMatchObject({ county: "Union", resolved_by: "county_param" });
    expect(row!.boundary_record).toBeUndefined();
  });
});

describe("boundaries status says how many ZIPs differ between the file and the ZCTA table", () => {
  it("none when the file agrees with the shipped table; a ZIP whose counties differ, and one the table lacks, when it does not", async () => {
    const table = readZipCounties(DATA_DIR);
    const agreeing = await boundaryStatus(api.service.store.db, table);
    expect(agreeing.zip_sources).toEqual({ zips: TEST_ZIPS.length, differing: 0, not_in_table: 0, examples: [] });
    const altered = new Map(table);
    altered.set("43015", new Set(["39041"]));
    altered.delete("43604");
    const status = await boundaryStatus(api.service.store.db, altered);
    expect(status.zip_sources).toEqual({ zips: TEST_ZIPS.length, differing: 2, not_in_table: 1, examples: ["43015", "43604"] });
    expect(zipSourcesText(status.zip_sources!)).toBe(
      "ZIP lookups: 5 ZIPs answer from the file's records; 2 differ from the Census ZCTA table in their counties (1 not in it), e.g. 43015, 43604",
    );
    expect((await boundaryStatus(api.service.store.db)).zip_sources).toBeUndefined();
  });
});

/** The shipped ZIP index the service answers from (its land shares). */
function readZipCountiesIndex() {
  return api.service.context.zips;
}
