/**
 * The ladder (docs/guides/address-resolution.md) in real requests (GET /rates, POST /rates/batch, batch jobs) against a
 * real store holding a SYNTHETIC boundary file generated from data/ (test/_boundary-files.ts), and
 * a FAKE UPSTREAM Census geocoder for the rungs below the file. Expected records are read from the
 * generator itself, never hard-coded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REFRESH_MS } from "../src/boundaries/boundary-index.ts";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { streetKey } from "../src/boundaries/pub28.ts";
import { FUTURE_CHANGE, PAST_CHANGE, writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import type { BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { DATA_DIR, linedRecords, TEST_ZIPS } from "./_boundary-files.ts";
import { oneLine, type FakeCensusGeocoder } from "./fake-census-geocoder.ts";
import { startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

type Lined = BoundaryRecord & { line: number };

const V1 = { version: "OHB2026Q3JUN1-SYNTHETIC", records: 3000 };
const V2 = { version: "OHB2026Q4SEP17-SYNTHETIC", records: 3400 };
const DATE = "2026-06-01";
const DELAWARE = "39041";
const COTA_DELAWARE = "96000";

let fake: FakeCensusGeocoder;
let api: GeocodedTestService;
let dir: string;
const v1 = linedRecords(V1.records);

async function importVersion(v: { version: string; records: number }) {
  const path = join(dir, `${v.version.toLowerCase()}.csv`);
  await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, zips: TEST_ZIPS, records: v.records });
  const result = await importBoundaryFile({ store: api.service.store, source: path, synthetic: true });
  expect(result).toMatchObject({ status: "imported", version: v.version });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "buckeye-ladder-"));
  api = await startTestServiceWithFakeGeocoder();
  fake = api.fake;
  await importVersion(V1);
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

async function post(path: string, body: string, type: string) {
  return api.service.app.fetch(
    new Request(`http://buckeye.test${path}`, { method: "POST", headers: { authorization: `Bearer ${api.liveKey}`, "content-type": type }, body }),
  );
}

function pick(records: readonly Lined[], what: string, test: (r: Lined) => boolean): Lined {
  const found = records.find(test);
  if (!found) throw new Error(`the synthetic file has no ${what}`);
  return found;
}

const SPELLED_DIRECTIONAL: Record<string, string> = { N: "North", S: "South", E: "East", W: "West" };
const SPELLED_SUFFIX: Record<string, string> = { ST: "Street", AVE: "Avenue", RD: "Road", DR: "Drive", BLVD: "Boulevard", LN: "Lane", CT: "Court", PL: "Place", PKWY: "Parkway", CIR: "Circle", TER: "Terrace", STREET: "St", AVENUE: "Ave", WAY: "Way" };

/** A one-line address on the record's street; `spelled` writes directional and suffix the other way. */
function addressOn(r: Lined, house: number, { spelled = false, unit = "", zip = r.zip5 } = {}): string {
  const pre = r.preDirectional && spelled ? SPELLED_DIRECTIONAL[r.preDirectional]! : r.preDirectional;
  const suffix = spelled ? SPELLED_SUFFIX[r.suffix]! : r.suffix;
  return `${[house, pre, r.streetName, suffix, unit].filter(Boolean).join(" ")}, Westerville, OH ${zip}`;
}

const oddIn = (r: Lined) => (r.houseLow! % 2 === 1 ? r.houseLow! : r.houseLow! + 1) + 2;
const evenIn = (r: Lined) => (r.houseLow! % 2 === 0 ? r.houseLow! : r.houseLow! + 1) + 2;

/** The current, unit-less odd-side record of a Delaware block of 43081 that COTA's district covers. */
const delawareInside = pick(
  v1,
  "Delaware odd-side record inside COTA's district",
  (r) => r.recordType === "A" && r.zip5 === "43081" && r.countyFips === DELAWARE && r.parity === "O" && r.unit === null && r.transitCode === COTA_DELAWARE && r.effectiveTo === null,
);
const sameBlock = (r: Lined, parity: "O" | "E") => (x: Lined) =>
  x.recordType === "A" && x.zip5 === r.zip5 && x.streetName === r.streetName && x.suffix === r.suffix && x.preDirectional === r.preDirectional && x.houseLow === r.houseLow && x.parity === parity && x.unit === null;
