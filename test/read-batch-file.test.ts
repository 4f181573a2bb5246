/**
 * Reading an uploaded file into chunks (src/batch/read-batch-file.ts), without HTTP or threads:
 * from its bytes, line by line, with no chunk's text past MAX_CHUNK_CHARS.
 */
import { describe, expect, it } from "vitest";
import { MAX_CHUNK_CHARS, readBatchFile, type BatchFileReading } from "../src/batch/read-batch-file.ts";

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
  it("a BOM at the start is dropped; CRLF, blank lines, multi-byte characters; a line that is not JSON is a row stored as null, without its text", () => {
    const file = `\uFEFF{"id":"é1","county":"Franklin"}\r\n\r\n   \n{"id":"ü2","address":"1 Straße Rd, Columbus, OH"}\n{not json}\r\n`;
    const reading = readBatchFile(bytes(file), "ndjson", 10, 500);
    expect(rowsOf(reading)).toEqual([{ id: "é1", county: "Franklin" }, { id: "ü2", address: "1 Straße Rd, Columbus, OH" }, null]);
  });

  it("a byte sequence that is not UTF-8 is never read as U+FFFD: the file is refused at it", () => {
    const file = new Uint8Array([...bytes('{"id":"a'), 0xc3, ...bytes('"}\n{"id":"b"}')]);
    expect(readBatchFile(file, "ndjson", 10, 500)).toMatchObject({ ok: false, slug: "bad-request", detail: expect.stringContaining("byte 0xC3 at byte offset 8 (line 1, row 1)") });
  });

  it("more rows than maxRows is refused with the count", () => {
    const reading = readBatchFile(bytes('{"zip":"43215"}\n'.repeat(4)), "ndjson", 3, 500);
    expect(reading).toEqual({ ok: false, slug: "batch-too-large", detail: "The batch has 4 rows; a job takes at most 3. Split the file." });
  });
});

describe("CSV is parsed from its bytes", () => {
  it("with a BOM, quoted fields holding commas and quotes, and non-ASCII text", () => {
    const file = `\uFEFFid,address,date\r\nq1,"10 Main St, Apt ""B"" Columbus, OH",2026-06-01\r\nq2,Straße 5 Zanesville OH,\r\n`;
    expect(rowsOf(readBatchFile(bytes(file), "csv", 10, 500))).toEqual([
      { id: "q1", address: '10 Main St, Apt "B" Columbus, OH', date: "2026-06-01" },
      { id: "q2", address: "Straße 5 Zanesville OH" },
    ]);
  });
});

describe("a field holding control characters is stored as one DEL, never as its text", () => {
  it("C0 characters (a quoted line break among them) and DEL make the field one DEL, which its row's validation refuses; a tab is kept; other fields stay", () => {
    const file = `id,address,county\nc1,"a\x01b",Franklin\nc2,"10 Main St\nColumbus",\nc3,x\x7fy,\nc4,"1\tMain St",\n\x02id,,Wood\n`;
    expect(rowsOf(readBatchFile(bytes(file), "csv", 10, 500))).toEqual([
      { id: "c1", address: "\x7f", county: "Franklin" },
      { id: "c2", address: "\x7f" },
      { id: "c3", address: "\x7f" },
      { id: "c4", address: "1\tMain St" },
      { id: "\x7f", county: "Wood" },
    ]);
  });

  it("a value is stored trimmed, as its validation reads it: line breaks and vertical tabs around it are not stored, nor kept as a refusal", () => {
    const ndjson = [JSON.stringify({ id: "\r=1+1", county: "\u000b".repeat(1_000) + "Wood\n" }), JSON.stringify({ id: "t", zip: 43215 })].join("\n");
    expect(rowsOf(readBatchFile(bytes(ndjson), "ndjson", 10, 500))).toEqual([{ id: "=1+1", county: "Wood" }, { id: "t", zip: 43215 }]);
  });

  it("a file of control characters is stored smaller than it was uploaded (JSON would write each as six characters)", () => {
    const cell = "\x01".repeat(500);
    const csv = `id,address\n${Array.from({ length: 2_000 }, (_, i) => `r${i},${cell}`).join("\n")}\n`;
    const ndjson = Array.from({ length: 2_000 }, (_, i) => `{"id":"r${i}","address":"${cell}"}`).join("\n");
    for (const [file, format] of [[csv, "csv"], [ndjson, "ndjson"]] as const) {
      const stored = chunksOf(readBatchFile(bytes(file), format, 10_000, 500)).reduce((sum, chunk) => sum + chunk.input.length, 0);
      expect(stored, format).toBeLessThan(bytes(file).length / 10);
    }
  });
});

describe("a file that is not UTF-8 is refused whole, naming its line and byte offset, and nothing of it is read", () => {
  it("a CSV with a 0xFF byte in its third line: refused at that byte, row 2 after the header", () => {
    const file = new Uint8Array([...bytes("id,zip\nr1,43215\nr2,"), 0xff, ...bytes("43215\n")]);
    expect(readBatchFile(file, "csv", 10, 500)).toEqual({
      ok: false,
      slug: "bad-request",
      detail: 'The file is not UTF-8: byte 0xFF at byte offset 19 (line 3, row 2) is not part of a UTF-8 character. Save it as UTF-8 (in Excel: "CSV UTF-8") and send it again. Nothing was stored.',
    });
  });

  it("NDJSON and Finder files too; Windows-1252's é, a lone continuation byte, an overlong form, a surrogate and a cut-off character are each refused where they start", () => {
    const cases: Array<[number[], number]> = [
      [[0xe9], 4],
      [[0x80], 4],
      [[0xc0, 0xaf], 4],
      [[0xed, 0xa0, 0x80], 4],
      [[0xe2, 0x82], 4],
    ];
    for (const [bad, offset] of cases) {
      const file = new Uint8Array([...bytes('{"a'), 0x22, ...bad, ...bytes('":"1"}')]);
      const reading = readBatchFile(file, "ndjson", 10, 500);
      expect(reading, JSON.stringify(bad)).toMatchObject({ ok: false, slug: "bad-request" });
      expect(!reading.ok && reading.detail).toContain(`at byte offset ${offset} (line 1, row 1)`);
    }
    expect(readBatchFile(new Uint8Array([...bytes("INV-1,1 Main St,,Columbus,OH,43215,,06/01/2026\nINV-2,"), 0xff]), "finder", 10, 500)).toMatchObject({ ok: false, detail: expect.stringContaining("(line 2, row 2)") });
  });

  it("a UTF-16 file (Excel's Unicode Text) is refused at its first byte and named as UTF-16", () => {
    const reading = readBatchFile(new Uint8Array([0xff, 0xfe, ...[..."zip\n"].flatMap((c) => [c.charCodeAt(0), 0])]), "csv", 10, 500);
    expect(!reading.ok && reading.detail).toMatch(/^The file is not UTF-8: byte 0xFF at byte offset 0 \(line 1, the header\).* It looks like UTF-16\./);
  });

  it("UTF-8 with a BOM, 2-, 3- and 4-byte characters is read as before", () => {
    const reading = readBatchFile(bytes("\uFEFFid,address\né€𝄞,1 Straße Rd\n"), "csv", 10, 500);
    expect(rowsOf(reading)).toEqual([{ id: "é€𝄞", address: "1 Straße Rd" }]);
  });
});
