import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";

/** Rows of a headed CSV file as objects keyed by column name; every named column must be present. */
export function readCsv(path: string, columns: readonly string[]): Record<string, string>[] {
  const rows = parse<Record<string, string>>(readFileSync(path, "utf8"), { columns: true, bom: true, skip_empty_lines: true });
  const header = rows[0] === undefined ? [] : Object.keys(rows[0]);
  for (const column of columns) {
    if (!header.includes(column)) throw new Error(`${path}: column ${column} is missing`);
  }
  return rows;
}

/** RFC 4180 text with a header line, "\n" line ends and a final newline, quoting only where needed. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((fields) => fields.map(quoteField).join(",") + "\n").join("");
}

function quoteField(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}
