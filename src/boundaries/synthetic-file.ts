/**
 * SYNTHETIC boundary files, in the exact 89-column layout, built from data/ (ZIPs and their counties,
 * the countywide transit authorities and the partial transit districts). No real boundary file can
 * be downloaded here and none may be committed: tests and the benchmark generate what they need.
 * Deterministic (no randomness): the same options give the same file, so a test can read the
 * records it probes from the generator itself instead of hard-coding answers.
 *
 * What it holds, for every (ZIP, county) pair of data/zip-counties.csv, until the pair's share of
 * the requested record count is used up:
 * - one Z record per ZIP (the county with the largest land share);
 * - ZIP+4 ranges (4) of 50 plus-4s each, inside the pair's band of the ZIP's plus-4 space;
 * - address ranges (A): streets named from a list (state routes, county and township roads, a US
 *   highway and numbered streets among them), with and without pre-directionals, suffixes
 *   (some spelled out, as Pub 28 standardisation must fold them), blocks of 100 house numbers, an
 *   odd (O) and an even (E) record per block. In a county a transit district covers in part, the
 *   odd side is inside the district (its code) and the even side outside (no code); in a county
 *   with a countywide authority every record carries its code.
 * - every 10th block (k ≡ 3) the odd side changed on 2025-01-01: a record that ended 2024-12-31
 *   and its successor; every 10th block (k ≡ 7) the odd side changes on 2027-07-01: the current
 *   record ends 2027-06-30 and a future-dated one begins. In a split county the successor swaps
 *   inside and outside.
 * - every 20th block (k ≡ 11) one building (house number 100k + 11) has an apartment range
 *   APT 1–50 with the other district status, beside its block's records.
 *
 * `streets: "many"` lays the address ranges out as the state's file does instead: each ZIP its own
 * made-up street names ("WINVILBAR"), one block each, so a ZIP of 1,400 records holds several hundred
 * streets (a 2,000,000-record file: 390 in the median ZIP) rather than a few dozen common names. The blocks' changes and buildings follow the same
 * pattern, counted over the pair's blocks (k is then the pair's block count, not the street's).
 */
