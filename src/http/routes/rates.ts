/** GET /api/v1/rates (spec §4.1): by county, ZIP or address, at a date. */
import type { H3Event } from "h3";
import { dateInOhio } from "../../rates/calendar.ts";
import { recordContext, toAmbiguousResponse, toRateRecord, type AmbiguousResponse, type RateRecord, type RecordCurrency } from "../../rates/records.ts";
import { combineFields, FIELD_TEXT_SCHEMAS } from "../../lookup/lookup-item.ts";
import { resolveLookup, type Resolution } from "../../lookup/resolve-lookup.ts";
import { jsonAnswer } from "../answer-headers.ts";
import { BodyCache } from "../body-cache.ts";
import type { ApiContext } from "../context.ts";
import { problem } from "../problem.ts";
import { readQuery } from "../query.ts";
import { itemProblem } from "./lookup-answers.ts";
import { rateByLocation } from "./rates-by-location.ts";

/** The query parameters are the fields of a lookup item (src/lookup/lookup-item.ts), read by the same schemas. */
export const RATE_QUERY = FIELD_TEXT_SCHEMAS;

/** Turns a resolution into the response body, or throws the problem it stands for. */
export async function respond(ctx: ApiContext, event: H3Event, resolution: Resolution): Promise<RateRecord | AmbiguousResponse> {
  return toBody(resolution, await ctx.currency(), event.context.requestId ?? "");
}

function toBody(resolution: Resolution, currency: RecordCurrency, requestId: string): RateRecord | AmbiguousResponse {
  const context = recordContext(currency, requestId);
  switch (resolution.kind) {
    case "rate":
      return toRateRecord(resolution.rate, resolution.resolvedBy, context);
    case "ambiguous":
      return toAmbiguousResponse(resolution.zip, resolution.date, resolution.candidates, context);
    case "failure":
      throw problem(resolution.slug, resolution.detail, {
        invalidParams: [{ name: resolution.param, reason: resolution.detail }],
      });
  }
}

export function getRates(ctx: ApiContext) {
  const bodies = new BodyCache();
  return async (event: H3Event) => {
    const query = readQuery(event, RATE_QUERY);
    const item = combineFields(query, dateInOhio(ctx.now()));
    if ("kind" in item) throw itemProblem(item);
    const { date } = item;
    // A ZIP+4 alone climbs the ladder (the boundary file's ZIP+4 ranges); with a county, the county decides.
    if (item.address !== undefined || item.lat !== undefined || (item.zip4 !== undefined && item.county === undefined)) return rateByLocation(ctx, event, item);
    const currency = await ctx.currency();
    const lookup = { county: item.county, zip: item.zip, date };
    // Both dates are in the body (last_reconciled, beyond_confirmed), so both are in the key.
    const key = `${currency.lastReconciled}|${currency.confirmedThrough}|${lookup.county ?? ""}|${lookup.zip ?? ""}|${date}`;
    const table = ctx.rates.table;
    const body = bodies.get(table, key, event.context.requestId ?? "", (requestId) =>
      toBody(resolveLookup(table, ctx.zips, lookup), currency, requestId),
    );
    return jsonAnswer(event, body);
  };
}