const delawareOutside = pick(v1, "even side of that block", sameBlock(delawareInside, "E"));

describe("rung 1: an address range (A) in effect on the date settles the address, resolved_by address_range", () => {
  it("a Delaware County address whose record carries COTA's code is inside (8.00 %); its even side, without the code, is outside (7.00 %)", async () => {
    const before = fake.requests.length;
    const inside = await rates({ address: addressOn(delawareInside, oddIn(delawareInside)), date: DATE });
    const outside = await rates({ address: addressOn(delawareOutside, evenIn(delawareOutside)), date: DATE });
    expect(inside.status).toBe(200);
    expect(inside.body).toMatchObject({ county: "Delaware", resolved_by: "address_range", combined_rate: 0.08 });
    expect(inside.body.transit_district.status).toBe("inside");
    expect(inside.body.boundary_record).toEqual({
      version: V1.version, record_type: "A", line: delawareInside.line, effective_from: delawareInside.effectiveFrom,
      effective_to: null, county_fips: DELAWARE, transit_code: COTA_DELAWARE,
    });
    expect(outside.body).toMatchObject({ county: "Delaware", resolved_by: "address_range", combined_rate: 0.07 });
    expect(outside.body.transit_district.status).toBe("outside");
    expect(outside.body.boundary_record).toMatchObject({ line: delawareOutside.line, transit_code: null });
    expect(fake.requests.length, "no upstream call for an address the file settles").toBe(before);
  });

  it("directionals and suffixes spelled out, and a unit designator, match the Pub 28 forms of the file", async () => {
    const withDirectional = pick(v1, "record with a pre-directional", (r) => r.recordType === "A" && r.preDirectional !== "" && r.unit === null && r.effectiveTo === null && r.parity === "O" && r.suffix in SPELLED_SUFFIX);
    const written = addressOn(withDirectional, oddIn(withDirectional), { spelled: true, unit: "Apt 3" });
    // With commas (split here) and without (split by parse-address, where street and city meet).
    for (const address of [written, written.replaceAll(",", "")]) {
      const { body } = await rates({ address, date: DATE });
      expect(body, address).toMatchObject({ resolved_by: "address_range", fips: withDirectional.countyFips });
      expect(body.boundary_record.line).toBe(withDirectional.line);
    }
  });

  it("an apartment range decides for units inside it; a unit outside it falls to the building's block record", async () => {
    const building = pick(v1, "record with an apartment range", (r) => r.recordType === "A" && r.unit !== null && r.countyFips === DELAWARE);
    const block = pick(
      v1,
      "the building's block record",
      (r) =>
        r.recordType === "A" && r.unit === null && r.parity === "O" && r.zip5 === building.zip5 && r.streetName === building.streetName && r.suffix === building.suffix &&
        r.preDirectional === building.preDirectional && r.houseLow! <= building.houseLow! && building.houseLow! <= r.houseHigh! && r.effectiveFrom <= DATE && (r.effectiveTo === null || r.effectiveTo >= DATE),
    );
    const inUnit = await rates({ address: addressOn(building, building.houseLow!, { unit: "Apartment 7" }), date: DATE });
    const hashUnit = await rates({ address: addressOn(building, building.houseLow!, { unit: "# 7" }), date: DATE });
    const beyond = await rates({ address: addressOn(building, building.houseLow!, { unit: "Apt 60" }), date: DATE });
    expect(inUnit.body.boundary_record.line).toBe(building.line);
    expect(hashUnit.body.boundary_record.line).toBe(building.line);
    expect(beyond.body.boundary_record.line).toBe(block.line);
    expect(inUnit.body.transit_district.status).not.toBe(beyond.body.transit_district.status);
  });

  it("a record that has ended answers only dates before its end; its successor after; a record that begins later only from its date", async () => {
    const ended = pick(v1, "record that ended", (r) => r.recordType === "A" && r.countyFips === DELAWARE && r.effectiveTo === "2024-12-31");
    const successor = pick(v1, "its successor", (r) => sameBlock(ended, "O")(r) && r.effectiveFrom === PAST_CHANGE);
    const current = pick(v1, "record that ends later", (r) => r.recordType === "A" && r.countyFips === DELAWARE && r.effectiveTo !== null && r.effectiveTo > DATE);
    const later = pick(v1, "record that begins later", (r) => sameBlock(current, "O")(r) && r.effectiveFrom === FUTURE_CHANGE);
    const at = async (r: Lined, date: string) => (await rates({ address: addressOn(r, oddIn(r)), date })).body;
    expect((await at(ended, "2024-06-01")).boundary_record.line).toBe(ended.line);
    expect((await at(ended, DATE)).boundary_record.line).toBe(successor.line);
    expect((await at(current, DATE)).boundary_record.line).toBe(current.line);
    const future = await at(current, "2027-08-01");
    expect(future.boundary_record).toMatchObject({ line: later.line, effective_from: FUTURE_CHANGE });
    expect(future.transit_district.status).toBe(later.transitCode === COTA_DELAWARE ? "inside" : "outside");
  });
});

