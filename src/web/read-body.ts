/**
 * The one way a request body is read, by the API and the dashboard alike (after its media type:
 * the API's json-body.ts sendsJson, the batch upload's own check, the dashboard's form reader): a
 * declared Content-Length over the limit is refused before a byte is read (413), and every body,
 * whatever it declared and chunked or not, is counted as it arrives and refused at the first byte
 * past the limit. `readCapped` hands each chunk to a check that may stop the upload early (the
 * batch endpoint stops at row 100,001), so no body is ever held whole before it is judged. How
 * fast a body must arrive is the listening socket's business (src/http/slow-clients.ts).
 */
import type { H3Event, HTTPError } from "h3";
import type { IncomingMessage, ServerResponse } from "node:http";
import { setImmediate as nextTurn } from "node:timers/promises";
import { problem } from "./problem.ts";

/** The media type without parameters, lower-cased: "application/json" for "Application/JSON; charset=utf-8". */
export function mediaType(event: H3Event): string {
  return (event.req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** How much of a body is read and inspected between two turns of the event loop: about half a millisecond of row counting, so an upload arriving in one burst holds a single lookup behind it for no longer (three 5.5 MB uploads at once, at 1 MiB a turn, held some for 20–50 ms, measured). */
const YIELD_EVERY_BYTES = 256 * 1024;

/**
 * Reads the body, at most `maxBytes` of it. `tooLarge` builds the 413; `inspect` sees each chunk as
 * it arrives and throws to refuse the upload there. Reading stops at the first refusal, and the
 * rest of the body is read and dropped.
 */
export async function readCapped(event: H3Event, maxBytes: number, tooLarge: (bytes: number | null) => HTTPError, inspect?: (chunk: Uint8Array) => void): Promise<Buffer> {
  const declared = event.req.headers.get("content-length");
  // Refused unread: Node discards a body nobody reads once the answer is sent, keeping the connection usable.
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(Number(declared));
  const length = declared === null ? Number.NaN : Number(declared);
  const read = new BodyBuffer(Number.isSafeInteger(length) && length >= 0 ? length : null);
  const body = bodyChunks(event);
  if (!body) return read.bytes();
  let sinceTurn = 0;
  try {
    for (;;) {
      const { done, value } = await body.next().catch(() => {
        // Reading fails only when the client's stream breaks (it closed the connection, or sent a bad chunk):
        // its doing, answered as such, so a client that walks away is never logged or counted as a fault of ours.
        throw problem("body-incomplete", "The connection ended before the whole request body arrived; nothing was done.");
      });
      if (done) break;
      if (read.size + value.byteLength > maxBytes) throw tooLarge(null);
      inspect?.(value);
      read.append(value);
      // A body that has arrived already is read in one go of microtasks; every megabyte, other requests get a turn.
      sinceTurn += value.byteLength;
      if (sinceTurn >= YIELD_EVERY_BYTES) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
  } catch (error) {
    body.discardRest();
    throw error;
  }
  return read.bytes();
}

interface BodyChunks {
  next(): Promise<IteratorResult<Uint8Array>>;
  /**
   * The rest of a refused body is read and dropped while the answer goes out, holding nothing: left
   * unread, it would be parsed as the connection's next request. (Cancelling or destroying the stream
   * stops reading without draining the socket; closing the connection trips listhen's shutdown
   * tracker.) The listening socket's limits still end a client that sends too slowly
   * (src/http/slow-clients.ts) or never stops (HTTP_REQUEST_TIMEOUT_MS).
   */
  discardRest(): void;
}

/**
 * The body's chunks. Under Node (srvx's Node adapter), straight from the IncomingMessage: the web
 * stream srvx builds over it copies every chunk once more (Node's Readable.toWeb), so three uploads of
 * 5.5 MB arriving at once left three copies of each in malloc's arenas until a collection (heaptrack,
 * docs/operations/benchmarks.md). Elsewhere (Deno, a Request handed to app.fetch), the web stream.
 */
function bodyChunks(event: H3Event): BodyChunks | null {
  const node = (event.req as { runtime?: { node?: { req?: IncomingMessage; res?: ServerResponse } } }).runtime?.node;
  const incoming = node?.req;
  if (incoming) {
    // The server holds back the 100 a client asked for (src/http/server-limits.ts) until the body is wanted: by now the request has passed every check made without it.
    if (node.res && !node.res.headersSent && /^100-continue$/i.test(incoming.headers.expect ?? "")) node.res.writeContinue();
    // Not destroyed on an early stop: the iterator lets go of the stream, which then drains (a listener
    // it left would keep resume() from flowing).
    const chunks = incoming.iterator({ destroyOnReturn: false }) as AsyncIterator<Uint8Array>;
    return {
      next: () => chunks.next(),
      discardRest: () => {
        void Promise.resolve(chunks.return?.())
          .then(() => incoming.resume())
          .catch(() => {});
      },
    };
  }
  const body = event.req.body;
  if (!body) return null;
  const reader = body.getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
    discardRest: () => {
      void (async () => {
        while (!(await reader.read()).done);
      })().catch(() => {});
    },
  };
}

/** Where a chunkless body starts, and grows by doubling: one socket read. */
const FIRST_UNDECLARED_BYTES = 64 * 1024;

/**
 * A body copied, chunk by chunk, into one buffer as it arrives: sized by the declared length (which the
 * HTTP parser holds the body to, and which the caller has counted against its cap), else grown by
 * doubling. Each chunk is dropped once copied, so it dies young and its memory serves the next socket
 * read. A list of every chunk, held to the end and then concatenated, had the body in memory twice,
 * and the chunks outlived the young generation, kept in malloc's arenas until a full collection.
 */
class BodyBuffer {
  #buffer: Buffer;
  size = 0;

  constructor(declared: number | null) {
    this.#buffer = Buffer.allocUnsafeSlow(declared ?? FIRST_UNDECLARED_BYTES);
  }

  append(chunk: Uint8Array): void {
    if (this.size + chunk.byteLength > this.#buffer.byteLength) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.#buffer.byteLength * 2, this.size + chunk.byteLength));
      this.#buffer.copy(grown, 0, 0, this.size);
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.size);
    this.size += chunk.byteLength;
  }

  /** The body: the buffer itself when it was filled exactly (so its memory can be handed to a thread whole), else a copy of what arrived. */
  bytes(): Buffer {
    return this.size === this.#buffer.byteLength ? this.#buffer : Buffer.from(this.#buffer.subarray(0, this.size));
  }
}

