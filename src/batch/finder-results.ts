/**
 * Results of a job uploaded in Ohio's Finder layout, in the same shape (docs/guides/address-resolution.md,
 * "The Finder layout"): two headerless CSV files, each line starting with the row's 9 Finder fields as
 * they were sent (the taxable amount blank when the row had none), so a line matches its input line
 * by line and by invoice number.
 *
 * - results: the rows answered with one rate, then FINDER_RESULT_FIELDS;
 * - errors: every other row (a problem, or a ZIP that spans counties with no street to settle it),
 *   then FINDER_ERROR_FIELDS.
 *
 * The column layout of the state's own result files could not be checked (it was not available):
 * these are Buckeye's, documented, not a copy of the state's.
 */
import { FINDER_FIELDS, FINDER_ROW } from "../lookup/finder-layout.ts";
import type { RowResult } from "../lookup/item-result.ts";
import { csvLine, type ProblemOf } from "./result-lines.ts";

export type FinderFile = "finder" | "finder-errors";

export function isFinderFile(format: string): format is FinderFile {
  return format === "finder" || format === "finder-errors";
}

export const FINDER_RESULT_FIELDS = [
  "county", "fips", "combined_rate", "state_rate", "county_permissive_rate", "transit_authority_rate", "resolved_by", "effective_from", "date_evaluated", "note",
] as const;

export const FINDER_ERROR_FIELDS = ["row", "status", "problem_type", "problem_detail"] as const;

/** The 9 Finder fields of a stored row, as sent; blanks past its end. */
function inputFields(raw: unknown): string[] {
  const fields = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)[FINDER_ROW] : undefined;
  const list = Array.isArray(fields) ? fields : [];
  return FINDER_FIELDS.map((_, i) => (typeof list[i] === "string" ? (list[i] as string) : ""));
}

/** The row's line in `file`, or "" when the row belongs to the other file. */
export function finderLine(row: RowResult, raw: unknown, file: FinderFile, problemOf: ProblemOf): string {
  const { result } = row;
  if (result.kind === "rate") {
    if (file !== "finder") return "";
    const r = result.body;
    const c = r.components;
    return csvLine([...inputFields(raw), r.county, r.fips, r.combined_rate, c.state, c.county_permissive, c.transit_authority, r.resolved_by, r.effective_from, r.date_evaluated, r.note ?? null]);
  }
  if (file !== "finder-errors") return "";
  if (result.kind === "ambiguous") {
    const a = result.body;
    const candidates = a.candidate_counties.map((county) => `${county.county} (${county.fips})`).join(", ");
    return csvLine([...inputFields(raw), row.row, 200, "ambiguous", `${a.note ?? a.message} Candidate counties: ${candidates}.`]);
  }
  const problem = problemOf(row);
  return csvLine([...inputFields(raw), row.row, problem.status, problem.type, problem.detail]);
}
