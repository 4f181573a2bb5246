/**
 * The worksheet as CSV, for a spreadsheet: one row per county schedule line, then the form's lines 1 to
 * 9, each row saying which it is. Amounts are the JSON's two-decimal strings; RFC 4180 line endings.
 */
import type { Worksheet } from "./worksheet.ts";

/** `row` is `county` (a county schedule line, `label` its county) or `form` (a line of the form, `line` its number, `amount` its figure). */
const HEADER = ["row", "line", "label", "county_fips", "reporting_code", "part", "gross_sales", "exempt_sales", "net_taxable_sales", "tax_liability", "state_tax", "county_tax", "transit_tax", "records", "amount"];

/** Quotes a field when it holds a comma, a quote or a line break; a field starting with = + - @ is prefixed so a spreadsheet never runs it. */
function field(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@]/.test(text) && !/^-\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function worksheetCsv(worksheet: Worksheet): string {
  const rows: Array<Array<string | number | null>> = [HEADER];
  for (const line of worksheet.counties) {
    rows.push([
      "county", null, line.county, line.county_fips, line.reporting_code, line.part,
      line.gross_sales, line.exempt_sales, line.net_taxable_sales, line.tax_liability,
      line.tax_by_jurisdiction.state, line.tax_by_jurisdiction.county, line.tax_by_jurisdiction.transit, line.records, null,
    ]);
  }
  for (const line of worksheet.lines) {
    rows.push(["form", line.line, line.label, null, null, null, null, null, null, null, null, null, null, null, line.amount]);
  }
  return rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
}

export const worksheetFileName = (worksheet: Worksheet) => `buckeye-ust1-${worksheet.period}-${worksheet.ledger}.csv`;
