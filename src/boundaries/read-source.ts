/**
 * Reads a boundary file as a stream of lines, never whole: from a path or an http(s) URL, plain CSV
 * or a ZIP archive holding exactly one CSV (recognised by its first bytes, as the rate file is, since
 * the state switches between the two). A file that stops in the middle of a row, or an archive that
 * stops inside its CSV, is reported as cut short.
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

/** The file's text as it arrives: a ZIP archive's one CSV entry inflated on the fly, else the bytes themselves. */
export async function* csvBytes(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = bytes[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const rest = { [Symbol.asyncIterator]: () => iterator };
  const head = first.value;
  if (!ZIP_MAGIC.every((byte, i) => head[i] === byte)) {
    yield head;
    yield* rest;
    return;
  }
  yield* unzipOneCsv(head, rest);
}

async function* unzipOneCsv(head: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  let csvs = 0;
  let complete = false;
  const unzip = new Unzip((file) => {
    if (file.name.endsWith("/") || !/\.csv$/i.test(file.name)) return;
    if (++csvs > 1) {
      failure ??= new Error(`the ZIP archive holds more than one CSV file (the second is ${file.name}); expected exactly one boundary file`);
      return;
    }
    file.ondata = (error, data, final) => {
      if (error) failure ??= new Error(`the ZIP archive cannot be read: ${error.message}`);
      else {
        if (data.length > 0) out.push(data);
        if (final) complete = true;
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      unzip.push(chunk, final);
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

/** The last line did not end with a line break. */
export class CutShortError extends Error {
  constructor() {
    super("the last row ends without a line break: the file was probably cut short");
  }
}

/** Lines (without their CR LF), a batch per chunk read; a byte-order mark is dropped. Throws CutShortError after the last full line when the text does not end with a line break. */
export async function* csvLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string[]> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let rest = "";
  let first = true;
  for await (const chunk of chunks) {
    let text = rest + decoder.decode(chunk, { stream: true });
    if (first) {
      text = text.replace(/^\uFEFF/, "");
      first = false;
    }
    const lines = text.split("\n");
    rest = lines.pop()!;
    for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith("\r")) lines[i] = lines[i]!.slice(0, -1);
    yield lines;
  }
  rest += decoder.decode();
  if (rest.trim() !== "") throw new CutShortError();
}
