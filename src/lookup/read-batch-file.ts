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

/**
 * Rows cut into chunks as they are read: a 100,000-row file never exists as one array of parsed
 * rows, only as its chunks' JSON text (a thread reading three such uploads in a row held tens of
 * megabytes of row objects each, measured).
 */
class Chunker {
  readonly chunks: string[] = [];
  total = 0;
  #current: unknown[] = [];

  constructor(
    readonly chunkRows: number,
    readonly maxRows: number,
  ) {}

  add(item: unknown): void {
    this.total++;
    // Past the limit rows are only counted, for the refusal's message.
    if (this.total > this.maxRows) return;
    this.#current.push(item);
    if (this.#current.length === this.chunkRows) this.#cut();
  }

  #cut(): void {
    this.chunks.push(JSON.stringify(this.#current));
    this.#current = [];
  }

  finish(): void {
    if (this.#current.length > 0) this.#cut();
  }
}

function headerProblem(columns: readonly string[]): string | null {
  const unknown = columns.filter((name) => !(ITEM_FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) return `Unknown CSV column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; allowed: ${ITEM_FIELDS.join(", ")}.`;
  if (new Set(columns).size !== columns.length) return "A CSV column is named twice in the header.";
  return null;
}

/** Reads the CSV into `rows`; answers why it cannot be read, or null. */
function readCsv(text: string, rows: Chunker): string | null {
  let columns: string[] | null = null;
  let refusal: string | null = null;
  try {
    parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      trim: true,
      // Each record is taken here and dropped from the parser's output (null), so none accumulate.
      on_record: (cells: string[]) => {
        if (columns === null) {
          columns = cells.map((name) => name.toLowerCase());
          refusal = headerProblem(columns);
          if (refusal !== null) throw new Error(refusal);
          return null;
        }
        const named = columns;
        rows.add(Object.fromEntries(named.map((name, i) => [name, cells[i] ?? ""]).filter(([, value]) => value !== "")));
        return null;
      },
    });
  } catch (error) {
    return refusal ?? `The CSV cannot be read: ${(error as Error).message}`;
  }
  if (columns === null) return "The CSV is empty; its first line must be a header naming the columns (id, address, zip, county, lat, lon, date).";
  return null;
}

function readNdjson(text: string, rows: Chunker): void {
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end < 0 ? text.length : end);
    start = end < 0 ? text.length : end + 1;
    if (line.trim() === "") continue;
    try {
      rows.add(JSON.parse(line) as unknown);
    } catch {
      // Kept as text: that row alone is reported as not being a JSON object.
      rows.add(line.endsWith("\r") ? line.slice(0, -1) : line);
    }
  }
}

export function readBatchFile(text: string, format: BatchFormat, maxRows: number, chunkRows: number): BatchFileReading {
  const rows = new Chunker(chunkRows, maxRows);
  if (format === "csv") {
    const problem = readCsv(text, rows);
    if (problem !== null) return { ok: false, slug: "bad-request", detail: problem };
  } else readNdjson(text, rows);
  if (rows.total === 0) return { ok: false, slug: "bad-request", detail: "The batch has no rows." };
  if (rows.total > maxRows) {
    return { ok: false, slug: "batch-too-large", detail: `The batch has ${rows.total} rows; a job takes at most ${maxRows}. Split the file.` };
  }
  rows.finish();
  return { ok: true, total: rows.total, chunks: rows.chunks };
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
