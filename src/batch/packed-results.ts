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

export function packResults(rows: readonly unknown[]): Uint8Array {
  const json = JSON.stringify(rows);
  const bytes = Buffer.byteLength(json);
  if (bytes > scratch.byteLength) scratch = Buffer.allocUnsafeSlow(bytes);
  scratch.write(json, 0, "utf8");
  return deflateRawSync(scratch.subarray(0, bytes), { level: constants.Z_BEST_SPEED });
}

/** The chunk's results, or null while it has none. */
export function unpackResults(chunk: StoredResults): RowResult[] | null {
  if (chunk.packed_output !== null) return JSON.parse(inflateRawSync(chunk.packed_output).toString("utf8")) as RowResult[];
  return chunk.output === null ? null : (JSON.parse(chunk.output) as RowResult[]);
}
