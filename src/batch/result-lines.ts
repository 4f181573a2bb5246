/**
 * Batch results, one line per input row in input order, the same for a job's download and for
 * `buckeye batch`: as CSV, the figures a back office needs in columns; as NDJSON, `{row, id,
 * status, body}` with the full record or problem object, as POST /rates/batch answers each item.
 */
import { problemBody } from "../lookup/item-answers.ts";
import type { ItemFailure, RowResult } from "../lookup/item-result.ts";

export type ResultFormat = "csv" | "ndjson";

/** The parts of a problem object (docs/api/errors.md) a CSV line shows; an NDJSON line carries the whole object. */
export interface ProblemSummary {
  type: string;
  status: number;
  detail: string;
}

/** Renders a failed row as the problem object a single lookup would have answered (the API's problem table). */
export type ProblemOf = (row: RowResult) => ProblemSummary;

/** The problem objects of a job's failed rows, as the job's download and `buckeye batch` write them: with the errors reference and the job's request id. */
export function rowProblems(errorsUrl: string, requestId: string): ProblemOf {
  return (row) => problemBody(row.result as ItemFailure, errorsUrl, requestId);
}

/**
 * The CSV's columns. New columns go at the end, so a sheet or a script that reads the file by position
 * keeps working: `ambiguous` is `true` on a row whose ZIP spans counties and that has no single rate
 * (status 200, as a single lookup answers it, with `candidate_fips` and `lowest_combined_rate` in
 * place of a rate), `false` on every other row. `unread_columns` names, space-separated, the row's columns
 * that look like part of an address, held a value and were not read (the row was answered from less than
 * it was sent; src/lookup/export-headers.ts); blank on every other row.
 */
export const RESULT_COLUMNS = [
  "row", "id", "status", "county", "fips", "combined_rate", "state", "county_permissive", "transit_authority",
  "transit_status", "resolved_by", "effective_from", "date_evaluated", "candidate_fips", "lowest_combined_rate",
  "note", "problem_type", "problem_detail", "boundary_version", "boundary_record_type", "boundary_line", "ambiguous",
  "unread_columns",
] as const;

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that begins with =, +, -, @, tab or CR as a
 * formula, and ids, notes and problem details can carry a client's text. Such a text cell gets a
 * leading apostrophe, which spreadsheets show as text. Two kinds pass unchanged: numbers we write
 * (rates, row numbers, statuses: never negative, and a number is never a formula) and a text that
 * is a plain signed number such as an id of "-42" or "+15551234567", which a spreadsheet reads as
 * a number, not a formula. A cell with a semicolon is quoted too, so that a spreadsheet in a locale
 * that separates by ";" cannot split it into a cell that begins with "=".
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]\d+(\.\d+)?$/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text) && !SIGNED_NUMBER.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(cell).join(",")}\n`;
}

export const RESULT_HEADER = csvLine(RESULT_COLUMNS);

/** An NDJSON line's `unread_columns`, only on a row that has some, so other lines keep their shape. */
const unreadOf = (row: RowResult) => (row.unread_columns ? { unread_columns: row.unread_columns } : {});

export function resultNdjsonLine(row: RowResult, problemOf: ProblemOf): string {
  const { result } = row;
  if (result.kind === "failure") {
    const problem = problemOf(row);
    return `${JSON.stringify({ row: row.row, id: row.id, status: problem.status, body: problem, ...unreadOf(row) })}\n`;
  }
  return `${JSON.stringify({ row: row.row, id: row.id, status: 200, body: result.body, ...unreadOf(row) })}\n`;
}

/** What a results file starts with: the CSV header, or nothing. */
export function resultHeader(format: ResultFormat): string {
  return format === "csv" ? RESULT_HEADER : "";
}

export function resultLine(row: RowResult, format: ResultFormat, problemOf: ProblemOf): string {
  return format === "csv" ? resultCsvLine(row, problemOf) : resultNdjsonLine(row, problemOf);
}

export function resultCsvLine(row: RowResult, problemOf: ProblemOf): string {
  const { result } = row;
  const values: Record<(typeof RESULT_COLUMNS)[number], unknown> = Object.fromEntries(RESULT_COLUMNS.map((c) => [c, null])) as never;
  values.row = row.row;
  values.id = row.id;
  values.ambiguous = result.kind === "ambiguous";
  values.unread_columns = row.unread_columns?.join(" ") ?? null;
  if (result.kind === "rate") {
    const r = result.body;
    Object.assign(values, {
      status: 200, county: r.county, fips: r.fips, combined_rate: r.combined_rate, state: r.components.state,
      county_permissive: r.components.county_permissive, transit_authority: r.components.transit_authority,
      transit_status: r.transit_district?.status ?? null, resolved_by: r.resolved_by, effective_from: r.effective_from,
      date_evaluated: r.date_evaluated, note: r.note ?? null, boundary_version: r.boundary_record?.version ?? null,
      boundary_record_type: r.boundary_record?.record_type ?? null, boundary_line: r.boundary_record?.line ?? null,
    });
  } else if (result.kind === "ambiguous") {
    const a = result.body;
    Object.assign(values, {
      status: 200, date_evaluated: a.date_evaluated, candidate_fips: a.candidate_counties.map((c) => c.fips).join(" "),
      lowest_combined_rate: a.lowest_combined_rate, note: a.note ?? a.message,
    });
  } else {
    const problem = problemOf(row);
    Object.assign(values, { status: problem.status, problem_type: problem.type, problem_detail: problem.detail });
  }
  return csvLine(RESULT_COLUMNS.map((c) => values[c]));
}
