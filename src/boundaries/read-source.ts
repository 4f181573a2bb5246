/**
 * Reads a boundary file as a stream of lines, never whole: from a path or an http(s) URL, plain CSV
 * or a ZIP archive holding exactly one CSV (recognised by its first bytes, as the rate file is, since
 * the state switches between the two). An archive that stops inside its CSV is reported as cut
 * short; a plain file's last row is judged by its reader (its columns), since some states' files
 * end without a line break.
 */
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { Readable } from "node:stream";
import { Unzip, UnzipInflate } from "fflate";

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export interface OpenedSource {
  /** The file's name (the URL's last path segment), which carries the version. */
  readonly name: string;
  readonly bytes: AsyncIterable<Uint8Array>;
}

export async function openSource(source: string, timeoutMs: number): Promise<OpenedSource> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(timeoutMs), headers: { "user-agent": "Buckeye/1.0 (boundary file import)" } });
    if (!response.ok || response.body === null) throw new Error(`GET ${source} answered ${response.status}`);
    return { name: decodeURIComponent(basename(new URL(source).pathname)), bytes: Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>) };
  }
  return { name: basename(source), bytes: createReadStream(source, { highWaterMark: 1 << 18 }) };
}

/**
 * Refused before it is all read: more text than the caps allow (src/config.ts BOUNDARY_MAX_*).
 * Checked while streaming, so a ZIP bomb or one endless line never grows memory past a chunk.
 */
export class CapExceededError extends Error {}

/** Compressed bytes handed to the inflater at a time: deflate expands about 1,000-fold at most, so one push inflates at most ~16 MB. */
const INFLATE_SLICE = 1 << 14;

/** The file's text as it arrives: a ZIP archive's one CSV entry inflated on the fly, else the bytes themselves; refused past maxBytes of text. */
export async function* csvBytes(bytes: AsyncIterable<Uint8Array>, maxBytes = Number.POSITIVE_INFINITY): AsyncGenerator<Uint8Array> {
  const iterator = bytes[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const rest = { [Symbol.asyncIterator]: () => iterator };
  const head = first.value;
  const counted = counting(maxBytes);
  if (!ZIP_MAGIC.every((byte, i) => head[i] === byte)) {
    yield counted(head);
    for await (const chunk of rest) yield counted(chunk);
    return;
  }
  yield* unzipOneCsv(head, rest, maxBytes);
}

function tooManyBytes(maxBytes: number): CapExceededError {
  return new CapExceededError(`the file's text runs past ${maxBytes} bytes (BOUNDARY_MAX_BYTES): refused before it was all read`);
}

function counting(maxBytes: number): (chunk: Uint8Array) => Uint8Array {
  let total = 0;
  return (chunk) => {
    total += chunk.length;
    if (total > maxBytes) throw tooManyBytes(maxBytes);
    return chunk;
  };
}

async function* unzipOneCsv(head: Uint8Array, rest: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  let csvs = 0;
  let complete = false;
  let inflated = 0;
  const unzip = new Unzip((file) => {
    if (file.name.endsWith("/") || !/\.csv$/i.test(file.name)) return;
    if (++csvs > 1) {
      failure ??= new Error(`the ZIP archive holds more than one CSV file (the second is ${file.name}); expected exactly one boundary file`);
      return;
    }
    file.ondata = (error, data, final) => {
      if (failure) return;
      if (error) failure = new Error(`the ZIP archive cannot be read: ${error.message}`);
      else {
        inflated += data.length;
        if (inflated > maxBytes) {
          failure = tooManyBytes(maxBytes);
          file.terminate();
          return;
        }
        if (data.length > 0) out.push(data);
        if (final) complete = true;
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      for (let at = 0; at < chunk.length || (final && at === 0); at += INFLATE_SLICE) {
        const slice = chunk.subarray(at, at + INFLATE_SLICE);
        unzip.push(slice, final && at + INFLATE_SLICE >= chunk.length);
        if (failure) break;
      }
    } catch (error) {
      failure ??= new Error(`the ZIP archive cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (failure) throw failure;
  };
  push(head, false);
  yield* out.splice(0);
  for await (const chunk of rest) {
    push(chunk, false);
    yield* out.splice(0);
  }
  push(new Uint8Array(0), true);
  yield* out.splice(0);
  if (csvs === 0) throw new Error("the ZIP archive holds no CSV file");
  if (!complete) throw new Error("the ZIP archive ends inside its CSV file: it was probably cut short");
}

/** A batch of lines, without their CR LF. */
export interface LineBatch {
  lines: string[];
  /** The batch's last line is the text's last, and no line break follows it (the file may end so, or be cut short). */
  unterminated: boolean;
}

/**
 * The text's lines, a batch per chunk read; a byte-order mark is dropped. A last line without a
 * line break is a line like any other (some states' files end so); whether it is whole is for its
 * reader to tell (its columns, its dates). A line longer than maxLineLength is refused as soon as
 * it grows past it. Each chunk is searched for line breaks alone, so a long line costs its length,
 * not its square.
 */
export async function* csvLines(chunks: AsyncIterable<Uint8Array>, maxLineLength = Number.POSITIVE_INFINITY): AsyncGenerator<LineBatch> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const tooLong = () => new CapExceededError(`a line runs past ${maxLineLength} characters (BOUNDARY_MAX_LINE_LENGTH): refused before it was all read`);
  // A line still arriving may hold its CR, whose LF is in the next chunk.
  const pendingLimit = maxLineLength + 1;
  let rest = "";
  let first = true;
  for await (const chunk of chunks) {
    let text = decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      text = text.replace(/^\uFEFF/, "");
      first = false;
    }
    const cut = text.lastIndexOf("\n");
    if (cut === -1) {
      rest += text;
      if (rest.length > pendingLimit) throw tooLong();
      continue;
    }
    const lines = (rest + text.slice(0, cut)).split("\n");
    rest = text.slice(cut + 1);
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.endsWith("\r")) lines[i] = lines[i]!.slice(0, -1);
      if (lines[i]!.length > maxLineLength) throw tooLong();
    }
    if (rest.length > pendingLimit) throw tooLong();
    yield { lines, unterminated: false };
  }
  rest += decoder.decode();
  if (rest.endsWith("\r")) rest = rest.slice(0, -1);
  if (rest.trim() !== "") yield { lines: [rest], unterminated: true };
}