describe("an answer from a synthetic file says so", () => {
  it("its note, the transit district's note and the boundary_record's version name the file SYNTHETIC", async () => {
    const { body } = await rates({ address: addressOn(delawareInside, oddIn(delawareInside)), date: DATE });
    expect(body.note).toMatch(new RegExp(`Answered from a SYNTHETIC boundary file \\(${V1.version}\\): made-up test data, not the state's`));
    expect(body.transit_district.note).toContain(`the SYNTHETIC boundary file ${V1.version}`);
    expect(body.boundary_record.version).toBe("OHB2026Q3JUN1-SYNTHETIC");
  });
});

describe("rung 2: the ZIP+4 range (4) of a ZIP+4, resolved_by zip4_range", () => {
  const range = pick(v1, "Delaware ZIP+4 range of 43081", (r) => r.recordType === "4" && r.zip5 === "43081" && r.countyFips === DELAWARE);
  const plus4 = range.plus4Low!;

  it("zip=43081-1234 and zip=430811234 resolve a split ZIP exactly, to the record's county and district", async () => {
    for (const zip of [`43081-${plus4}`, `43081${plus4}`]) {
      const { status, body } = await rates({ zip, date: DATE });
      expect(status, zip).toBe(200);
      expect(body, zip).toMatchObject({ county: "Delaware", resolved_by: "zip4_range", boundary_record: { record_type: "4", line: range.line } });
      expect(body.transit_district.status).toBe(range.transitCode === COTA_DELAWARE ? "inside" : "outside");
    }
    const five = await rates({ zip: "43081", date: DATE });
    expect(five.body.ambiguous).toBe(true);
  });

  it("an address the file has no range for, written with its ZIP+4, resolves by the ZIP+4 range", async () => {
    const { body } = await rates({ address: `1 Nowhere Rd, Westerville, OH 43081-${plus4}`, date: DATE });
    expect(body).toMatchObject({ resolved_by: "zip4_range", boundary_record: { line: range.line } });
  });
});

