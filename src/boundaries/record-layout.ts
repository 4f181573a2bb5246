/**
 * One row of the SST boundary file (docs/guides/boundary-file.md): CSV without
 * a header, 89 columns. Pure: fields in, a validated record, a row to skip (it can answer no Ohio
 * lookup) or the row's first problem out; and the reverse, for the synthetic generator, so both
 * sides share one layout.
 *
 * Read as member states really write it (docs/guides/boundary-file.md, "Files as states publish
 * them"): a 90th column left empty is dropped, record types and flags may be lower case, an open
 * end may be 99991231, 29991231 or 20991231, a plus-4 may be unpadded, and a ZIP+4 range may run
 * across ZIP5s.
 *
 * | col   | field |
 * |-------|-------|
 * | 1     | record type: A address range, 4 ZIP+4 range, Z whole ZIP5 range |
 * | 2, 3  | begin and end date, YYYYMMDD (end inclusive; 99991231, 29991231 or 20991231 = open) |
 * | 4, 5  | low and high house number (A) |
 * | 6     | O odd, E even, B both (A) |
 * | 7–10  | street pre-direction, name, suffix, post-direction (A) |
 * | 11–14 | secondary unit: designator, low, high, O/E/B (A, optional) |
 * | 15    | city name |
 * | 16, 17| ZIP5 and plus-4 (A; plus-4 optional) |
 * | 18–21 | ZIP5 low, plus-4 low, ZIP5 high, plus-4 high (4 and Z; plus-4 may be unpadded) |
 * | 22    | composite SER code (kept, not used) |
 * | 23, 24| state FIPS "39", and its duplicate (may be blank) |
 * | 25    | county FIPS, 3 digits |
 * | 26–29 | FIPS place, place class, longitude, latitude (kept out of the index) |
 * | 30–89 | 20 triplets: code source, special-district code, type; Ohio's transit is type 63 |
 */
import { isKnownTransitCode, TRANSIT_DISTRICT_TYPE } from "./transit-codes.ts";

export const COLUMNS = 89;
export const TRIPLETS = 20;
/**
 * A ZIP+4 range may run across ZIP5s (seen in Minnesota's file: 55012-0011 to 55013-9999); it is
 * stored as one range per ZIP5 (zip4Segments). One wider than this is no quirk but a broken row:
 * thousands of ZIP5s under one jurisdiction would be a whole region.
 */
export const MAX_ZIP5S_PER_ZIP4_RANGE = 10;

export type RecordType = "A" | "4" | "Z";
export type Parity = "O" | "E" | "B";

export interface UnitRange {
  readonly designator: string;
  readonly low: string;
  readonly high: string;
  readonly parity: Parity;
}

export interface SpecialDistrict {
  readonly source: string;
  readonly code: string;
  readonly type: string;
}

/** A record as the file states it (the street unnormalised, so the generator can write any spelling). */
export interface BoundaryRecord {
  readonly recordType: RecordType;
  /** YYYY-MM-DD */
  readonly effectiveFrom: string;
  /** YYYY-MM-DD, the last day the record applies; null = open. */
  readonly effectiveTo: string | null;
  readonly houseLow: number | null;
  readonly houseHigh: number | null;
  readonly parity: Parity | null;
  readonly preDirectional: string;
  readonly streetName: string;
  readonly suffix: string;
  readonly postDirectional: string;
  readonly unit: UnitRange | null;
  readonly city: string;
  /** A: the ZIP5; 4 and Z: the low ZIP5. */
  readonly zip5: string;
  /** A: the ZIP5; 4 and Z: the high ZIP5 (a 4 record may run into a later ZIP5: zip4Segments splits it). */
  readonly zip5High: string;
  /** 4 records: the plus-4 range, zero-padded; A records: the plus-4 if given (low = high); else null. */
  readonly plus4Low: string | null;
  readonly plus4High: string | null;
  /** "39049" */
  readonly countyFips: string;
  /** The first type-63 triplet's code, or null. */
  readonly transitCode: string | null;
  readonly districts: readonly SpecialDistrict[];
}

/**
 * Why a row is skipped: it is well formed but can answer no Ohio lookup. Counted in the import
 * report, never dropped silently.
 */
