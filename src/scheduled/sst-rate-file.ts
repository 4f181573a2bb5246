/**
 * Reads a Streamlined Sales Tax rate file (docs/guides/data.md): CSV without a header,
 * nine columns per row — state FIPS, jurisdiction type, jurisdiction code, four rates (general and
 * food/drug, intra- and interstate; one figure in Ohio), begin and end date (YYYYMMDD, end
 * inclusive, 99991231 = open). Ohio's types: 45 state ("39"), 00 county (3-digit county FIPS),
 * 63 transit authority or district (5 digits). Pure: text in, rows or the first problem out.
 *
 * Read as member states write it (docs/guides/boundary-file.md, "Files as states publish them"): a
 * byte-order mark, CRLF or LF, a 10th column left empty, open ends 99991231, 29991231 or 20991231,
 * and no line break after the last row. A file cut short shows in its last row (too few columns, a
 * partial date), or in far fewer rows than the last file accepted (reconcile.ts).
 */
import { addDays, isIsoDate, type IsoDate } from "../rates/calendar.ts";
import { parseRate, type Millionths } from "../rates/millionths.ts";

export type JurisdictionType = "state" | "county" | "transit";

export interface SstRow {
  line: number;
  type: JurisdictionType;
  code: string;
  rate: Millionths;
  from: IsoDate;
  /** Exclusive end, as in the rate engine; null while open. */
  to: IsoDate | null;
}

export type SstParse = { ok: true; rows: SstRow[] } | { ok: false; error: string };

const TYPES: Record<string, JurisdictionType> = { "45": "state", "00": "county", "63": "transit" };
const CODE_SHAPE: Record<JurisdictionType, RegExp> = { state: /^39$/, county: /^\d{3}$/, transit: /^\d{5}$/ };
/** Ohio's sentinel is 99991231; other states write 29991231 or 20991231: each means open, no end. */
const OPEN_END = /^(9999|2999|2099)1231$/;
const COLUMNS = 9;

/**
 * Every local levy moves in steps of 0.05% (R.C. 5739.021, 5739.023, 5739.026). 3% is far above
 * any single levy the law allows, yet admits real figures the statute's headline caps do not
 * (Coshocton's 2.00%, docs/decisions/README.md); what it catches is a slipped decimal point (0.15 for 0.015).
 */
const STEP = 500;
const CEILING = 30_000;

function yyyymmdd(text: string): IsoDate | null {
  if (!/^\d{8}$/.test(text)) return null;
  const iso = `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
  return isIsoDate(iso) ? iso : null;
}

function parseLine(row: string[], line: number): SstRow | string {
  // A trailing comma (a 10th, empty column) is how some states end every row.
  const fields = row.length === COLUMNS + 1 && row[COLUMNS]!.trim() === "" ? row.slice(0, COLUMNS) : row;
  if (fields.length !== COLUMNS) return `line ${line}: ${row.length} columns, expected ${COLUMNS} (or ${COLUMNS + 1} with the last one empty)`;
  const [state, typeCode, code, general, ...rest] = fields.map((f) => f.trim()) as [string, string, string, string, ...string[]];
  const [, , , begin, end] = rest as [string, string, string, string, string];
  if (state !== "39") return `line ${line}: state FIPS "${state}" is not Ohio's 39`;
  const type = TYPES[typeCode];
  if (!type) return `line ${line}: jurisdiction type "${typeCode}" is not 45, 00 or 63`;
  if (!CODE_SHAPE[type].test(code)) return `line ${line}: "${code}" is not a ${type} jurisdiction code`;
  let rate: Millionths;
  try {
    rate = parseRate(general);
    for (const other of rest.slice(0, 3)) parseRate(other);
  } catch {
    return `line ${line}: a rate column is not a decimal rate`;
  }
  if (type !== "state" && (rate % STEP !== 0 || rate > CEILING)) {
    return `line ${line}: rate ${general} is not a multiple of 0.05% up to 3%`;
  }
  const from = yyyymmdd(begin);
  if (!from) return `line ${line}: begin date "${begin}" is not YYYYMMDD`;
  let to: IsoDate | null = null;
  if (!OPEN_END.test(end)) {
    const last = yyyymmdd(end);
    if (!last) return `line ${line}: end date "${end}" is not YYYYMMDD`;
    if (last < from) return `line ${line}: ends before it begins`;
    to = addDays(last, 1);
  }
  return { line, type, code, rate, from, to };
}

/** Fails on the first malformed row (naming a cut when it is the last and unterminated), on overlapping rows for one jurisdiction, and on an empty file. */
export function parseSstRateFile(text: string): SstParse {
  const body = text.replace(/^\uFEFF/, "");
  const rows: SstRow[] = [];
  const lines = body.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    if (raw.trim() === "") continue;
    const parsed = parseLine(raw.split(","), index + 1);
    if (typeof parsed === "string") {
      // No line break after the last row is how some states end a file; a malformed last row with none is a cut.
      const unterminated = index === lines.length - 1;
      return { ok: false, error: unterminated ? `${parsed}; the last row ends without a line break: the file was probably cut short` : parsed };
    }
    rows.push(parsed);
  }
  if (rows.length === 0) return { ok: false, error: "the file has no rows" };
  const byJurisdiction = new Map<string, SstRow[]>();
  for (const row of rows) {
    const key = `${row.type}:${row.code}`;
    byJurisdiction.set(key, [...(byJurisdiction.get(key) ?? []), row]);
  }
  for (const group of byJurisdiction.values()) {
    const sorted = [...group].sort((a, b) => a.from.localeCompare(b.from));
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      if (previous.to === null || previous.to > sorted[i]!.from) {
        return { ok: false, error: `lines ${previous.line} and ${sorted[i]!.line}: overlapping periods for ${sorted[i]!.type} ${sorted[i]!.code}` };
      }
    }
  }
  return { ok: true, rows };
}
