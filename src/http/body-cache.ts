/**
 * Serialized answers, reused. For a given table, county (or ZIP), date and resolution, the rate
 * answer is the same bytes every time except its request_id, which the records put last. The
 * body is cached up to that field and the id appended per request, so the hot path skips
 * evaluating, building and serializing the record.
 */
import { LRUCache } from "lru-cache";
import type { RateTable } from "../rates/rate-table.ts";

const REQUEST_ID_SENTINEL = "\u0000request-id\u0000";

export class BodyCache {
  #table: RateTable | null = null;
  readonly #bodies = new LRUCache<string, string>({ max: 20_000 });

  /**
   * Returns the JSON body for `key`, building it with `build(sentinelId)` on a miss. The cache
   * empties whenever the rate table is replaced (a reconciliation recorded new periods).
   */
  get(table: RateTable, key: string, requestId: string, build: (requestId: string) => object): string {
    if (table !== this.#table) {
      this.#bodies.clear();
      this.#table = table;
    }
    let template = this.#bodies.get(key);
    if (template === undefined) {
      const json = JSON.stringify(build(REQUEST_ID_SENTINEL));
      template = json.slice(0, json.lastIndexOf(JSON.stringify(REQUEST_ID_SENTINEL)));
      if (`${template}${JSON.stringify(REQUEST_ID_SENTINEL)}}` !== json) throw new Error("request_id must be the last field of a cached body");
      this.#bodies.set(key, template);
    }
    return `${template}${JSON.stringify(requestId)}}`;
  }
}
