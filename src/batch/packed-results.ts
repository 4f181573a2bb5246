/**
 * How a job's chunk results are kept in the store: their JSON (RowResult[]), deflated. A row's answer
 * repeats the same long texts as every other row's (the statutory sourcing, the source, the boundary
 * file's notes), about 1.5 KB of JSON a row, so a 100,000-row job's results were 150 MB of text
 * written, copied through the batch thread's memory and kept on disk until retention; deflated at
 * zlib's fastest level they are a fortieth of that (13.2 MB of results to 0.33 MB, 16 ms, measured
 * on a bench job's chunks; the default level gave a sixtieth in twice the time). Each chunk is packed
 * on its own just before it is written, so no group's results exist as one text. Chunks stored before
 * packing existed keep their JSON text in `output` and read as before.
 */
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";
import type { RowResult } from "../lookup/item-result.ts";

/** A chunk's results as stored: one of the two columns is set once it is done. */
export interface StoredResults {
  packed_output: Uint8Array | null;
  output: string | null;
}

/**
 * Where a chunk's JSON is encoded before it is deflated, kept for the next chunk (one per thread): zlib
 * would otherwise encode each into a buffer of its own, hundreds of kilobytes that malloc hands out and
 * takes back only when V8 collects them, which a batch thread, whose heap grows slowly, does seldom (a
 * job's worth filled a 64 MB malloc arena, measured).
 */
let scratch = Buffer.allocUnsafeSlow(1024 * 1024);

/**
 * The rows' JSON array, encoded into `scratch` a row at a time: the same bytes as JSON.stringify(rows),
 * without the chunk's whole text as one string. That string (750 KB for 500 rows) went to V8's
 * large-object space, so a 100,000-row job allocated 150 MB there, which counts against the old
 * generation and started a full collection every few chunks, each marking the whole street index
 * (docs/operations/benchmarks.md); a row's 1.5 KB dies young instead.
 */
function encodeRows(rows: readonly unknown[]): number {
  let at = 0;
  const put = (text: string) => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; grow before writing, as write() cuts what does not fit.
    if (at + text.length * 3 > scratch.byteLength) {
      const larger = Buffer.allocUnsafeSlow(Math.max(scratch.byteLength * 2, at + text.length * 3));
      scratch.copy(larger, 0, 0, at);
      scratch = larger;
    }
    at += scratch.write(text, at, "utf8");
  };
  put("[");
  rows.forEach((row, i) => put(i === 0 ? JSON.stringify(row) : `,${JSON.stringify(row)}`));
  put("]");
  return at;
}

export function packResults(rows: readonly unknown[]): Uint8Array {
  // Encoded first: encoding may replace `scratch` with a larger buffer.
  const bytes = encodeRows(rows);
  return deflateRawSync(scratch.subarray(0, bytes), { level: constants.Z_BEST_SPEED });
}

/** The chunk's results, or null while it has none. */
export function unpackResults(chunk: StoredResults): RowResult[] | null {
  if (chunk.packed_output !== null) return JSON.parse(inflateRawSync(chunk.packed_output).toString("utf8")) as RowResult[];
  return chunk.output === null ? null : (JSON.parse(chunk.output) as RowResult[]);
}