export type SkipReason = "no-county" | "other-state";

export interface SkippedRow {
  readonly skip: SkipReason;
}

/** Ohio's 88 county FIPS codes are the odd numbers 001–175. */
export const OHIO_COUNTY_CODES: ReadonlySet<string> = new Set(Array.from({ length: 88 }, (_, i) => String(2 * i + 1).padStart(3, "0")));

/**
 * Open ends: Ohio writes 99991231, other member states 29991231 (Minnesota) or 20991231 (Kansas).
 * Each means "until further notice", so each is read as no end (null), never as a real last day.
 */
export const OPEN_END = /^(9999|2999|2099)1231$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Dates repeat across millions of rows: each distinct YYYYMMDD is checked once. */
const isoDates = new Map<string, string | null>();

function isoDate(text: string): string | null {
  const known = isoDates.get(text);
  if (known !== undefined) return known;
  let iso: string | null = null;
  if (/^\d{8}$/.test(text)) {
    const [year, month, day] = [Number(text.slice(0, 4)), Number(text.slice(4, 6)), Number(text.slice(6, 8))];
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const last = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
    if (year >= 1900 && day >= 1 && day <= last) iso = `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
  }
  if (isoDates.size < 100_000) isoDates.set(text, iso);
  return iso;
}

/** Flags are compared in upper case: some states write them in lower case. */
function parity(text: string): Parity | null {
  const flag = text.toUpperCase();
  return flag === "O" || flag === "E" || flag === "B" ? flag : null;
}

const HOUSE = /^\d{1,9}$/;
const ZIP5 = /^\d{5}$/;
const PLUS4 = /^\d{1,4}$/;

/** Column n (1-based), trimmed. */
function field(raw: readonly string[], n: number): string {
  const value = raw[n - 1]!;
  return value === "" ? value : value.trim();
}

/** The row's 89 fields: a 90th column is accepted only empty (a trailing comma some states write). */
function columnsOf(raw: readonly string[]): readonly string[] | null {
  if (raw.length === COLUMNS) return raw;
  if (raw.length === COLUMNS + 1 && raw[COLUMNS]!.trim() === "") return raw.slice(0, COLUMNS);
  return null;
}

/**
 * A validated record, a row to skip, or the problem with the row ("line N: ..."). Fields are
 * trimmed here. A row is skipped only when it is otherwise well formed (its type and dates read)
 * and names another state or no county: corrupt rows still refuse the file.
 */
export function parseBoundaryRow(row: readonly string[], line: number): BoundaryRecord | SkippedRow | string {
  const raw = columnsOf(row);
  if (raw === null) return `line ${line}: ${row.length} columns, expected ${COLUMNS} (or ${COLUMNS + 1} with the last one empty)`;
  const type = field(raw, 1).toUpperCase();
  if (type !== "A" && type !== "4" && type !== "Z") return `line ${line}: record type "${field(raw, 1)}" is not A, 4 or Z`;
  const [begin, end] = [field(raw, 2), field(raw, 3)];
  const from = isoDate(begin);
  if (!from) return `line ${line}: begin date "${begin}" is not YYYYMMDD`;
  let to: string | null = null;
  if (!OPEN_END.test(end)) {
    to = isoDate(end);
    if (!to) return `line ${line}: end date "${end}" is not YYYYMMDD`;
    if (to < from) return `line ${line}: ends (${end}) before it begins (${begin})`;
  }
  const [state, stateAgain, county] = [field(raw, 23), field(raw, 24), field(raw, 25)];
  if (/^\d{2}$/.test(state) && state !== "39") return { skip: "other-state" };
  if (state !== "39") return `line ${line}: state FIPS "${state}" is not Ohio's 39`;
  if (stateAgain !== "" && stateAgain !== "39") return `line ${line}: state FIPS indicator "${stateAgain}" is not 39`;
  if (county === "") return { skip: "no-county" };
  if (!OHIO_COUNTY_CODES.has(county)) return `line ${line}: county FIPS "${county}" is not one of Ohio's 88 counties`;

  const districts = readDistricts(raw, line);
  if (typeof districts === "string") return districts;
  let transitCode: string | null = null;
  for (const district of districts) {
    if (district.type === TRANSIT_DISTRICT_TYPE) {
      transitCode = district.code;
      break;
    }
  }
  const countyFips = `39${county}`;
  const city = field(raw, 15);
  return type === "A" ? addressRange(raw, line, from, to, city, countyFips, transitCode, districts) : zipRange(raw, line, type, from, to, city, countyFips, transitCode, districts);
}

function readDistricts(raw: readonly string[], line: number): SpecialDistrict[] | string {
  const districts: SpecialDistrict[] = [];
  for (let t = 0; t < TRIPLETS; t++) {
    // Most triplets are empty: skip them before trimming anything.
    if (raw[29 + 3 * t] === "" && raw[30 + 3 * t] === "" && raw[31 + 3 * t] === "") continue;
    const [source, code, kind] = [field(raw, 30 + 3 * t), field(raw, 31 + 3 * t), field(raw, 32 + 3 * t)];
    if (source === "" && code === "" && kind === "") continue;
    if (code === "" || kind === "") return `line ${line}: special-district triplet ${t + 1} is incomplete`;
    if (kind === TRANSIT_DISTRICT_TYPE && !isKnownTransitCode(code)) return `line ${line}: transit code "${code}" is not a known Ohio transit authority or district`;
    districts.push({ source, code, type: kind });
  }
  return districts;
}

function addressRange(
  raw: readonly string[], line: number, from: string, to: string | null, city: string, countyFips: string, transitCode: string | null, districts: SpecialDistrict[],
): BoundaryRecord | string {
  const [lowText, highText] = [field(raw, 4), field(raw, 5)];
  if (!HOUSE.test(lowText) || !HOUSE.test(highText)) return `line ${line}: house numbers "${lowText}"–"${highText}" are not whole numbers`;
  const [low, high] = [Number(lowText), Number(highText)];
  if (low > high) return `line ${line}: low house number ${low} is above the high ${high}`;
  const side = parity(field(raw, 6));
  if (!side) return `line ${line}: odd/even flag "${field(raw, 6)}" is not O, E or B`;
  const streetName = field(raw, 8);
  if (!/[A-Z0-9]/i.test(streetName)) return `line ${line}: an address range without a street name`;
  const [zip5, plus4Text] = [field(raw, 16), field(raw, 17)];
  if (!ZIP5.test(zip5)) return `line ${line}: ZIP "${zip5}" is not 5 digits`;
  if (plus4Text !== "" && !PLUS4.test(plus4Text)) return `line ${line}: plus-4 "${plus4Text}" is not 4 digits`;
  let unit: UnitRange | null = null;
  const [designator, unitLow, unitHigh, unitParity] = [field(raw, 11), field(raw, 12), field(raw, 13), field(raw, 14)];
  if (designator !== "" || unitLow !== "" || unitHigh !== "") {
    const unitSide = unitParity === "" ? "B" : parity(unitParity);
    if (unitLow === "" || unitHigh === "" || !unitSide) return `line ${line}: secondary unit range "${designator} ${unitLow}–${unitHigh} ${unitParity}" is incomplete`;
    if (HOUSE.test(unitLow) && HOUSE.test(unitHigh) && Number(unitLow) > Number(unitHigh)) return `line ${line}: low unit ${unitLow} is above the high ${unitHigh}`;
    unit = { designator, low: unitLow, high: unitHigh, parity: unitSide };
  }
  const plus4 = plus4Text === "" ? null : plus4Text.padStart(4, "0");
  return {
    recordType: "A", effectiveFrom: from, effectiveTo: to, houseLow: low, houseHigh: high, parity: side,
    preDirectional: field(raw, 7), streetName, suffix: field(raw, 9), postDirectional: field(raw, 10), unit, city,
    zip5, zip5High: zip5, plus4Low: plus4, plus4High: plus4, countyFips, transitCode, districts,
  };
}

function zipRange(
  raw: readonly string[], line: number, type: "4" | "Z", from: string, to: string | null, city: string, countyFips: string, transitCode: string | null, districts: SpecialDistrict[],
): BoundaryRecord | string {
  const [zip5, zip5High] = [field(raw, 18), field(raw, 20)];
  if (!ZIP5.test(zip5) || !ZIP5.test(zip5High)) return `line ${line}: ZIP range "${zip5}"–"${zip5High}" is not two 5-digit ZIPs`;
  if (zip5 > zip5High) return `line ${line}: low ZIP ${zip5} is above the high ${zip5High}`;
  let plus4Low: string | null = null;
  let plus4High: string | null = null;
  if (type === "4") {
    const span = Number(zip5High) - Number(zip5) + 1;
    if (span > MAX_ZIP5S_PER_ZIP4_RANGE) return `line ${line}: a ZIP+4 range across ${span} ZIP5s (${zip5}–${zip5High}; at most ${MAX_ZIP5S_PER_ZIP4_RANGE})`;
    const [lowText, highText] = [field(raw, 19), field(raw, 21)];
    if (!PLUS4.test(lowText) || !PLUS4.test(highText)) return `line ${line}: plus-4 range "${lowText}"–"${highText}" is not 4 digits`;
    [plus4Low, plus4High] = [lowText.padStart(4, "0"), highText.padStart(4, "0")];
    if (zip5 === zip5High && plus4Low > plus4High) return `line ${line}: low plus-4 ${plus4Low} is above the high ${plus4High}`;
  }
  return {
    recordType: type, effectiveFrom: from, effectiveTo: to, houseLow: null, houseHigh: null, parity: null,
    preDirectional: "", streetName: "", suffix: "", postDirectional: "", unit: null, city,
    zip5, zip5High, plus4Low, plus4High, countyFips, transitCode, districts,
  };
}

/**
 * A ZIP+4 range as one range per ZIP5, the shape the probe reads (one ZIP5, a plus-4 range in it):
 * 55012-0011…55013-9999 is 55012-0011…9999 and 55013-0000…9999. Any other record is itself.
 */
export function zip4Segments(record: BoundaryRecord): BoundaryRecord[] {
  if (record.recordType !== "4" || record.zip5 === record.zip5High) return [record];
  const segments: BoundaryRecord[] = [];
  for (let zip = Number(record.zip5); zip <= Number(record.zip5High); zip++) {
    const zip5 = String(zip).padStart(5, "0");
    segments.push({
      ...record, zip5, zip5High: zip5,
      plus4Low: zip5 === record.zip5 ? record.plus4Low : "0000",
      plus4High: zip5 === record.zip5High ? record.plus4High : "9999",
    });
  }
  return segments;
}

function yyyymmdd(iso: string | null): string {
  return iso === null ? "99991231" : iso.replaceAll("-", "");
}

/** The 89 fields of a record, in the file's layout (the inverse of parseBoundaryRow). */
export function formatBoundaryRow(record: BoundaryRecord): string[] {
  const f: string[] = new Array<string>(COLUMNS).fill("");
  const text = (value: string | number | null) => (value === null ? "" : String(value));
  f[0] = record.recordType;
  f[1] = yyyymmdd(record.effectiveFrom);
  f[2] = yyyymmdd(record.effectiveTo);
  if (record.recordType === "A") {
    f[3] = text(record.houseLow);
    f[4] = text(record.houseHigh);
    f[5] = text(record.parity);
    f[6] = record.preDirectional;
    f[7] = record.streetName;
    f[8] = record.suffix;
    f[9] = record.postDirectional;
    if (record.unit) [f[10], f[11], f[12], f[13]] = [record.unit.designator, record.unit.low, record.unit.high, record.unit.parity];
    f[15] = record.zip5;
    f[16] = text(record.plus4Low);
  } else {
    f[17] = record.zip5;
    f[18] = text(record.plus4Low);
    f[19] = record.zip5High;
    f[20] = text(record.plus4High);
  }
  f[14] = record.city;
  f[22] = "39";
  f[23] = "39";
  f[24] = record.countyFips.slice(2);
  for (let t = 0; t < record.districts.length; t++) {
    const district = record.districts[t]!;
    [f[29 + 3 * t], f[30 + 3 * t], f[31 + 3 * t]] = [district.source, district.code, district.type];
  }
  return f;
}
