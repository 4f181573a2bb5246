/**
 * Serialized answers, reused. For a given table, county (or ZIP), date and resolution, the rate
 * answer is the same bytes every time except its request_id. The body is built once with a
 * placeholder id and kept as the text either side of it; a request writes its own id into that
 * hole. The placeholder holds control characters no record can contain, so it is found wherever
 * the record puts request_id: the record's field order is the record's business, not the cache's.
 */
import { LRUCache } from "lru-cache";
import type { RateTable } from "../rates/rate-table.ts";

const PLACEHOLDER = "\u0000request-id\u0000";
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/**
 * A serialized body around the place its request id goes; `after` is null for a body without one.
 * `onHit`: what a reuse of the body counts (a metric's counter, its labels bound when the body was kept).
 */
interface Template {
  before: string;
  after: string | null;
  onHit: (() => void) | null;
}

function toTemplate(json: string, onHit: (() => void) | null = null): Template {
  const at = json.indexOf(PLACEHOLDER_JSON);
  return at < 0 ? { before: json, after: null, onHit } : { before: json.slice(0, at), after: json.slice(at + PLACEHOLDER_JSON.length), onHit };
}

function withId(template: Template, requestId: string): string {
  return template.after === null ? template.before : `${template.before}${JSON.stringify(requestId)}${template.after}`;
}

/** How many answers are kept, the least recently asked for dropped first. */
export const ANSWERS_KEPT = 20_000;

export class BodyCache {
  #table: RateTable | null = null;
  readonly #bodies = new LRUCache<string, Template>({ max: ANSWERS_KEPT });

  /**
   * Returns the JSON body for `key`, building it with `build(placeholderId)` on a miss. The cache
   * empties whenever the rate table is replaced (a reconciliation recorded new periods).
   */
  get(table: RateTable, key: string, requestId: string, build: (requestId: string) => object): string {
    const found = this.find(table, key, requestId);
    if (found !== undefined) return found;
    const template = toTemplate(JSON.stringify(build(PLACEHOLDER)));
    this.#bodies.set(key, template);
    return withId(template, requestId);
  }

  /** The body kept for `key`, with `requestId` in it; undefined when none is kept. */
  find(table: RateTable, key: string, requestId: string): string | undefined {
    if (table !== this.#table) {
      this.#bodies.clear();
      this.#table = table;
    }
    const template = this.#bodies.get(key);
    if (template === undefined) return undefined;
    template.onHit?.();
    return withId(template, requestId);
  }

  /** Keeps a body built elsewhere (asynchronously) under `key`; its request_id is what each request replaces; `onHit` runs at each reuse. */
  keep(table: RateTable, key: string, body: { request_id: string }, onHit: (() => void) | null = null): void {
    if (table !== this.#table) return;
    this.#bodies.set(key, toTemplate(JSON.stringify({ ...body, request_id: PLACEHOLDER }), onHit));
  }
}
