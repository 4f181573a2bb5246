/**
 * POST /api/v1/rates/batch: up to 1,000 lookups answered inline, in input order. Each result is
 * `{id, status, body}`: body is a rate record, an ambiguous response or a problem object, and
 * status the HTTP status a single lookup would have had. One bad item never fails the others,
 * and the whole batch counts as one request against the rate limit.
 *
 * Rows that need the Census batch endpoint wait for it at most GEOCODER_INLINE_BATCH_TIMEOUT_MS,
 * then are answered as its outage is. A client that goes away stops the upstream request.
 */
import type { H3Event } from "h3";
import { JsonDepthGauge, MAX_LOOKUP_DEPTH } from "../../batch/json-depth.ts";
import { ignoredFields } from "../../lookup/lookup-item.ts";
import { MAX_IGNORED_COLUMNS, readLookupsBody } from "../../batch/read-batch-file.ts";
import { dateInOhio } from "../../rates/calendar.ts";
import { recordContext } from "../../rates/records.ts";
import type { ApiContext } from "../context.ts";
import { sendsJson } from "../json-body.ts";
import { readCapped } from "../../web/read-body.ts";
import { problem } from "../../web/problem.ts";
import { itemAnswer, type ItemAnswer } from "../../lookup/item-answers.ts";
import type { BatchAnswer } from "../answer-schemas.ts";

export const MAX_INLINE_LOOKUPS = 1000;
/**
 * What the access log records for a list whose client went away before its answer: nginx's
 * "client closed request". Nobody receives it, so no problem body is built and no error is logged.
 */
const CLIENT_CLOSED_REQUEST = 499;
/** 1,000 lookups of 300-character addresses fit in well under this. */
const MAX_INLINE_BYTES = 1_048_576;

/**
 * `{"lookups": [ {…} ]}`: the body, its list, and each lookup's own levels. Checked on the bytes as
 * they arrive, so JSON.parse never builds a deeper value: a list of more than 25 lookups goes to the
 * batch lane as JSON text, and JSON.stringify overflows the stack on a 1 MB body of nested arrays.
 */
const MAX_BODY_DEPTH = 2 + MAX_LOOKUP_DEPTH;

async function readLimitedText(event: H3Event, maxBytes: number, what: string): Promise<string> {
  const tooLarge = (declared: number | null) =>
    problem("batch-too-large", declared === null ? `${what} is over the limit of ${maxBytes} bytes.` : `${what} is ${declared} bytes; the limit is ${maxBytes}.`);
  const depth = new JsonDepthGauge(MAX_BODY_DEPTH, false);
  const tooDeep = (chunk: Uint8Array) => {
    if (depth.push(chunk) > 0) {
      throw problem("bad-request", `${what} nests JSON deeper than ${MAX_BODY_DEPTH} levels; send {"lookups": [...]} with each lookup a flat object.`);
    }
  };
  return (await readCapped(event, maxBytes, tooLarge, tooDeep)).toString("utf8");
}

function ignoredFieldsOf(items: readonly unknown[]): string[] {
  const ignored = new Set<string>();
  for (const item of items) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    for (const name of ignoredFields(item as Record<string, unknown>)) if (ignored.size < MAX_IGNORED_COLUMNS) ignored.add(name);
  }
  return [...ignored];
}

export function postRatesBatch(ctx: ApiContext) {
  return async (event: H3Event) => {
    if (!sendsJson(event)) {
      throw problem("unsupported-media-type", 'Send the lookups as Content-Type: application/json, {"lookups": [...]}.');
    }
    const text = await readLimitedText(event, MAX_INLINE_BYTES, "The body");
    const requestId = event.context.requestId ?? "";
    const today = dateInOhio(ctx.now());
    const context = recordContext(await ctx.freshness(), requestId);
    // At most 1 MB, parsed here in a few milliseconds; a list of more than a few lookups is resolved in the pool's batch lane.
    const body = readLookupsBody(text, MAX_INLINE_LOOKUPS);
    if (!body.ok) throw problem(body.slug, body.detail);
    const signal = event.req.signal;
    let answers;
    try {
      answers = await ctx.lookups.service.answerMany(body.items, { today, context, signal });
    } catch (error) {
      if (signal.aborted) return new Response(null, { status: CLIENT_CLOSED_REQUEST });
      throw error;
    }
    const results: Array<{ id: string | null } & ItemAnswer> = answers.map(({ id, result }) => ({ id, ...itemAnswer(result, ctx.config.errorsUrl, requestId) }));
    const answer: BatchAnswer = {
      total: results.length,
      failed: results.filter((r) => r.status >= 400).length,
      results,
      ignored_fields: ignoredFieldsOf(body.items),
      request_id: requestId,
    };
    return answer;
  };
}
