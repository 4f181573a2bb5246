/**
 * Reads a state's SST file as it streams, never whole: from a path or an http(s) URL, plain CSV or a
 * ZIP archive holding exactly one CSV (recognised by its first bytes, since the state switches
 * between the two). The boundary file is read as a stream of lines; the rate file, small, as one
 * text, under the same kind of caps (readCappedText). An archive that stops inside its CSV is
 * reported as cut short; a plain file's last row is judged by its reader (its columns), since some
 * states' files end without a line break.
 */
import { createHash } from "node:crypto";
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

export async function openSource(source: string, timeoutMs: number, userAgent = "Buckeye/1.0 (boundary file import)"): Promise<OpenedSource> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(timeoutMs), headers: { "user-agent": userAgent } });
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

/** Which setting a cap is named by in a refusal, and who hears the ZIP entry's name. */
export interface CapNames {
  /** The setting of the text cap: BOUNDARY_MAX_BYTES unless told. */
  setting?: string;
  /** Told the CSV entry's name when the file is a ZIP archive. */
  onEntry?: (name: string) => void;
}

/** The file's text as it arrives: a ZIP archive's one CSV entry inflated on the fly, else the bytes themselves; refused past maxBytes of text. */
export async function* csvBytes(bytes: AsyncIterable<Uint8Array>, maxBytes = Number.POSITIVE_INFINITY, names: CapNames = {}): AsyncGenerator<Uint8Array> {
  const iterator = bytes[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const rest = { [Symbol.asyncIterator]: () => iterator };
  const head = first.value;
  const setting = names.setting ?? "BOUNDARY_MAX_BYTES";
  const counted = counting(maxBytes, setting);
  if (!ZIP_MAGIC.every((byte, i) => head[i] === byte)) {
    yield counted(head);
    for await (const chunk of rest) yield counted(chunk);
    return;
  }
  yield* unzipOneCsv(head, rest, maxBytes, setting, names.onEntry);
}

/** `what`: the file's text (a ZIP archive's entry inflated), or the bytes read of it. */
function tooManyBytes(maxBytes: number, setting: string, what = "the file's text"): CapExceededError {
  return new CapExceededError(`${what} runs past ${maxBytes} bytes (${setting}): refused before it was all read`);
}

function counting(maxBytes: number, setting: string, what?: string): (chunk: Uint8Array) => Uint8Array {
  let total = 0;
  return (chunk) => {
    total += chunk.length;
    if (total > maxBytes) throw tooManyBytes(maxBytes, setting, what);
    return chunk;
  };
}

async function* unzipOneCsv(head: Uint8Array, rest: AsyncIterable<Uint8Array>, maxBytes: number, setting: string, onEntry?: (name: string) => void): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  let csvs = 0;
  let complete = false;
  let inflated = 0;
  const unzip = new Unzip((file) => {
    if (file.name.endsWith("/") || !/\.csv$/i.test(file.name)) return;
    if (++csvs > 1) {
      failure ??= new Error(`the ZIP archive holds more than one CSV file (the second is ${file.name}); expected exactly one`);
      return;
    }
    onEntry?.(file.name);
    file.ondata = (error, data, final) => {
      if (failure) return;
      if (error) failure = new Error(`the ZIP archive cannot be read: ${error.message}`);
      else {
        inflated += data.length;
        if (inflated > maxBytes) {
          failure = tooManyBytes(maxBytes, setting);
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

/** What readCappedText read: the text, the file's name and, for a ZIP archive, its CSV entry's. */
export interface CappedText {
  text: string;
  name: string;
  entry: string | null;
}

export interface CappedTextOptions {
  timeoutMs: number;
  /** Bytes read (a download, a file) and bytes of text (a ZIP archive's entry inflated), each. */
  maxBytes: number;
  /** The setting that sets maxBytes, named in a refusal. */
  setting: string;
  /** The SHA-256 (hex) the bytes read must have; unset: not checked. */
  sha256?: string | null;
  userAgent: string;
}

/**
 * A small file (the state's rate file) read whole, but only as far as its caps: the bytes read and
 * the text are each counted as they arrive, and the read is abandoned (the download cancelled) the
 * moment either passes maxBytes, so a ZIP bomb costs at most one inflated slice past the cap.
 */
export async function readCappedText(source: string, options: CappedTextOptions): Promise<CappedText> {
  const opened = await openSource(source, options.timeoutMs, options.userAgent);
  const hash = createHash("sha256");
  const read = counting(options.maxBytes, options.setting, "the bytes read of the file");
  const raw = opened.bytes as AsyncIterable<Uint8Array> & { destroy?: () => void };
  const hashed = (async function* () {
    for await (const chunk of raw) {
      hash.update(read(chunk));
      yield chunk;
    }
  })();
  let entry: string | null = null;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  try {
    for await (const chunk of csvBytes(hashed, options.maxBytes, { setting: options.setting, onEntry: (name) => (entry = name) })) text += decoder.decode(chunk, { stream: true });
    text += decoder.decode();
  } finally {
    raw.destroy?.();
  }
  if (options.sha256) {
    const digest = hash.digest("hex");
    if (digest !== options.sha256.toLowerCase()) throw new Error(`the file's SHA-256 is ${digest}, not the expected ${options.sha256.toLowerCase()}: refused as altered or not the file meant`);
  }
  return { text, name: opened.name, entry };
}
