/**
 * How deep JSON text nests, measured on its bytes as they arrive, without parsing it: `[` and `{`
 * outside strings go one level down, `]` and `}` one up. A lookup is a flat object (depth 1), so a
 * file or body that nests deeper than a few levels is refused before JSON.parse ever builds it: a
 * line of 60 MB of `[` held a batch thread for minutes (reported: 131 s, then out of heap).
 */

/**
 * How deep one lookup may nest: the object itself, and two levels more so that a value sent as a
 * list (`{"zip": ["43215"]}`) still reaches the item's own validation and fails that row alone.
 */
export const MAX_LOOKUP_DEPTH = 3;

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

export class JsonDepthGauge {
  readonly #maxDepth: number;
  readonly #perLine: boolean;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #line = 1;

  /** `perLine`: NDJSON, where each line is a value of its own and a line break starts again at depth 0. */
  constructor(maxDepth: number, perLine: boolean) {
    this.#maxDepth = maxDepth;
    this.#perLine = perLine;
  }

  /** Adds a chunk; answers the line (from 1) where the text first nests deeper than allowed, or 0 while it does not. */
  push(chunk: Uint8Array): number {
    const max = this.#maxDepth;
    const perLine = this.#perLine;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let line = this.#line;
    let over = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === NEWLINE) {
        line++;
        // A raw line break cannot be inside a JSON string: in NDJSON it ends the value, readable or not.
        if (perLine) {
          depth = 0;
          inString = false;
          escaped = false;
        }
      } else if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        if (++depth > max) {
          over = line;
          break;
        }
      } else if ((byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) && depth > 0) depth--;
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    this.#line = line;
    return over;
  }
}
