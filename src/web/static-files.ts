/**
 * Fixed files served beside the API: the dashboard's script, stylesheet and icon, and the reference
 * page's Swagger UI bundle (1.4 MB as it ships). Each is compressed once, off the answering thread (zlib's
 * asynchronous calls run on libuv's pool), when the started service warms them (`warm`) or else the
 * first time it is asked for, and sent as the client
 * accepts: brotli, gzip or as it is. An ETag lets a browser that has the file ask again with one
 * header and get an empty 304, and `Cache-Control` lets it skip even that for a day. The API's OpenAPI
 * document is one such fixed body too (`FixedAnswer`), built when the app is: answering it is a lookup,
 * never a serialization, so a client that asks for it again and again costs no more than for /healthz.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** A day: the names carry no version, so a new release's file is fetched again by the next day at the latest (the ETag tells sooner on a reload). */
export const STATIC_CACHE_CONTROL = "public, max-age=86400";

type Encoding = "br" | "gzip";

interface Prepared {
  identity: Buffer;
  hash: string;
  encoded: Promise<Record<Encoding, Buffer>>;
}

/** The encoding to send for this `Accept-Encoding` (RFC 9110 §12.5.3): brotli before gzip, neither when refused with q=0. */
export function preferredEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [token, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(token!.trim(), q ? Number(q[1]) : 1);
  }
  const weight = (name: Encoding) => accepted.get(name) ?? (accepted.get("*") ?? 0);
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

function prepare(identity: Buffer): Prepared {
  const hash = createHash("sha256").update(identity).digest("base64url").slice(0, 22);
  const encoded = Promise.all([
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipped(identity, { level: 9 }),
  ]).then(([br, gz]) => ({ br, gzip: gz }));
  // Rejected only if zlib fails, which it does not for a buffer in memory; the answer awaits it anyway.
  encoded.catch(() => {});
  return { identity, hash, encoded };
}

/** Each encoding is its own representation with its own ETag (RFC 9110 §8.8.3): the file's hash, suffixed. */
const etagOf = (hash: string, encoding: Encoding | null) => `"${hash}${encoding ? `-${encoding}` : ""}"`;

/** Whether `If-None-Match` names one of this file's ETags (weak comparison, RFC 9110 §13.1.2, as a browser revalidates). */
function matches(ifNoneMatch: string | null, hash: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === "*" || t === etagOf(hash, null) || t === etagOf(hash, "br") || t === etagOf(hash, "gzip");
  });
}

/**
 * One fixed body, hashed and compressed once when it is built (compression starts at once, off the
 * answering thread), answered as the request accepts it: brotli, gzip or as it is, with its ETag, or an
 * empty 304 when `If-None-Match` names it.
 */
export class FixedAnswer {
  readonly #type: string;
  readonly #cacheControl: string;
  readonly #file: Prepared;

  constructor(type: string, body: Buffer, cacheControl: string) {
    this.#type = type;
    this.#cacheControl = cacheControl;
    this.#file = prepare(body);
  }

  /** Resolves once the body's compressed forms are made, or zlib failed (the answer then reports it, as before). */
  compressed(): Promise<void> {
    return this.#file.encoded.then(
      () => {},
      () => {},
    );
  }

  async answer(request: Request): Promise<Response> {
    const file = this.#file;
    const encoding = preferredEncoding(request.headers.get("accept-encoding"));
    const headers = new Headers({
      etag: etagOf(file.hash, encoding),
      "cache-control": this.#cacheControl,
      vary: "accept-encoding",
      "x-content-type-options": "nosniff",
    });
    if (matches(request.headers.get("if-none-match"), file.hash)) return new Response(null, { status: 304, headers });
    headers.set("content-type", this.#type);
    if (encoding === null) return new Response(new Uint8Array(file.identity), { headers });
    headers.set("content-encoding", encoding);
    return new Response(new Uint8Array((await file.encoded)[encoding]), { headers });
  }
}

export class StaticFiles {
  readonly #types: ReadonlyMap<string, string>;
  readonly #read: (name: string) => Buffer;
  readonly #prepared = new Map<string, FixedAnswer>();

  /** `types` names every file served (name → content type); `read` gives a file's bytes, read on its first request. */
  constructor(types: Record<string, string>, read: (name: string) => Buffer) {
    this.#types = new Map(Object.entries(types));
    this.#read = read;
  }

  /** The answer for `name`, or null when it is not one of these files. */
  async answer(name: string, request: Request): Promise<Response | null> {
    return this.#file(name)?.answer(request) ?? null;
  }

  /**
   * Reads and starts compressing every file now, so no request waits for it (a started service
   * calls this; tests that never open the files do not pay for it). Idempotent. Resolves once every
   * file is compressed.
   */
  warm(): Promise<void> {
    // Files are read here, at once, so a missing one still fails the start that asked for it.
    const files = [...this.#types.keys()].map((name) => this.#file(name)!);
    return Promise.all(files.map((file) => file.compressed())).then(() => {});
  }

  #file(name: string): FixedAnswer | null {
    const type = this.#types.get(name);
    if (type === undefined) return null;
    let file = this.#prepared.get(name);
    if (!file) this.#prepared.set(name, (file = new FixedAnswer(type, this.#read(name), STATIC_CACHE_CONTROL)));
    return file;
  }
}
