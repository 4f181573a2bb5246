/**
 * GET /rates's answers, kept: one body cache in front of the lookup service's `answerOne`, with one
 * key for every kind of lookup. A county or ZIP answer is the same bytes every time but its request
 * id, so it is kept; so is an answer the state's boundary file settled, keyed by the file version it
 * came from (an import or a rollback is a new key), so a checkout asking about the same address again
 * costs no probe. A ZIP alone answers from the active file's own records for it when the file covers
 * it (src/lookup/resolve-zip-file.ts), so its key names the version too. A geocoded or polygon answer
 * is never kept: the geocoder may answer differently tomorrow.
 *
 * A hit is `find`, synchronous (a Map lookup on the key kept with the query's reading, `AnswerKey`); only a miss awaits
 * the service. The county and ZIP fast path is benchmarked (docs/operations/benchmarks.md).
 */
import type { RatesFreshness } from "../freshness/rates-freshness.ts";
import type { LookupItem } from "../lookup/lookup-item.ts";
import type { ItemResult } from "../lookup/item-result.ts";
import type { RateTable } from "../rates/rate-table.ts";
import type { RecordContext } from "../rates/records.ts";
import { lookupAnswers } from "../metrics.ts";
import { BodyCache } from "./body-cache.ts";

/** What an answer depends on besides the lookup: both dates are in the body (last_reconciled, beyond_confirmed). */
type AnswerAsOf = Pick<RatesFreshness, "lastReconciled" | "confirmedThrough">;

/**
 * What a reused answer counts in `buckeye_lookup_answers_total`, as the lookup service counts the answer it
 * built (docs/operations/metrics.md): the label's cell, bound when the body is kept, so a hit adds one to a
 * number and nothing else to the fast path.
 */
function answeredFromCache(resolvedBy: string): () => void {
  const cell = lookupAnswers.cell({ resolved_by: resolvedBy });
  return () => {
    cell.value += 1;
  };
}

/**
 * One query's key in the body cache (`CachedAnswers.keyOf`), kept while the boundary file's version and the dates
 * the answer carries stay as they were, so every request for that query looks its answer up by the same string
 * object. V8 keeps a string's hash in the string, and the cache holds this very object (the miss that kept the answer
 * used it), so a hit neither hashes nor compares the text. A key built per request is a new 100–200-character string,
 * hashed and compared whole each time: 2 µs of a single address's 45 µs on the answering thread
 * (docs/operations/benchmarks.md, History, 2026-12-04).
 */
export class AnswerKey {
  #version: string | null = null;
  #lastReconciled = "";
  #confirmedThrough = "";
  #key: string | null = null;

  /** `itemKey`: the query's lookup, as `CachedAnswers.itemKey` writes it. */
  constructor(readonly itemKey: string) {}

  /** The key for an answer as of `asOf` from the file of `version`: the one kept, unless either changed. */
  of(asOf: AnswerAsOf, version: string | null): string {
    if (this.#key === null || version !== this.#version || asOf.lastReconciled !== this.#lastReconciled || asOf.confirmedThrough !== this.#confirmedThrough) {
      this.#version = version;
      this.#lastReconciled = asOf.lastReconciled;
      this.#confirmedThrough = asOf.confirmedThrough;
      this.#key = CachedAnswers.keyOf(this.itemKey, asOf, version);
    }
    return this.#key;
  }
}

export class CachedAnswers {
  readonly #bodies = new BodyCache();
  readonly #answerOne: (item: LookupItem, context: RecordContext) => Promise<ItemResult>;

  constructor(answerOne: (item: LookupItem, context: RecordContext) => Promise<ItemResult>) {
    this.#answerOne = answerOne;
  }

  /** Every field of the lookup, as the key holds them: built once per distinct query (the route keeps it with the query's reading), not per request. */
  static itemKey(item: LookupItem): string {
    return `${item.date}|${item.address ?? ""}|${item.zip ?? ""}|${item.zip4 ?? ""}|${item.county ?? ""}|${item.lat ?? ""}|${item.lon ?? ""}`;
  }

  /** The one key: the boundary file's version (null when the lookup never reads the file, or no file is active), the dates the body carries, and the lookup's `itemKey`. */
  static keyOf(itemKey: string, asOf: AnswerAsOf, version: string | null): string {
    return `${version ?? ""}|${asOf.lastReconciled}|${asOf.confirmedThrough}|${itemKey}`;
  }

  /** The body kept for `key`, with `requestId` in it; undefined when none is kept. The cache empties when `table` is replaced. */
  find(table: RateTable, key: string, requestId: string): string | undefined {
    return this.#bodies.find(table, key, requestId);
  }

  /**
   * The lookup answered by the service, kept under `key` when it may be: a county or ZIP answer
   * (`countyOrZip`), or a record the file of `version` settled. A failure is returned, never kept.
   */
  async answer(table: RateTable, key: string, item: LookupItem, context: RecordContext, how: { countyOrZip: boolean; version: string | null }): Promise<ItemResult> {
    const result = await this.#answerOne(item, context);
    if (result.kind === "failure") return result;
    const settledByFile = how.version !== null && result.kind === "rate" && result.body.boundary_record?.version === how.version;
    if (how.countyOrZip || settledByFile) this.#bodies.keep(table, key, result.body, answeredFromCache(result.kind === "ambiguous" ? "ambiguous" : result.body.resolved_by));
    return result;
  }
}
