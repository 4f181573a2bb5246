/**
 * Counts the rows of an upload as its bytes arrive, so a file with too many rows is refused at
 * the first row over the limit instead of after it has been read and parsed whole. A row is a
 * line with something other than spaces, tabs or CR on it, as the parsers skip blank lines; in a
 * CSV a line break inside double quotes does not end the row (RFC 4180).
 */
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;

export class RowCounter {
  readonly #csv: boolean;
  #rows = 0;
  #inQuotes = false;
  #lineBlank = true;

  constructor(format: "csv" | "ndjson") {
    this.#csv = format === "csv";
  }

  /**
   * Adds a chunk; returns the rows seen so far (a row counts from its first non-blank byte). It runs
   * on the thread that answers, over every byte of a 64 MiB upload, so it is a plain indexed loop
   * over locals (a `for…of` with a Set lookup per byte took ~30 ms a 7 MB file, measured).
   */
  push(chunk: Uint8Array): number {
    const csv = this.#csv;
    let inQuotes = this.#inQuotes;
    let lineBlank = this.#lineBlank;
    let rows = this.#rows;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (csv && byte === QUOTE) inQuotes = !inQuotes;
      if (byte === NEWLINE) {
        if (!inQuotes) lineBlank = true;
        else if (lineBlank) {
          lineBlank = false;
          rows++;
        }
      } else if (lineBlank && byte !== SPACE && byte !== TAB && byte !== CR) {
        lineBlank = false;
        rows++;
      }
    }
    this.#inQuotes = inQuotes;
    this.#lineBlank = lineBlank;
    this.#rows = rows;
    return rows;
  }
}