import { once } from "node:events";
import { createWriteStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { COUNTYWIDE_TRANSIT_CODES, DISTRICT_TRANSIT_CODES, TRANSIT_DISTRICT_TYPE } from "./transit-codes.ts";
import { formatBoundaryRow, type BoundaryRecord, type Parity, type SpecialDistrict } from "./record-layout.ts";

export interface SyntheticOptions {
  /** The folder holding zip-counties.csv and counties.csv. */
  readonly dataDir: string;
  /** How many records to write, exactly (at least one per ZIP). */
  readonly records: number;
  /** Only these ZIPs (default: every ZIP in zip-counties.csv). */
  readonly zips?: readonly string[];
  /** "few" (the default): the common names below, 40 blocks a street; "many": each ZIP its own names, one block each. */
  readonly streets?: "few" | "many";
}

const BEGIN = "2018-01-01";

/**
 * Every record's city ends with this word: the mark the importer reads to refuse a synthetic file
 * without --synthetic, whatever the file was renamed to.
 */
export const SYNTHETIC_CITY_MARK = " SYNTHETIC";

export function isSyntheticRecord(record: Pick<BoundaryRecord, "city">): boolean {
  return record.city.endsWith(SYNTHETIC_CITY_MARK);
}
export const PAST_CHANGE = "2025-01-01";
export const FUTURE_CHANGE = "2027-07-01";

/**
 * Street names, with Ohio's rural highways and numbered streets among the first (a small file
 * holds them too), written as Pub 28 standardises them; a highway takes no suffix.
 */
const NAMES = [
  "HIGH", "STATE ROUTE 37", "COUNTY ROAD 12", "5TH", "US HIGHWAY 23", "TOWNSHIP ROAD 45", "MAIN", "21ST", "BROAD",
  "MARKET", "PARK", "OAK", "MAPLE", "ELM", "WALNUT", "SPRING", "CHURCH", "WASHINGTON", "LINCOLN", "JEFFERSON",
  "JACKSON", "RIVER", "LAKE", "HILL", "SUNSET", "MEADOW", "FOREST", "MARTIN LUTHER KING JR", "SCIOTO", "OLENTANGY",
  "CUYAHOGA", "MIAMI", "BUCKEYE", "SCHROCK", "CLEVELAND", "LIVINGSTON", "HAMILTON", "MORSE", "INDIANOLA", "NEIL",
];
/** Pairs of (the spelling the file uses, the street's real suffix): a few spelled out, as in real files. */
const SUFFIXES = ["ST", "AVE", "RD", "DR", "BLVD", "LN", "CT", "PL", "WAY", "PKWY", "STREET", "AVENUE", "CIR", "TER"];
const PRE_DIRECTIONALS = ["", "N", "S", "E", "W"];
const HIGHWAY = /^(STATE ROUTE|COUNTY ROAD|TOWNSHIP ROAD|US HIGHWAY) \d+$/;
const BLOCKS_PER_STREET = 40;
/** Syllables of the made-up names of `streets: "many"`; none makes a Pub 28 suffix or directional, alone or joined. */
const SYLLABLES = ["WIN", "VIL", "BAR", "KEN", "DOR", "LAN", "MOR", "TAS", "PEL", "RID", "GAN", "SOM", "BEL", "COR", "FAL", "HAR", "JUN", "LOK", "NAR", "QUIN", "SAL", "TOR", "URB", "ZEL"];
const MANY_BLOCKS_PER_STREET = 1;

/** The made-up name of a ZIP's n-th street: three syllables, a ZIP's names all different, the ZIP's digits mixed in so ZIPs differ. */
function madeUpName(zip: string, n: number): string {
  const s = SYLLABLES.length;
  const at = (n + Number(zip) * 7919) % (s * s * s);
  return `${SYLLABLES[at % s]}${SYLLABLES[Math.floor(at / s) % s]}${SYLLABLES[Math.floor(at / (s * s)) % s]}`;
}

interface Pair {
  zip: string;
  fips: string;
  countyName: string;
  share: number;
  /** This pair's index among its ZIP's counties, and how many the ZIP has. */
  index: number;
  of: number;
}

function readPairs(dataDir: string, only: ReadonlySet<string> | null): Pair[] {
  const names = new Map(
    readFileSync(join(dataDir, "counties.csv"), "utf8")
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((line) => line.split(",") as [string, string]),
  );
  const rows = readFileSync(join(dataDir, "zip-counties.csv"), "utf8")
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(","))
    .filter(([zip]) => only === null || only.has(zip!));
  const byZip = new Map<string, string[][]>();
  for (const row of rows) byZip.set(row[0]!, [...(byZip.get(row[0]!) ?? []), row]);
  return [...byZip.values()].flatMap((group) =>
    group.map(([zip, fips, share], index) => ({ zip: zip!, fips: fips!, countyName: names.get(fips!) ?? fips!, share: Number(share), index, of: group.length })),
  );
}

function transit(code: string | null): SpecialDistrict[] {
  return code === null ? [] : [{ source: "ST", code, type: TRANSIT_DISTRICT_TYPE }];
}

/** The codes a record in this county carries: [inside, outside] of the district; equal when the whole county is alike. */
function countyTransit(fips: string): [string | null, string | null] {
  const district = [...DISTRICT_TRANSIT_CODES].find(([, county]) => county === fips)?.[0];
  if (district !== undefined) return [district, null];
  const countywide = [...COUNTYWIDE_TRANSIT_CODES].find(([, county]) => county === fips)?.[0] ?? null;
  return [countywide, countywide];
}