describe("rungs 3 and 4: what the file cannot settle goes to the geocoder, then the ZIP", () => {
  it("an address outside the file is geocoded (address_geocoding); one the geocoder cannot match falls back to its ZIP", async () => {
    const geocoded = await rates({ address: oneLine("westervilleInDelaware"), date: DATE });
    expect(geocoded.body).toMatchObject({ resolved_by: "address_geocoding", county: "Delaware" });
    expect(geocoded.body.boundary_record).toBeUndefined();
    const fallback = await rates({ address: "1 Nowhere Ln, Galena, OH 43021", date: DATE });
    expect(fallback.body).toMatchObject({ resolved_by: "zip_fallback", county: "Delaware" });
  });

  it("the answer says why the file did not settle the address, in boundary_file_miss; an answer from the file has none", async () => {
    const outside = await rates({ address: addressOn(delawareInside, 9001), date: DATE });
    expect(outside.body.boundary_file_miss).toEqual({ reason: "number_outside_ranges", candidates: [{ zip: "43081", street: streetKey(delawareInside) }] });
    const noStreet = await rates({ address: "150 Nowhere Ln, Westerville, OH 43081", date: DATE });
    expect(noStreet.body.boundary_file_miss).toEqual({ reason: "no_street_in_zip", candidates: [] });
    const notCovered = await rates({ address: "1 Nowhere Ln, Galena, OH 43021", date: DATE });
    expect(notCovered.body.boundary_file_miss).toEqual({ reason: "zip_not_in_file", candidates: [] });
    const fromFile = await rates({ address: addressOn(delawareInside, oddIn(delawareInside)), date: DATE });
    expect(fromFile.body).toMatchObject({ resolved_by: "address_range" });
    expect(fromFile.body.boundary_file_miss).toBeUndefined();
  });
});

