/**
 * The caps the upload counter holds while a body streams (src/batch/row-counter.ts,
 * src/batch/json-depth.ts), without HTTP: chunk boundaries anywhere, strings and escapes read as
 * JSON reads them, the line reported where its row starts.
 */
import { describe, expect, it } from "vitest";
import { RowCounter, UploadRefusal } from "../src/batch/row-counter.ts";
import { JsonDepthGauge, MAX_LOOKUP_DEPTH } from "../src/batch/json-depth.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds the text one byte at a time, so every state crosses a chunk boundary. */
function byteByByte(counter: { push(chunk: Uint8Array): number }, text: string): number {
  let last = 0;
  for (const byte of bytes(text)) last = counter.push(Uint8Array.of(byte));
  return last;
}

function refusal(run: () => unknown): UploadRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof UploadRefusal) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("JSON depth is measured on the bytes, as JSON.parse would read them", () => {
  it("a lookup with a list value is 3 levels and passes; a 4th bracket is refused on its line", () => {
    expect(MAX_LOOKUP_DEPTH).toBe(3);
    expect(new JsonDepthGauge(3, true).push(bytes('{"zip":[["43215"]]}\n'))).toBe(0);
    expect(new JsonDepthGauge(3, true).push(bytes('{"county":"adams"}\n{"zip":[[["43215"]]]}\n'))).toBe(2);
  });

  it("brackets inside strings, after escaped quotes and backslashes, do not count, across chunk boundaries", () => {
    const gauge = new JsonDepthGauge(1, true);
    expect(byteByByte(gauge, '{"id":"[[{\\"[[\\\\","county":"{{"}\n')).toBe(0);
    expect(byteByByte(gauge, '{"id":"\\\\",')).toBe(0);
    expect(byteByByte(gauge, "[")).toBe(2);
  });

  it("in NDJSON a line break starts again at depth 0, even after an unterminated string; in one body it does not", () => {
    expect(new JsonDepthGauge(2, true).push(bytes('[["\n[[\n[[\n'))).toBe(0);
    expect(new JsonDepthGauge(2, false).push(bytes("[\n[\n[\n"))).toBe(3);
  });
});

describe("the row counter refuses a long line where its row starts, and a deep NDJSON line", () => {
  it("a line of exactly maxLineBytes (CR included) passes; one byte more is refused with its line number", () => {
    const line = `{"id":"${"x".repeat(1024 - 10)}"}\r`;
    expect(line.length).toBe(1024);
    expect(byteByByte(new RowCounter("ndjson", { maxLineBytes: 1024 }), `${line}\n${line}\n`)).toBe(2);
    const refused = refusal(() => new RowCounter("ndjson", { maxLineBytes: 1024 }).push(bytes(`${line}\n\n{"id":"${"x".repeat(1024)}"}\n`)));
    expect(refused).toMatchObject({ code: "line-too-long", line: 3, limit: 1024 });
  });

  it("a CSV record's quoted line breaks belong to its length, and the record is reported at the line it starts", () => {
    const cell = `"${"a\n".repeat(600)}"`;
    const refused = refusal(() => byteByByte(new RowCounter("csv", { maxLineBytes: 1024 }), `id,address\nr1,${cell}\n`));
    expect(refused).toMatchObject({ code: "line-too-long", line: 2 });
  });

  it("CSV cells are text: brackets in them never count as depth", () => {
    expect(new RowCounter("csv", { maxLineBytes: 1024 }).push(bytes(`id\n${"[".repeat(100)}\n`))).toBe(2);
  });

  it("an NDJSON line nested past 3 levels is refused as too deep, even before it is too long", () => {
    const refused = refusal(() => new RowCounter("ndjson", { maxLineBytes: 1024 }).push(bytes(`{"county":"adams"}\n${"[".repeat(5000)}`)));
    expect(refused).toMatchObject({ code: "too-deep", line: 2, limit: 3 });
  });
});
