/**
 * The values of an uploaded NDJSON file, one per line that is not blank, in order. Each line is decoded on its
 * own (a line break is never inside a UTF-8 sequence), and a BOM is dropped at the start of the file only.
 * A line that is not JSON gives `null`: its text is never read again, so it is not kept (raw control
 * characters, which JSON refuses, would be stored six times their size). The readers of address files and of
 * order files (read-batch-file.ts, read-orders-file.ts) each judge what a value means.
 */
const NEWLINE = 0x0a;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

export function* ndjsonValues(bytes: Uint8Array): Generator<unknown> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const bom = UTF8_BOM.every((byte, i) => bytes[i] === byte);
  for (let start = bom ? UTF8_BOM.length : 0; start < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    const line = decoder.decode(bytes.subarray(start, end));
    start = end + 1;
    if (line.trim() === "") continue;
    try {
      yield JSON.parse(line);
    } catch {
      yield null;
    }
  }
}
