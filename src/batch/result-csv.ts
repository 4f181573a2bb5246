/**
 * Batch results as CSV, one line per input row in input order: the figures a back office
 * needs in columns, and the full record in the NDJSON form for anything more.
 */
import type { RowResult } from "../lookup/item-result.ts";

/** The parts of a problem object (spec §7) a CSV line shows. */
export interface ProblemSummary {
  type: string;
  status: number;
  detail: string;
}

export const RESULT_COLUMNS = [
  "row", "id", "status", "county", "fips", "combined_rate", "state", "county_permissive", "transit_authority",
  "transit_status", "resolved_by", "effective_from", "date_evaluated", "candidate_fips", "lowest_combined_rate",
  "note", "problem_type", "problem_detail", "boundary_version", "boundary_record_type", "boundary_line",
] as const;

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(cell).join(",")}\n`;
}

export const RESULT_HEADER = csvLine(RESULT_COLUMNS);

/** `problemOf` renders a failure as the problem object a single lookup would have answered. */
export function resultCsvLine(row: RowResult, problemOf: (row: RowResult) => ProblemSummary): string {
  const { result } = row;
  const values: Record<(typeof RESULT_COLUMNS)[number], unknown> = Object.fromEntries(RESULT_COLUMNS.map((c) => [c, null])) as never;
  values.row = row.row;
  values.id = row.id;
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
