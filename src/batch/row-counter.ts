/**
 * Counts the rows of an upload as its bytes arrive, so a file with too many rows is refused at
 * the first row over the limit instead of after it has been read and parsed whole. A row is a
 * line with something other than spaces, tabs or CR on it, as the parsers skip blank lines; in a
 * CSV a line break inside double quotes does not end the row (RFC 4180).
 */
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BLANK = new Set([0x20, 0x09, 0x0d]);

export class RowCounter {
  readonly #csv: boolean;
  #rows = 0;
  #inQuotes = false;
  #lineBlank = true;

  constructor(format: "csv" | "ndjson") {
    this.#csv = format === "csv";
  }

  /** Adds a chunk; returns the rows seen so far (a row counts from its first non-blank byte). */
  push(chunk: Uint8Array): number {
    for (const byte of chunk) {
      if (this.#csv && byte === QUOTE) this.#inQuotes = !this.#inQuotes;
      if (byte === NEWLINE && !this.#inQuotes) this.#lineBlank = true;
      else if (this.#lineBlank && !BLANK.has(byte)) {
        this.#lineBlank = false;
        this.#rows++;
      }
    }
    return this.#rows;
  }
}
