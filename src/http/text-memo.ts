/**
 * Results of a pure reading of request text (a query string), kept by that text, so the same lookup
 * sent again is not parsed and validated again: a checkout asks for the same county or ZIP thousands of
 * times a second, and reading its query string was a tenth of the route's own time
 * (docs/operations/benchmarks.md, "Middleware budget"). Only what was read without error is kept (a
 * refusal throws before anything is kept), and a full memo is emptied rather than ordered, so a stream of
 * distinct queries costs one clear per `max` of them and never grows the heap.
 */
export class TextMemo<T> {
  readonly #kept = new Map<string, T>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** The result kept for `text`, else `read()`'s, kept for next time. */
  get(text: string, read: () => T): T {
    const kept = this.#kept.get(text);
    if (kept !== undefined) return kept;
    const result = read();
    if (this.#kept.size >= this.#max) this.#kept.clear();
    this.#kept.set(text, result);
    return result;
  }

  clear(): void {
    this.#kept.clear();
  }
}
