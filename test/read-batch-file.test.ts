/**
 * Reading an uploaded file into chunks (src/lookup/read-batch-file.ts), without HTTP or threads:
 * from its bytes, line by line, with no chunk's text past MAX_CHUNK_CHARS.
 */
import { describe, expect, it } from "vitest";
import { MAX_CHUNK_CHARS, readBatchFile, type BatchFileReading } from "../src/lookup/read-batch-file.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

function chunksOf(reading: BatchFileReading) {
  if (!reading.ok) throw new Error(reading.detail);
  return reading.chunks;
}

/** Every row of the reading, in order, as its chunks hold them. */
const rowsOf = (reading: BatchFileReading) => chunksOf(reading).flatMap((chunk) => JSON.parse(chunk.input) as unknown[]);

describe("a chunk holds chunkRows rows, or fewer once its text reaches MAX_CHUNK_CHARS", () => {
  it("short rows: chunks of chunkRows, each numbered from its first row", () => {
    const file = Array.from({ length: 7 }, (_, i) => JSON.stringify({ id: `r${i + 1}`, county: "Franklin" })).join("\n");
    const chunks = chunksOf(readBatchFile(bytes(file), "ndjson", 100, 3));
    expect(chunks.map(({ firstRow, rowCount }) => [firstRow, rowCount])).toEqual([
      [1, 3],
      [4, 3],
      [7, 1],
    ]);
  });

  it("long rows: a chunk is cut before its text would pass the cap; rows keep their numbers and order", () => {
    const id = (i: number) => `${i}-${"x".repeat(50_000)}`;
    const file = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: id(i + 1), county: "Franklin" })).join("\n");
    const reading = readBatchFile(bytes(file), "ndjson", 1_000, 500);
    const chunks = chunksOf(reading);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.input.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
    for (const [i, chunk] of chunks.entries()) {
      if (i > 0) expect(chunk.firstRow).toBe(chunks[i - 1]!.firstRow + chunks[i - 1]!.rowCount);
      expect((JSON.parse(chunk.input) as unknown[]).length).toBe(chunk.rowCount);
    }
    expect(rowsOf(reading).map((row) => (row as { id: string }).id)).toEqual(Array.from({ length: 200 }, (_, i) => id(i + 1)));
  });

  it("one row longer than the cap is a chunk of its own", () => {
    const long = JSON.stringify({ id: "y".repeat(MAX_CHUNK_CHARS + 10) });
    const chunks = chunksOf(readBatchFile(bytes(`{"zip":"43215"}\n${long}\n{"zip":"43402"}`), "ndjson", 10, 500));
    expect(chunks.map(({ firstRow, rowCount }) => [firstRow, rowCount])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
  });
});

describe("NDJSON is read line by line from its bytes, as the whole text would read", () => {
  it("a BOM at the start is dropped; CRLF, blank lines, multi-byte characters and a line that is not JSON", () => {
    const file = `\uFEFF{"id":"é1","county":"Franklin"}\r\n\r\n   \n{"id":"ü2","address":"1 Straße Rd, Columbus, OH"}\n{not json}\r\n`;
    const reading = readBatchFile(bytes(file), "ndjson", 10, 500);
    expect(rowsOf(reading)).toEqual([{ id: "é1", county: "Franklin" }, { id: "ü2", address: "1 Straße Rd, Columbus, OH" }, "{not json}"]);
  });

  it("a byte sequence that is not UTF-8 becomes U+FFFD in its own line only", () => {
    const file = new Uint8Array([...bytes('{"id":"a'), 0xc3, ...bytes('"}\n{"id":"b"}')]);
    expect(rowsOf(readBatchFile(file, "ndjson", 10, 500))).toEqual([{ id: "a\uFFFD" }, { id: "b" }]);
  });

  it("more rows than maxRows is refused with the count", () => {
    const reading = readBatchFile(bytes('{"zip":"43215"}\n'.repeat(4)), "ndjson", 3, 500);
    expect(reading).toEqual({ ok: false, slug: "batch-too-large", detail: "The batch has 4 rows; a job takes at most 3. Split the file." });
  });
});

describe("CSV is parsed from its bytes", () => {
  it("with a BOM, quoted fields holding commas and line breaks, and non-ASCII text", () => {
    const file = `\uFEFFid,address,date\r\nq1,"10 Main St, Apt ""B""\nColumbus, OH",2026-06-01\r\nq2,Straße 5 Zanesville OH,\r\n`;
    expect(rowsOf(readBatchFile(bytes(file), "csv", 10, 500))).toEqual([
      { id: "q1", address: '10 Main St, Apt "B"\nColumbus, OH', date: "2026-06-01" },
      { id: "q2", address: "Straße 5 Zanesville OH" },
    ]);
  });
});
