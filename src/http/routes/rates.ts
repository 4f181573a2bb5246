/**
 * GET /api/v1/rates (docs/api/README.md): by county, ZIP, address or coordinates, at a date. The lookup
 * service decides (`answerOne`); this route reads the query and answers, through the one body cache
 * in front of the service (../cached-answers.ts says what it keeps and under which key).
 */
import type { H3Event } from "h3";
import { dateInOhio } from "../../rates/calendar.ts";
import { recordContext } from "../../rates/records.ts";
import { combineFields, FIELD_TEXT_SCHEMAS, strategyOf, type LookupItem } from "../../lookup/lookup-item.ts";
import { isZipOnly } from "../../lookup/resolve-item.ts";
import { jsonAnswer } from "../answer-headers.ts";
import { ANSWERS_KEPT } from "../body-cache.ts";
import { AnswerKey, CachedAnswers } from "../cached-answers.ts";
import type { ApiContext } from "../context.ts";
import { readQuery } from "../query.ts";
import { TextMemo } from "../text-memo.ts";
import { itemProblem } from "../../lookup/item-answers.ts";

/** The query parameters are the fields of a lookup item (src/lookup/lookup-item.ts), read by the same schemas. */
export const RATE_QUERY = FIELD_TEXT_SCHEMAS;
/** An empty `date=` means today, as an empty date cell of a batch row does (docs/api/README.md). */
const BLANK_IS_ABSENT: ReadonlySet<string> = new Set(["date"]);
/**
 * Distinct query strings whose reading is kept (src/http/text-memo.ts): as many as the body cache keeps answers,
 * since a reading dropped before its answer makes every reuse of that answer read and check its query again (with
 * 4,096 kept, a mix of 5,000 addresses did so on every request). A reading is a few hundred bytes, a kept answer
 * over a kilobyte.
 */
export const QUERIES_KEPT = ANSWERS_KEPT;

/** A query string read: the lookup, and what about it decides the body cache's key. */
interface ReadLookup {
  item: LookupItem;
  /** A county (or a county and ZIP) never reads the boundary file, so its key needs no version and asks for none. */
  countyOrZip: boolean;
  needsVersion: boolean;
  /** The body cache's key for this query (`AnswerKey`): the one part of a reading that changes, with the file's version and the dates. */
  key: AnswerKey;
}

function readLookup(event: H3Event, today: string): ReadLookup {
  const item = combineFields(readQuery(event, RATE_QUERY, BLANK_IS_ABSENT), today);
  if ("kind" in item) throw itemProblem(item);
  const countyOrZip = strategyOf(item) === "county-or-zip";
  // Kept and shared by every request that sends the same text: frozen, so no step can change it for the next. Its key
  // changes only as the file's version and the answer's dates do, the same for every request that reads it.
  return Object.freeze({ item: Object.freeze(item), countyOrZip, needsVersion: !countyOrZip || isZipOnly(item), key: new AnswerKey(CachedAnswers.itemKey(item)) });
}

export function getRates(ctx: ApiContext) {
  const service = ctx.lookups.service;
  const answers = new CachedAnswers((item, context) => service.answerOne(item, context));
  // A lookup without a date is for today in Ohio, so what a query string reads as changes at midnight there.
  const lookups = new TextMemo<ReadLookup>(QUERIES_KEPT);
  let readOn = "";
  return async (event: H3Event) => {
    const today = dateInOhio(ctx.now());
    if (today !== readOn) {
      lookups.clear();
      readOn = today;
    }
    const reading = lookups.get(event.url.search, () => readLookup(event, today));
    const { item, countyOrZip, needsVersion } = reading;
    const requestId = event.context.requestId ?? "";
    const freshness = await ctx.freshness();
    const table = ctx.rates.table;
    const version = needsVersion ? await service.boundaryVersion() : null;
    const key = reading.key.of(freshness, version);
    const kept = answers.find(table, key, requestId);
    if (kept !== undefined) return jsonAnswer(event, kept);
    const result = await answers.answer(table, key, item, recordContext(freshness, requestId), { countyOrZip, version });
    if (result.kind === "failure") throw itemProblem(result);
    return jsonAnswer(event, JSON.stringify(result.body));
  };
}