describe("batches: rows the file settles make no network call; the rest go to the Census batch endpoint together", () => {
  it("POST /rates/batch: file rows answered offline, the others in one batch request", async () => {
    const before = { single: fake.requests.length, batch: fake.batchRequests.length };
    const lookups = [
      { id: "in", address: addressOn(delawareInside, oddIn(delawareInside)), date: DATE },
      { id: "out", address: addressOn(delawareOutside, evenIn(delawareOutside)), date: DATE },
      { id: "zip4", zip: `43081${pick(v1, "ZIP+4 range", (r) => r.recordType === "4" && r.zip5 === "43081").plus4Low}`, date: DATE },
      { id: "geo1", address: oneLine("dublinInUnion"), date: DATE },
      { id: "geo2", address: oneLine("marysville"), date: DATE },
    ];
    const res = await post("/api/v1/rates/batch", JSON.stringify({ lookups }), "application/json");
    const body = (await res.json()) as Record<string, any>;
    expect(body.results.map((r: any) => r.body.resolved_by)).toEqual(["address_range", "address_range", "zip4_range", "address_geocoding", "address_geocoding"]);
    expect(fake.batchRequests.length - before.batch).toBe(1);
    expect(fake.batchRequests.at(-1)!.rows).toHaveLength(2);
    expect(fake.requests.length - before.single).toBe(1);
  });

  it("an async job the file resolves entirely makes no upstream call, and its CSV names the record of every row", async () => {
    const blocks = v1.filter((r) => r.recordType === "A" && r.unit === null && r.effectiveTo === null && r.effectiveFrom <= DATE && r.suffix in SPELLED_SUFFIX).slice(0, 150);
    const csv = ["id,address,date", ...blocks.map((r, i) => `r${i},"${addressOn(r, r.parity === "O" ? oddIn(r) : evenIn(r))}",${DATE}`)].join("\n");
    const before = fake.requests.length;
    const res = await post("/api/v1/batches", csv, "text/csv");
    expect(res.status).toBe(202);
    const location = res.headers.get("location")!;
    for (let i = 0; i < 200; i++) {
      const job = (await (await api.get(location)).json()) as Record<string, any>;
      if (job.status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Parsed as CSV: a synthetic file's note has commas in it.
    const rows = parseCsv(await (await api.get(`${location}/results`, { authorization: `Bearer ${api.liveKey}`, accept: "text/csv" })).text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(blocks.length);
    rows.forEach((row, i) => {
      expect(row.resolved_by, JSON.stringify(row)).toBe("address_range");
      expect(row.boundary_version).toBe(V1.version);
      expect(Number(row.boundary_line)).toBe(blocks[i]!.line);
    });
    expect(fake.requests.length).toBe(before);
  });
});

describe("address columns as customer exports carry them work through the batch paths and answer from the file", () => {
  const blocks = () => v1.filter((r) => r.recordType === "A" && r.unit === null && r.effectiveTo === null && r.effectiveFrom <= DATE && r.suffix in SPELLED_SUFFIX).slice(0, 40);
  const street = (r: Lined) => [r.parity === "O" ? oddIn(r) : evenIn(r), r.preDirectional, r.streetName, r.suffix].filter(Boolean).join(" ");

  it("a CSV job with Street, City, State, Zip columns", async () => {
    const rows = blocks();
    const csv = ["ID,Street,City,State,Zip,Date", ...rows.map((r, i) => `r${i},${street(r)},Westerville,OH,${r.zip5},${DATE}`)].join("\n");
    const res = await post("/api/v1/batches", csv, "text/csv");
    expect(res.status).toBe(202);
    const location = res.headers.get("location")!;
    for (let i = 0; i < 200; i++) {
      const job = (await (await api.get(location)).json()) as Record<string, any>;
      if (job.status === "completed") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const lines = parseCsv(await (await api.get(`${location}/results`, { authorization: `Bearer ${api.liveKey}`, accept: "text/csv" })).text(), { columns: true }) as Array<Record<string, string>>;
    expect(lines.map((line) => Number(line.boundary_line))).toEqual(rows.map((r) => r.line));
  });

  it("an inline batch with address1, address2, city, state, postal_code", async () => {
    const rows = blocks().slice(0, 5);
    const lookups = rows.map((r, i) => ({ id: `i${i}`, address1: street(r), address2: "Suite 200", city: "Westerville", state: "OH", postal_code: r.zip5, date: DATE }));
    const body = (await (await post("/api/v1/rates/batch", JSON.stringify({ lookups }), "application/json")).json()) as Record<string, any>;
    expect(body.results.map((r: any) => r.body.boundary_record?.line)).toEqual(rows.map((r) => r.line));
  });

  it("the issue's export header `name, street, city, state, zip`: name is ignored and listed on the job; a row with no location names it", async () => {
    const rows = blocks().slice(0, 10);
    const csv = ["name, street, city, state, zip", ...rows.map((r, i) => `Customer ${i},${street(r)},${r.city},OH,${r.zip5}`), "Walk-in customer,,,,"].join("\n");
    const location = await submitted(await post("/api/v1/batches", csv, "text/csv"));
    const job = await completed(location);
    expect(job).toMatchObject({ format: "csv", ignored_columns: ["name"], total: rows.length + 1, failed: 1 });
    const lines = parseCsv(await (await api.get(`${location}/results`, { authorization: `Bearer ${api.liveKey}`, accept: "text/csv" })).text(), { columns: true }) as Array<Record<string, string>>;
    expect(lines.slice(0, rows.length).map((line) => [line.resolved_by, Number(line.boundary_line)])).toEqual(rows.map((r) => ["address_range", r.line]));
    expect(lines.at(-1)).toMatchObject({ status: "400", problem_detail: expect.stringContaining("This row's name is not read") });
  });

  it("an inline batch: an unread field is ignored, listed as ignored_fields, and named by a row it leaves with no location", async () => {
    const [r] = blocks();
    const lookups = [{ id: "a", name: "Acme", street: street(r!), city: r!.city, state: "OH", zip: r!.zip5, date: DATE }, { id: "b", adress: `${street(r!)}, ${r!.city}, OH ${r!.zip5}` }];
    const body = (await (await post("/api/v1/rates/batch", JSON.stringify({ lookups }), "application/json")).json()) as Record<string, any>;
    expect(body.ignored_fields).toEqual(["name", "adress"]);
    expect(body.results[0]).toMatchObject({ status: 200, body: { boundary_record: { line: r!.line } } });
    expect(body.results[1]).toMatchObject({ status: 400, body: { detail: expect.stringContaining("This row's adress is not read") } });
  });
});

async function submitted(res: Response): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(202);
  return res.headers.get("location")!;
}

async function completed(location: string): Promise<Record<string, any>> {
  for (let waited = 0; ; waited += 50) {
    const job = (await (await api.get(location)).json()) as Record<string, any>;
    if (job.status === "completed") return job;
    if (waited > 20_000) throw new Error(`job still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a file in Ohio's Finder layout is accepted unchanged, and its results come back in the same shape", () => {
  const blocks = () => v1.filter((r) => r.recordType === "A" && r.unit === null && r.effectiveTo === null && r.effectiveFrom <= DATE).slice(0, 12);
  const street = (r: Lined) => [r.parity === "O" ? oddIn(r) : evenIn(r), r.preDirectional, r.streetName, r.suffix].filter(Boolean).join(" ");
  const asOf = "06/01/2026";
  const good = () => blocks().map((r, i) => [`INV-${1000 + i}`, street(r), i % 2 === 0 ? "Suite 200" : "", r.city, "OH", r.zip5, "", asOf, ...(i % 3 === 0 ? ["125.00"] : [])]);
  const bad = [
    ["INV-2001", "1 Main St", "", "Columbus", "PA", "43215", "", asOf],
    ["INV-2002", "1 Main St", "", "Columbus", "OH", "43215", "", "12/31/2010"],
    ["INV-2003", "1 Main St", "", "Columbus", "OH", "43215", "", "2026-06-01"],
  ];
  /** No street the file or the geocoder knows, in a ZIP that spans two counties: no single rate. */
  const unplaced = ["INV-3001", "1 Nowhere Rd", "", "Westerville", "OH", "43081", "", asOf];
  let location = "";
  const download = async (query: string) => {
    const res = await api.get(`${location}/results${query}`, { authorization: `Bearer ${api.liveKey}` });
    expect(res.status).toBe(200);
    return { type: res.headers.get("content-type"), rows: parseCsv(await res.text(), { relax_column_count: true }) as string[][] };
  };

  beforeAll(async () => {
    const file = [...good(), ...bad, unplaced].map((fields) => fields.join(",")).join("\r\n");
    location = await submitted(await post("/api/v1/batches?format=finder", file, "text/csv"));
    expect(await completed(location)).toMatchObject({ format: "finder", total: good().length + bad.length + 1, failed: bad.length, ignored_columns: [] });
  }, 30_000);

  it("results (?format=finder, the default): headerless, each answered row's 9 Finder fields as sent, then its rate from the file", async () => {
    for (const query of ["?format=finder", ""]) {
      const { type, rows } = await download(query);
      expect(type).toBe("text/csv; charset=utf-8; header=absent");
      expect(rows.map((row) => row.slice(0, 9))).toEqual(good().map((fields) => [...fields, ...(fields.length === 8 ? [""] : [])]));
      expect(rows.map((row) => [row[10], row[15]])).toEqual(blocks().map((r) => [r.countyFips, "address_range"]));
      expect(rows.every((row) => row.length === 19 && row[17] === "2026-06-01" && row[18]!.includes("SYNTHETIC"))).toBe(true);
    }
  });

  it("errors (?format=finder-errors): each failed row's 9 Finder fields, then its row number, status, problem type and detail", async () => {
    const { rows } = await download("?format=finder-errors");
    const first = good().length + 1;
    expect(rows.map((row) => [...row.slice(0, 8), row[9], row[10]])).toEqual([
      ...bad.map((fields, i) => [...fields, String(first + i), i === 1 ? "422" : "400"]),
      [...unplaced, String(first + bad.length), "200"],
    ]);
    expect(rows.at(-1)![11]).toBe("ambiguous");
    expect(rows.at(-1)![12]).toMatch(/Candidate counties: .*\(39041\)/);
    expect(rows[0]![12]).toContain("Invalid state: must be OH");
    expect(rows[1]![11]).toMatch(/date-out-of-range$/);
    expect(rows[1]![12]).toContain("2018-01-01");
    expect(rows[2]![12]).toContain("MM/DD/YYYY");
  });

  it("the same job's Buckeye CSV names each answer's boundary record; a CSV job has no Finder files (400)", async () => {
    const lines = parseCsv((await (await api.get(`${location}/results?format=csv`, { authorization: `Bearer ${api.liveKey}` })).text()), { columns: true }) as Array<Record<string, string>>;
    expect(lines.slice(0, blocks().length).map((line) => [line.id, Number(line.boundary_line)])).toEqual(blocks().map((r, i) => [`INV-${1000 + i}`, r.line]));
    const csvJob = await submitted(await post("/api/v1/batches", "id,zip\n1,43215\n", "text/csv"));
    await completed(csvJob);
    const refused = await api.get(`${csvJob}/results?format=finder`, { authorization: `Bearer ${api.liveKey}` });
    expect(refused.status).toBe(400);
  });

  it("an inline batch item {finder: [its fields]} is read as a Finder row, under the same rules", async () => {
    const [fields] = good();
    const lookups = [{ finder: fields }, { finder: bad[0] }];
    const body = (await (await post("/api/v1/rates/batch", JSON.stringify({ lookups }), "application/json")).json()) as Record<string, any>;
    expect(body.results[0]).toMatchObject({ id: "INV-1000", status: 200, body: { resolved_by: "address_range", boundary_record: { line: blocks()[0]!.line } } });
    expect(body.results[1]).toMatchObject({ id: "INV-2001", status: 400, body: { invalid_params: [{ name: "state" }] } });
    expect(body.ignored_fields).toEqual([]);
  });

  it("?format= other than finder on the upload is a 400, and a Finder file sent as NDJSON a 415", async () => {
    expect((await post("/api/v1/batches?format=sst", "a,b\n", "text/csv")).status).toBe(400);
    expect((await post("/api/v1/batches?format=finder", good()[0]!.join(","), "application/x-ndjson")).status).toBe(415);
  });
});

describe("a version switch while requests run: no request sees half a file", () => {
  it("every answer during and after the import of a second version names one version and that version's record", async () => {
    const v2 = linedRecords(V2.records);
    const targets = v1.filter((r) => r.recordType === "A" && r.unit === null && r.effectiveTo === null && r.effectiveFrom <= DATE && r.houseLow === 100).slice(0, 8);
    const expected = targets.map((t) => ({ [V1.version]: t.line, [V2.version]: pick(v2, "the same block in V2", (r) => sameBlock(t, t.parity as "O" | "E")(r) && r.effectiveTo === null).line }));
    expect(expected.some((e) => e[V1.version] !== e[V2.version]), "the two versions number the records differently").toBe(true);
    let importing = true;
    const seen: string[] = [];
    const fire = async () => {
      while (importing) {
        const { body } = await post(
          "/api/v1/rates/batch",
          JSON.stringify({ lookups: targets.map((t) => ({ address: addressOn(t, t.parity === "O" ? oddIn(t) : evenIn(t)), date: DATE })) }),
          "application/json",
        ).then(async (res) => ({ body: (await res.json()) as Record<string, any> }));
        body.results.forEach((r: any, i: number) => {
          const record = r.body.boundary_record;
          expect(record.line, `${record.version} line`).toBe(expected[i]![record.version]);
          seen.push(record.version);
        });
        // Each list is probed in one version: never some rows in one and some in the other.
        expect(new Set(body.results.map((r: any) => r.body.boundary_record.version)).size).toBe(1);
        // In-process requests never wait on I/O: let the import's file reads have their turn.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const single = (t: Lined) => rates({ address: addressOn(t, t.parity === "O" ? oddIn(t) : evenIn(t)), date: DATE });
    // Asked before the switch, so the route keeps these answers for V1 (see the next assertions).
    for (const t of targets) expect((await single(t)).body.boundary_record.version).toBe(V1.version);
    const firing = [fire(), fire()];
    await importVersion(V2);
    // The running service picks the new version up once its refresh interval has passed on its clock.
    api.clock.advance(DEFAULT_REFRESH_MS);
    for (let i = 0; i < 100 && seen.at(-1) !== V2.version; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    importing = false;
    await Promise.all(firing);
    expect(seen).toContain(V1.version);
    expect(seen.at(-1)).toBe(V2.version);
    // A single lookup's answer is kept per file version: once V2 is active, none answers from V1's record.
    for (const [i, t] of targets.entries()) {
      const { body } = await single(t);
      expect(body.boundary_record).toMatchObject({ version: V2.version, line: expected[i]![V2.version] });
    }
  }, 90_000);
});
