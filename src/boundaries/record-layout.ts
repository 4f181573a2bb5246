/**
 * One row of the SST boundary file (research/ohio-rates-report.md §6, "Boundary file"): CSV without
 * a header, 89 columns. Pure: fields in, a validated record or the row's first problem out; and the
 * reverse, for the synthetic generator, so both sides share one layout.
 *
 * | col   | field |
 * |-------|-------|
 * | 1     | record type: A address range, 4 ZIP+4 range, Z whole ZIP5 range |
 * | 2, 3  | begin and end date, YYYYMMDD (end inclusive; 99991231 or 29991231 = open) |
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
  /** A: the ZIP5; 4 and Z: the high ZIP5 (equal to zip5 for a 4 record). */
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

/** Ohio's 88 county FIPS codes are the odd numbers 001–175. */
export const OHIO_COUNTY_CODES: ReadonlySet<string> = new Set(Array.from({ length: 88 }, (_, i) => String(2 * i + 1).padStart(3, "0")));

const OPEN_END = /^(9999|2999)1231$/;

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

function parity(text: string): Parity | null {
  return text === "O" || text === "E" || text === "B" ? text : null;
}

const HOUSE = /^\d{1,9}$/;
const ZIP5 = /^\d{5}$/;
const PLUS4 = /^\d{1,4}$/;

/** A validated record, or the problem with the row ("line N: ..."). Fields are trimmed here. */
export function parseBoundaryRow(raw: readonly string[], line: number): BoundaryRecord | string {
  if (raw.length !== COLUMNS) return `line ${line}: ${raw.length} columns, expected ${COLUMNS}`;
  const col = (n: number): string => {
    const field = raw[n - 1]!;
    return field === "" ? field : field.trim();
  };
  const type = col(1);
  if (type !== "A" && type !== "4" && type !== "Z") return `line ${line}: record type "${type}" is not A, 4 or Z`;
  const from = isoDate(col(2));
  if (!from) return `line ${line}: begin date "${col(2)}" is not YYYYMMDD`;
  let to: string | null = null;
  if (!OPEN_END.test(col(3))) {
    to = isoDate(col(3));
    if (!to) return `line ${line}: end date "${col(3)}" is not YYYYMMDD`;
    if (to < from) return `line ${line}: ends (${col(3)}) before it begins (${col(2)})`;
  }
  if (col(23) !== "39") return `line ${line}: state FIPS "${col(23)}" is not Ohio's 39`;
  if (col(24) !== "" && col(24) !== "39") return `line ${line}: state FIPS indicator "${col(24)}" is not 39`;
  if (!OHIO_COUNTY_CODES.has(col(25))) return `line ${line}: county FIPS "${col(25)}" is not one of Ohio's 88 counties`;

  const districts: SpecialDistrict[] = [];
  for (let t = 0; t < TRIPLETS; t++) {
    // Most triplets are empty: skip them before trimming anything.
    if (raw[29 + 3 * t] === "" && raw[30 + 3 * t] === "" && raw[31 + 3 * t] === "") continue;
    const [source, code, kind] = [col(30 + 3 * t), col(31 + 3 * t), col(32 + 3 * t)];
    if (source === "" && code === "" && kind === "") continue;
    if (code === "" || kind === "") return `line ${line}: special-district triplet ${t + 1} is incomplete`;
    if (kind === TRANSIT_DISTRICT_TYPE && !isKnownTransitCode(code)) return `line ${line}: transit code "${code}" is not a known Ohio transit authority or district`;
    districts.push({ source, code, type: kind });
  }
  const transitCode = districts.find((d) => d.type === TRANSIT_DISTRICT_TYPE)?.code ?? null;

  const common = { effectiveFrom: from, effectiveTo: to, city: col(15), countyFips: `39${col(25)}`, transitCode, districts };
  if (type === "A") {
    if (!HOUSE.test(col(4)) || !HOUSE.test(col(5))) return `line ${line}: house numbers "${col(4)}"–"${col(5)}" are not whole numbers`;
    const [low, high] = [Number(col(4)), Number(col(5))];
    if (low > high) return `line ${line}: low house number ${low} is above the high ${high}`;
    const side = parity(col(6));
    if (!side) return `line ${line}: odd/even flag "${col(6)}" is not O, E or B`;
    if (!/[A-Z0-9]/i.test(col(8))) return `line ${line}: an address range without a street name`;
    if (!ZIP5.test(col(16))) return `line ${line}: ZIP "${col(16)}" is not 5 digits`;
    if (col(17) !== "" && !PLUS4.test(col(17))) return `line ${line}: plus-4 "${col(17)}" is not 4 digits`;
    let unit: UnitRange | null = null;
    if (col(11) !== "" || col(12) !== "" || col(13) !== "") {
      const unitSide = col(14) === "" ? "B" : parity(col(14));
      if (col(12) === "" || col(13) === "" || !unitSide) return `line ${line}: secondary unit range "${col(11)} ${col(12)}–${col(13)} ${col(14)}" is incomplete`;
      if (HOUSE.test(col(12)) && HOUSE.test(col(13)) && Number(col(12)) > Number(col(13))) return `line ${line}: low unit ${col(12)} is above the high ${col(13)}`;
      unit = { designator: col(11), low: col(12), high: col(13), parity: unitSide };
    }
    const plus4 = col(17) === "" ? null : col(17).padStart(4, "0");
    return {
      ...common,
      recordType: "A",
      houseLow: low,
      houseHigh: high,
      parity: side,
      preDirectional: col(7),
      streetName: col(8),
      suffix: col(9),
      postDirectional: col(10),
      unit,
      zip5: col(16),
      zip5High: col(16),
      plus4Low: plus4,
      plus4High: plus4,
    };
  }
  if (!ZIP5.test(col(18)) || !ZIP5.test(col(20))) return `line ${line}: ZIP range "${col(18)}"–"${col(20)}" is not two 5-digit ZIPs`;
  if (col(18) > col(20)) return `line ${line}: low ZIP ${col(18)} is above the high ${col(20)}`;
  const none = { houseLow: null, houseHigh: null, parity: null, preDirectional: "", streetName: "", suffix: "", postDirectional: "", unit: null } as const;
  if (type === "Z") return { ...common, ...none, recordType: "Z", zip5: col(18), zip5High: col(20), plus4Low: null, plus4High: null };
  if (col(18) !== col(20)) return `line ${line}: a ZIP+4 range must stay within one ZIP5 (${col(18)}–${col(20)})`;
  if (!PLUS4.test(col(19)) || !PLUS4.test(col(21))) return `line ${line}: plus-4 range "${col(19)}"–"${col(21)}" is not 4 digits`;
  const [low4, high4] = [col(19).padStart(4, "0"), col(21).padStart(4, "0")];
  if (low4 > high4) return `line ${line}: low plus-4 ${low4} is above the high ${high4}`;
  return { ...common, ...none, recordType: "4", zip5: col(18), zip5High: col(20), plus4Low: low4, plus4High: high4 };
}

