/**
 * POST /api/v1/rates/batch: up to 1,000 lookups answered inline, in input order. Each result is
 * `{id, status, body}`: body is a rate record, an ambiguous response or a problem object, and
 * status the HTTP status a single lookup would have had. One bad item never fails the others,
 * and the whole batch counts as one request against the rate limit.
 */
import type { H3Event } from "h3";
import { readLookupsBody } from "../../lookup/read-batch-file.ts";
import { dateInOhio } from "../../rates/calendar.ts";
import { recordContext } from "../../rates/records.ts";
import type { ApiContext } from "../context.ts";
import { sendsJson } from "../json-body.ts";
import { readCapped } from "../body-guard.ts";
import { problem } from "../../web/problem.ts";
import { itemAnswer, type ItemAnswer } from "./lookup-answers.ts";
import type { BatchAnswer } from "../answer-schemas.ts";

export const MAX_INLINE_LOOKUPS = 1000;
/** 1,000 lookups of 300-character addresses fit in well under this. */
const MAX_INLINE_BYTES = 1_048_576;

async function readLimitedText(event: H3Event, maxBytes: number, what: string): Promise<string> {
  const tooLarge = (declared: number | null) =>
    problem("batch-too-large", declared === null ? `${what} is over the limit of ${maxBytes} bytes.` : `${what} is ${declared} bytes; the limit is ${maxBytes}.`);
  return (await readCapped(event, maxBytes, tooLarge)).toString("utf8");
}

export function postRatesBatch(ctx: ApiContext) {
  return async (event: H3Event) => {
    if (!sendsJson(event)) {
      throw problem("unsupported-media-type", 'Send the lookups as Content-Type: application/json, {"lookups": [...]}.');
    }
    const text = await readLimitedText(event, MAX_INLINE_BYTES, "The body");
    const requestId = event.context.requestId ?? "";
    const today = dateInOhio(ctx.now());
    const context = recordContext(await ctx.currency(), requestId);
    // At most 1 MB, parsed here in a few milliseconds; a list of more than a few lookups is resolved in the pool's batch lane.
    const body = readLookupsBody(text, MAX_INLINE_LOOKUPS);
    if (!body.ok) throw problem(body.slug, body.detail);
    const answers = await ctx.lookups.service.answerMany(body.items, { today, context });
    const results: Array<{ id: string | null } & ItemAnswer> = answers.map(({ id, result }) => ({ id, ...itemAnswer(result, ctx.config.errorsUrl, requestId) }));
    const answer: BatchAnswer = {
      total: results.length,
      failed: results.filter((r) => r.status >= 400).length,
      results,
      request_id: requestId,
    };
    return answer;
  };
}
