/**
 * Reads an uploaded batch (CSV with a header row, NDJSON, or a headerless CSV in Ohio's Finder
 * layout, src/lookup/finder-layout.ts) into raw lookups, cut into chunks
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
import type { BatchFileFormat } from "../store/batch-jobs.table.ts";
import { parse } from "csv-parse/sync";
import { columnName } from "../lookup/address-columns.ts";
import { readHeader, unreadAddressRefusal, type ColumnChoice } from "../lookup/export-headers.ts";
import { FINDER_ROW } from "../lookup/finder-layout.ts";
import { CONTROL, ignoredFields } from "../lookup/lookup-item.ts";
import { ndjsonValues } from "./ndjson-values.ts";
import { firstNonUtf8Byte, notUtf8Detail } from "./utf8-check.ts";

/** One chunk of an upload: its rows as a JSON array's text, numbered from `firstRow`. */
export interface NewBatchChunk {
  firstRow: number;
  rowCount: number;
  input: string;
}


/**
 * At most this many unread field names are recorded for an NDJSON job or an inline list, whose rows may
 * each carry keys of their own; a CSV job lists every column of its header it does not read (the header
 * is one line, at most UPLOAD_MAX_LINE_BYTES).
 */
export const MAX_IGNORED_COLUMNS = 1000;

export type BatchFileReading =
  /**
   * `ignoredColumns`: the columns (CSV) or fields (NDJSON) Buckeye does not read, in order of first sight;
   * `readColumns`: a CSV's columns that are read, each as Buckeye's name and its header cell.
   */
  | { ok: true; total: number; chunks: NewBatchChunk[]; ignoredColumns: string[]; readColumns: Array<{ name: string; header: string }> }
  | { ok: false; slug: "bad-request" | "batch-too-large"; detail: string };

/**
 * A chunk is cut at `chunkRows` rows, or sooner once its text reaches this many characters: 500
 * rows of legal 64 KiB lines would otherwise make one 32 MB string.
 */
export const MAX_CHUNK_CHARS = 4 * 1024 * 1024;

/**
 * Rows' JSON texts cut into chunks as they come: `chunkRows` rows a chunk, or fewer once its text would pass
 * MAX_CHUNK_CHARS. A file of lookups and a file of orders (read-orders-file.ts) are cut alike.
 */
export class RowChunks {
  readonly chunks: NewBatchChunk[] = [];
  /** Rows counted, those past `maxRows` included, for the refusal's message. */
  total = 0;
  #rows: string[] = [];
  #chars = 0;
  #nextRow = 1;

  constructor(
    readonly chunkRows: number,
    readonly maxRows: number,
  ) {}

  /** Counts a row; whether it is within `maxRows`, and so is to be kept (past the limit rows are only counted). */
  protected counted(): boolean {
    this.total++;
    return this.total <= this.maxRows;
  }

  protected push(text: string): void {
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
 * Rows cut into chunks as they are read: a 100,000-row file never exists as one array of parsed
 * rows, only as its chunks' JSON text (a thread reading three such uploads in a row held tens of
 * megabytes of row objects each, measured).
 */
class Chunker extends RowChunks {
  readonly ignored = new Set<string>();
  /** The fields of NDJSON rows that are read (a CSV's header says which columns are). */
  readonly read = new Set<string>();
  /** A CSV's unread columns come from its header, not from its rows. */
  fromHeader = false;
  readColumns: Array<{ name: string; header: string }> = [];

  add(item: unknown): void {
    if (!this.counted()) return;
    if (!this.fromHeader && typeof item === "object" && item !== null && !Array.isArray(item)) {
      const unread = ignoredFields(item as Record<string, unknown>);
      for (const name of unread) if (this.ignored.size < MAX_IGNORED_COLUMNS) this.ignored.add(name);
      if (this.read.size < MAX_IGNORED_COLUMNS) for (const name of Object.keys(item)) if (!unread.includes(name)) this.read.add(name);
    }
    this.push(JSON.stringify(withoutControlText(item)));
  }
}

/**
 * What a field holding control characters is stored as: one DEL, which the row's validation refuses
 * as it refuses the field itself ("must not contain control characters", naming the field). The
 * field's own text is never stored: JSON writes each control character as six (`\u0001`), so a file of
 * them would be stored six times its size.
 */
const REFUSED_FIELD = "\u007f";

function storedText(value: string): string {
  const trimmed = value.trim();
  return CONTROL.test(trimmed) ? REFUSED_FIELD : trimmed;
}

/**
 * The row as stored: each top-level text field (and each field of a Finder row) trimmed, as its
 * validation reads it (so line breaks and the like around a value are not stored either), and
 * replaced by REFUSED_FIELD when a control character (tab aside) is left inside it.
 */
function withoutControlText(item: unknown): unknown {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
  let copy: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(item)) {
    if (name === FINDER_ROW && Array.isArray(value)) {
      (copy ??= { ...item })[name] = value.map((field: unknown) => (typeof field === "string" ? storedText(field) : field));
      continue;
    }
    if (typeof value !== "string") continue;
    const stored = storedText(value);
    if (stored !== value) (copy ??= { ...item })[name] = stored;
  }
  return copy ?? item;
}

/** Columns Buckeye does not read are not a problem (they are listed on the job); a column named twice is. */
function headerProblem(columns: readonly string[]): string | null {
  if (new Set(columns).size !== columns.length) return "A CSV column is named twice in the header.";
  return null;
}