function* pairRecords(pair: Pair, budget: number, withZ: boolean, many: boolean): Generator<BoundaryRecord> {
  let left = budget;
  const [inside, outside] = countyTransit(pair.fips);
  const base = {
    effectiveFrom: BEGIN,
    effectiveTo: null,
    city: `${pair.countyName.toUpperCase()}${SYNTHETIC_CITY_MARK}`,
    countyFips: pair.fips,
    unit: null,
  } as const;
  const none = { houseLow: null, houseHigh: null, parity: null, preDirectional: "", streetName: "", suffix: "", postDirectional: "" } as const;
  if (withZ && left > 0) {
    left--;
    yield { ...base, ...none, recordType: "Z", zip5: pair.zip, zip5High: pair.zip, plus4Low: null, plus4High: null, transitCode: outside, districts: transit(outside) };
  }
  // A tenth of the budget (at least one) for ZIP+4 ranges, in this pair's band of 0001–9999.
  const bandLow = Math.floor((pair.index * 9999) / pair.of) + 1;
  const bandHigh = Math.floor(((pair.index + 1) * 9999) / pair.of);
  for (let low = bandLow, n = 0; left > 0 && low <= bandHigh && n < Math.max(1, Math.floor(budget / 10)); low += 50, n++) {
    left--;
    const code = n % 2 === 0 ? inside : outside;
    const plus4 = (value: number) => String(value).padStart(4, "0");
    yield { ...base, ...none, recordType: "4", zip5: pair.zip, zip5High: pair.zip, plus4Low: plus4(low), plus4High: plus4(Math.min(low + 49, bandHigh)), transitCode: code, districts: transit(code) };
  }
  let blocks = 0;
  for (let street = pair.index * 1000; left > 0; street++) {
    const name = many ? madeUpName(pair.zip, street) : NAMES[street % NAMES.length]!;
    const suffix = HIGHWAY.test(name) ? "" : SUFFIXES[(many ? street : Math.floor(street / NAMES.length)) % SUFFIXES.length]!;
    const pre = PRE_DIRECTIONALS[(many ? street : Math.floor(street / (NAMES.length * SUFFIXES.length))) % PRE_DIRECTIONALS.length]!;
    const city = base.city;
    const range = (low: number, high: number, parity: Parity, code: string | null, from = BEGIN, to: string | null = null): BoundaryRecord => ({
      recordType: "A", effectiveFrom: from, effectiveTo: to, houseLow: low, houseHigh: high, parity,
      preDirectional: pre, streetName: name, suffix, postDirectional: "", unit: null, city,
      zip5: pair.zip, zip5High: pair.zip, plus4Low: null, plus4High: null, countyFips: pair.fips, transitCode: code, districts: transit(code),
    });
    for (let k = 1; k <= (many ? MANY_BLOCKS_PER_STREET : BLOCKS_PER_STREET) && left > 0; k++) {
      const [low, high] = [100 * k, 100 * k + 99];
      const kind = many ? ++blocks : k;
      const odd: BoundaryRecord[] =
        kind % 10 === 3
          ? [range(low, high, "O", outside, BEGIN, "2024-12-31"), range(low, high, "O", inside, PAST_CHANGE)]
          : kind % 10 === 7
            ? [range(low, high, "O", inside, BEGIN, "2027-06-30"), range(low, high, "O", outside, FUTURE_CHANGE)]
            : [range(low, high, "O", inside)];
      const building: BoundaryRecord[] =
        kind % 20 === 11 ? [{ ...range(low + 11, low + 11, "O", outside), unit: { designator: "APT", low: "1", high: "50", parity: "B" } }] : [];
      for (const record of [...odd, range(low, high, "E", outside), ...building]) {
        if (left === 0) return;
        left--;
        yield record;
      }
    }
  }
}

/** The records of a synthetic file, in file order (line n is the n-th record). */
export function* syntheticBoundaryRecords(options: SyntheticOptions): Generator<BoundaryRecord> {
  const pairs = readPairs(options.dataDir, options.zips ? new Set(options.zips) : null);
  const zips = new Set(pairs.map((p) => p.zip)).size;
  if (pairs.length === 0) throw new Error("no ZIPs to generate records for");
  if (options.records < zips) throw new Error(`${options.records} records cannot cover ${zips} ZIPs (one Z record each)`);
  // One record for each ZIP's Z record first, the rest shared evenly between the (ZIP, county) pairs.
  const rest = options.records - zips;
  const each = Math.floor(rest / pairs.length);
  let extra = rest - each * pairs.length;
  for (const pair of pairs) {
    const budget = (pair.index === 0 ? 1 : 0) + each + (extra > 0 ? 1 : 0);
    if (extra > 0) extra--;
    yield* pairRecords(pair, budget, pair.index === 0, options.streets === "many");
  }
}

function csvLine(fields: readonly string[]): string {
  let line = "";
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    // Most of the 89 fields are empty: test only the others for characters that need quoting.
    line += (i === 0 ? "" : ",") + (f !== "" && /[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f);
  }
  return line;
}

export interface WrittenFile {
  path: string;
  records: number;
  bytes: number;
}

/**
 * Streams a synthetic file to `path` (name it after a version and mark it synthetic, e.g.
 * OHB2026Q4SEP17-synthetic.csv): a few hundred kilobytes in memory whatever the record count.
 */
export async function writeSyntheticBoundaryFile(path: string, options: SyntheticOptions): Promise<WrittenFile> {
  const out = createWriteStream(path);
  let records = 0;
  let bytes = 0;
  let chunk: string[] = [];
  const flush = async () => {
    const text = chunk.join("");
    chunk = [];
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, "drain");
  };
  try {
    for (const record of syntheticBoundaryRecords(options)) {
      chunk.push(`${csvLine(formatBoundaryRow(record))}\r\n`);
      records++;
      if (chunk.length === 2000) await flush();
    }
    await flush();
  } finally {
    out.end();
    await once(out, "close");
  }
  return { path, records, bytes };
}