function yyyymmdd(iso: string | null): string {
  return iso === null ? "99991231" : iso.replaceAll("-", "");
}

/** The 89 fields of a record, in the file's layout (the inverse of parseBoundaryRow). */
export function formatBoundaryRow(record: BoundaryRecord): string[] {
  const f: string[] = new Array<string>(COLUMNS).fill("");
  const set = (n: number, value: string | number | null) => {
    f[n - 1] = value === null ? "" : String(value);
  };
  set(1, record.recordType);
  set(2, yyyymmdd(record.effectiveFrom));
  set(3, yyyymmdd(record.effectiveTo));
  if (record.recordType === "A") {
    set(4, record.houseLow);
    set(5, record.houseHigh);
    set(6, record.parity);
    set(7, record.preDirectional);
    set(8, record.streetName);
    set(9, record.suffix);
    set(10, record.postDirectional);
    if (record.unit) {
      set(11, record.unit.designator);
      set(12, record.unit.low);
      set(13, record.unit.high);
      set(14, record.unit.parity);
    }
    set(16, record.zip5);
    set(17, record.plus4Low);
  } else {
    set(18, record.zip5);
    set(19, record.plus4Low);
    set(20, record.zip5High);
    set(21, record.plus4High);
  }
  set(15, record.city);
  set(23, "39");
  set(24, "39");
  set(25, record.countyFips.slice(2));
  record.districts.forEach((district, t) => {
    set(30 + 3 * t, district.source);
    set(31 + 3 * t, district.code);
    set(32 + 3 * t, district.type);
  });
  return f;
}