/**
 * The header as read (src/lookup/export-headers.ts: Buckeye's names, the client's mapping, the names
 * platforms export under), or why the file is refused at its header: a column named twice, a mapping
 * that names no column, or no address part read where some column looks like one.
 */
function headerOf(cells: string[], choice: ColumnChoice, rows: Chunker): Array<string | null> | string {
  const header = readHeader(cells, choice, columnName);
  if (!header.ok) return header.detail;
  const problem = headerProblem(header.stored.filter((name) => name !== null)) ?? unreadAddressRefusal(header.read, cells);
  if (problem !== null) return problem;
  rows.fromHeader = true;
  for (const name of header.ignored) rows.ignored.add(name);
  rows.readColumns = header.read;
  return header.stored;
}

const ZIP_NAMES = new Set(["zip", "postal_code", "zip4", "plus4"]);
const NEWLINE = 0x0a;
const TAB = 0x09;
const COMMA = 0x2c;

/** A file whose first line has tabs and no comma is tab-separated, as Amazon Seller Central writes its order reports. */
function delimiterOf(bytes: Uint8Array): string {
  const end = bytes.indexOf(NEWLINE);
  const first = bytes.subarray(0, end < 0 ? bytes.length : end);
  return first.includes(TAB) && !first.includes(COMMA) ? "\t" : ",";
}

/** Reads the CSV into `rows`; answers why it cannot be read, or null. csv-parse works on the bytes and decodes field by field. */
function readCsv(bytes: Uint8Array, rows: Chunker, choice: ColumnChoice): string | null {
  let columns: Array<string | null> | null = null;
  let refusal: string | null = null;
  try {
    parse(bytes, {
      bom: true,
      delimiter: delimiterOf(bytes),
      skip_empty_lines: true,
      relax_column_count: false,
      trim: true,
      // Each record is taken here and dropped from the parser's output (null), so none accumulate.
      on_record: (cells: string[]) => {
        if (columns === null) {
          const header = headerOf(cells, choice, rows);
          if (typeof header === "string") {
            refusal = header;
            throw new Error(refusal);
          }
          columns = header;
          return null;
        }
        const named = columns;
        const row: Record<string, string> = {};
        // A column left out (the other side of an export's addresses, a second form of one part) is not stored.
        named.forEach((name, i) => {
          const value = cells[i] ?? "";
          // Shopify writes a ZIP with a leading apostrophe, so that a spreadsheet keeps its leading zeros.
          if (name !== null && value !== "") row[name] = ZIP_NAMES.has(name) && value.startsWith("'") ? value.slice(1) : value;
        });
        rows.add(row);
        return null;
      },
    });
  } catch (error) {
    return refusal ?? `The CSV cannot be read: ${(error as Error).message}`;
  }
  if (columns === null) return "The CSV is empty; its first line must be a header naming the columns (id, address, zip, county, lat, lon, date).";
  return null;
}

/**
 * Reads a Finder file into `rows`: no header, each record stored as its fields (8, or 9 with the
 * taxable amount). A record with another count is still a row, which fails alone saying so.
 */
function readFinder(bytes: Uint8Array, rows: Chunker): string | null {
  try {
    parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      on_record: (cells: string[]) => {
        rows.add({ [FINDER_ROW]: cells });
        return null;
      },
    });
  } catch (error) {
    return `The Finder file cannot be read as CSV: ${(error as Error).message}`;
  }
  return null;
}

/**
 * Reads a file as uploaded; one that is not UTF-8 is refused whole (utf8-check.ts). `choice`: the
 * client's column mapping and address side, for a CSV's header.
 */
export function readBatchFile(bytes: Uint8Array, format: BatchFileFormat, maxRows: number, chunkRows: number, choice: ColumnChoice = {}): BatchFileReading {
  const notUtf8 = firstNonUtf8Byte(bytes);
  if (notUtf8 !== -1) return { ok: false, slug: "bad-request", detail: notUtf8Detail(bytes, notUtf8, format === "csv") };
  if (format !== "csv" && (choice.columns !== undefined || choice.side !== undefined)) {
    return { ok: false, slug: "bad-request", detail: "A column mapping or address side is for a CSV with a header row; an NDJSON file's fields and a Finder file's places name their parts already." };
  }
  const rows = new Chunker(chunkRows, maxRows);
  if (format === "ndjson") {
    for (const row of ndjsonValues(bytes)) rows.add(row);
    const refusal = rows.total <= maxRows ? unreadAddressRefusal([...rows.read].map((name) => ({ name, header: name })), [...rows.ignored]) : null;
    if (refusal !== null) return { ok: false, slug: "bad-request", detail: refusal };
  } else {
    const problem = format === "csv" ? readCsv(bytes, rows, choice) : readFinder(bytes, rows);
    if (problem !== null) return { ok: false, slug: "bad-request", detail: problem };
  }
  if (rows.total === 0) return { ok: false, slug: "bad-request", detail: "The batch has no rows." };
  if (rows.total > maxRows) {
    return { ok: false, slug: "batch-too-large", detail: `The batch has ${rows.total} rows; a job takes at most ${maxRows}. Split the file.` };
  }
  rows.finish();
  return { ok: true, total: rows.total, chunks: rows.chunks, ignoredColumns: [...rows.ignored], readColumns: rows.readColumns };
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
