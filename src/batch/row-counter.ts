/**
 * Counts the rows of an upload as its bytes arrive, so a file with too many rows is refused at
 * the first row over the limit instead of after it has been read and parsed whole. A row is a
 * line with something other than spaces, tabs or CR on it, as the parsers skip blank lines; in a
 * CSV a line break inside double quotes does not end the row (RFC 4180).
 *
 * On the same pass it holds the caps that keep one row from costing what a whole file may: a line
 * (a CSV record, quoted line breaks included) longer than `maxLineBytes`, or an NDJSON line nesting
 * JSON deeper than a lookup does, is refused the moment the counter sees it, so neither is stored or
 * handed to a thread.
 */
import type { BatchFileFormat } from "../store/batch-jobs.table.ts";
import { JsonDepthGauge, MAX_LOOKUP_DEPTH } from "./json-depth.ts";

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;

export type UploadRefusalCode = "line-too-long" | "too-deep";

/** Why an upload was refused while it streamed: which cap, on which line (from 1, where the row starts). */
export class UploadRefusal extends Error {
  constructor(
    readonly code: UploadRefusalCode,
    readonly line: number,
    readonly limit: number,
  ) {
    super(code === "line-too-long" ? `Line ${line} is longer than ${limit} bytes` : `Line ${line} nests JSON deeper than ${limit} levels`);
  }
}

export class RowCounter {
  readonly #csv: boolean;
  readonly #maxLineBytes: number;
  readonly #depth: JsonDepthGauge | null;
  #rows = 0;
  #inQuotes = false;
  #lineBlank = true;
  #lineBytes = 0;
  #line = 1;
  #rowLine = 1;

  /** A Finder file is counted as the CSV it is. */
  constructor(format: Exclude<BatchFileFormat, "finder">, caps: { maxLineBytes: number }) {
    this.#csv = format === "csv";
    this.#maxLineBytes = caps.maxLineBytes;
    this.#depth = format === "ndjson" ? new JsonDepthGauge(MAX_LOOKUP_DEPTH, true) : null;
  }

  /**
   * Adds a chunk; returns the rows seen so far (a row counts from its first non-blank byte), or
   * throws an UploadRefusal. It runs on the thread that answers, over every byte of a 64 MiB upload,
   * so it is a plain indexed loop over locals (a `for…of` with a Set lookup per byte took ~30 ms a
   * 7 MB file, measured).
   */
  push(chunk: Uint8Array): number {
    const deepAt = this.#depth?.push(chunk) ?? 0;
    const csv = this.#csv;
    const maxLineBytes = this.#maxLineBytes;
    let inQuotes = this.#inQuotes;
    let lineBlank = this.#lineBlank;
    let rows = this.#rows;
    let line = this.#line;
    let rowLine = this.#rowLine;
    // Where the current line starts, as an index into this chunk (negative: it began in an earlier one).
    // Lengths are compared at each line's end and at the chunk's end, not byte by byte.
    let lineStart = -this.#lineBytes;
    let tooLong = false;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (csv && byte === QUOTE) inQuotes = !inQuotes;
      if (byte === NEWLINE) {
        line++;
        if (!inQuotes) {
          if (i - lineStart > maxLineBytes) {
            tooLong = true;
            break;
          }
          lineBlank = true;
          lineStart = i + 1;
          rowLine = line;
        } else if (lineBlank) {
          lineBlank = false;
          rows++;
        }
      } else if (lineBlank && byte !== SPACE && byte !== TAB && byte !== CR) {
        lineBlank = false;
        rows++;
      }
    }
    const lineBytes = chunk.length - lineStart;
    if (lineBytes > maxLineBytes) tooLong = true;
    this.#inQuotes = inQuotes;
    this.#lineBlank = lineBlank;
    this.#rows = rows;
    this.#lineBytes = lineBytes;
    this.#line = line;
    this.#rowLine = rowLine;
    // The one met first in the file is the one reported.
    if (deepAt > 0 && (!tooLong || deepAt <= rowLine)) throw new UploadRefusal("too-deep", deepAt, MAX_LOOKUP_DEPTH);
    if (tooLong) throw new UploadRefusal("line-too-long", rowLine, maxLineBytes);
    return rows;
  }
}
