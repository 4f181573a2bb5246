/**
 * Reads an uploaded batch (CSV with a header row, or NDJSON) into raw lookups, cut into chunks
 * for the job table. A file (up to 64 MB) is read in a worker thread; the inline body of
 * POST /rates/batch (up to 1 MB) on the answering thread. A syntax error that makes the whole
 * file unreadable fails the upload; a bad row only fails that row.
 *
 * A file is read from its bytes, never decoded whole, and no chunk's text grows past
 * MAX_CHUNK_CHARS: the thread builds no string of more than a few megabytes. That keeps its heap
 * ceiling (BATCH_THREAD_MAX_HEAP_MB) a clean stop for a file too large to read: Node ends a thread
 * that reaches its ceiling through many small allocations with ERR_WORKER_OUT_OF_MEMORY, but one
 * allocation of tens of megabytes past it (a whole 60 MB file as one string) can abort the whole
 * process instead (https://github.com/nodejs/node/issues/47224; seen here on a 64 MB ceiling).
 */
import { parse } from "csv-parse/sync";
import type { NewBatchChunk } from "../store/batch-jobs.repository.ts";
import { columnName } from "./address-columns.ts";
import { CONTROL, LOOKUP_COLUMNS } from "./lookup-item.ts";

export type BatchFormat = "csv" | "ndjson";

export type BatchFileReading =
  | { ok: true; total: number; chunks: NewBatchChunk[] }
  | { ok: false; slug: "bad-request" | "batch-too-large"; detail: string };

/**
 * A chunk is cut at `chunkRows` rows, or sooner once its text reaches this many characters: 500
 * rows of legal 64 KiB lines would otherwise make one 32 MB string.
 */
export const MAX_CHUNK_CHARS = 4 * 1024 * 1024;

/**
 * Rows cut into chunks as they are read: a 100,000-row file never exists as one array of parsed
 * rows, only as its chunks' JSON text (a thread reading three such uploads in a row held tens of
 * megabytes of row objects each, measured).
 */
class Chunker {
  readonly chunks: NewBatchChunk[] = [];
  total = 0;
  #rows: string[] = [];
  #chars = 0;
  #nextRow = 1;

  constructor(
    readonly chunkRows: number,
    readonly maxRows: number,
  ) {}

  add(item: unknown): void {
    this.total++;
    // Past the limit rows are only counted, for the refusal's message.
    if (this.total > this.maxRows) return;
    const text = JSON.stringify(withoutControlText(item));
    if (this.#rows.length > 0 && this.#chars + text.length > MAX_CHUNK_CHARS) this.#cut();
    this.#rows.push(text);
    this.#chars += text.length + 1;
    if (this.#rows.length === this.chunkRows) this.#cut();
  }

  #cut(): void {
    this.chunks.push({ firstRow: this.#nextRow, rowCount: this.#rows.length, input: `[${this.#rows.join(",")}]` });
    this.#nextRow += this.#rows.length;
    this.#rows = [];
    this.#chars = 0;
  }

  finish(): void {
    if (this.#rows.length > 0) this.#cut();
  }
}

/**
 * What a field holding control characters is stored as: one DEL, which the row's validation refuses
 * as it refuses the field itself ("must not contain control characters", naming the field). The
 * field's own text is never stored: JSON writes each control character as six (`\u0001`), so a file of
 * them would be stored six times its size.
 */
const REFUSED_FIELD = "\u007f";

/**
 * The row as stored: each top-level text field trimmed, as its validation reads it (so line breaks
 * and the like around a value are not stored either), and replaced by REFUSED_FIELD when a control
 * character (tab aside) is left inside it.
 */
function withoutControlText(item: unknown): unknown {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
  let copy: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(item)) {
    if (typeof value !== "string") continue;
    const trimmed = value.trim();
    const stored = CONTROL.test(trimmed) ? REFUSED_FIELD : trimmed;
    if (stored !== value) (copy ??= { ...item })[name] = stored;
  }
  return copy ?? item;
}

function headerProblem(columns: readonly string[]): string | null {
  const unknown = columns.filter((name) => !LOOKUP_COLUMNS.includes(name));
  if (unknown.length > 0) return `Unknown CSV column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; allowed: ${LOOKUP_COLUMNS.join(", ")}.`;
  if (new Set(columns).size !== columns.length) return "A CSV column is named twice in the header.";
  return null;
}

/** Reads the CSV into `rows`; answers why it cannot be read, or null. csv-parse works on the bytes and decodes field by field. */
function readCsv(bytes: Uint8Array, rows: Chunker): string | null {
  let columns: string[] | null = null;
  let refusal: string | null = null;
  try {
    parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      trim: true,
      // Each record is taken here and dropped from the parser's output (null), so none accumulate.
      on_record: (cells: string[]) => {
        if (columns === null) {
          columns = cells.map(columnName);
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

const NEWLINE = 0x0a;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Line by line, each decoded on its own (a line break is never inside a UTF-8 sequence); a BOM is dropped at the start of the file only. */
function readNdjson(bytes: Uint8Array, rows: Chunker): void {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const bom = UTF8_BOM.every((byte, i) => bytes[i] === byte);
  for (let start = bom ? UTF8_BOM.length : 0; start < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    const line = decoder.decode(bytes.subarray(start, end));
    start = end + 1;
    if (line.trim() === "") continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      // That row alone is reported as not being a JSON object; its text is never read again, so it is
      // not stored (raw control characters, which JSON refuses, would be stored six times their size).
      row = null;
    }
    rows.add(row);
  }
}

/** Reads a file as uploaded (UTF-8). */
export function readBatchFile(bytes: Uint8Array, format: BatchFormat, maxRows: number, chunkRows: number): BatchFileReading {
  const rows = new Chunker(chunkRows, maxRows);
  if (format === "csv") {
    const problem = readCsv(bytes, rows);
    if (problem !== null) return { ok: false, slug: "bad-request", detail: problem };
  } else readNdjson(bytes, rows);
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
