/**
 * Reads an uploaded batch (CSV with a header row, or NDJSON) into raw lookups, cut into chunks
 * for the job table. A file (up to 64 MB) is read in a worker thread; the inline body of
 * POST /rates/batch (up to 1 MB) on the answering thread. A syntax error that makes the whole
 * file unreadable fails the upload; a bad row only fails that row.
 */
import { parse } from "csv-parse/sync";
import { ITEM_FIELDS } from "./lookup-item.ts";

export type BatchFormat = "csv" | "ndjson";

export type BatchFileReading =
  | { ok: true; total: number; chunks: string[] }
  | { ok: false; slug: "bad-request" | "batch-too-large"; detail: string };

function readCsv(text: string): unknown[] | string {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, trim: true });
  } catch (error) {
    return `The CSV cannot be read: ${(error as Error).message}`;
  }
  const [header, ...body] = rows;
  if (!header) return "The CSV is empty; its first line must be a header naming the columns (id, address, zip, county, lat, lon, date).";
  const columns = header.map((name) => name.toLowerCase());
  const unknown = columns.filter((name) => !(ITEM_FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) return `Unknown CSV column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; allowed: ${ITEM_FIELDS.join(", ")}.`;
  if (new Set(columns).size !== columns.length) return "A CSV column is named twice in the header.";
  return body.map((cells) => Object.fromEntries(columns.map((name, i) => [name, cells[i] ?? ""]).filter(([, value]) => value !== "")));
}

function readNdjson(text: string): unknown[] {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        // Kept as text: that row alone is reported as not being a JSON object.
        return line;
      }
    });
}

export function readBatchFile(text: string, format: BatchFormat, maxRows: number, chunkRows: number): BatchFileReading {
  const items = format === "csv" ? readCsv(text) : readNdjson(text);
  if (typeof items === "string") return { ok: false, slug: "bad-request", detail: items };
  if (items.length === 0) return { ok: false, slug: "bad-request", detail: "The batch has no rows." };
  if (items.length > maxRows) {
    return { ok: false, slug: "batch-too-large", detail: `The batch has ${items.length} rows; a job takes at most ${maxRows}. Split the file.` };
  }
  const chunks: string[] = [];
  for (let start = 0; start < items.length; start += chunkRows) chunks.push(JSON.stringify(items.slice(start, start + chunkRows)));
  return { ok: true, total: items.length, chunks };
}

/** The body of POST /api/v1/rates/batch: `{"lookups": [...]}`. */
export function readLookupsBody(text: string, maxItems: number): { ok: true; items: unknown[] } | { ok: false; slug: "bad-request" | "batch-too-large"; detail: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, slug: "bad-request", detail: 'The body must be JSON: {"lookups": [{"zip": "43215"}, …]}.' };
  }
  const lookups = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)["lookups"] : undefined;
  if (!Array.isArray(lookups)) return { ok: false, slug: "bad-request", detail: 'The body must be an object with a "lookups" array.' };
  if (lookups.length === 0) return { ok: false, slug: "bad-request", detail: "lookups is empty; send 1 to 1,000 lookups." };
  if (lookups.length > maxItems) {
    return { ok: false, slug: "batch-too-large", detail: `lookups has ${lookups.length} items; at most ${maxItems} are answered inline. Use POST /api/v1/batches for larger files.` };
  }
  return { ok: true, items: lookups };
}
