/** GET /api/v1/rates (spec §4.1): by county, ZIP or address, at a date. */
import type { H3Event } from "h3";
import { dateInOhio } from "../../rates/calendar.ts";
import { recordContext, toAmbiguousResponse, toRateRecord, type AmbiguousResponse, type RateRecord, type RecordCurrency } from "../../rates/records.ts";
import { resolveLookup, type Resolution } from "../../rates/resolve-lookup.ts";
import { BodyCache } from "../body-cache.ts";
import type { ApiContext } from "../context.ts";
import { addressParam, countyParam, dateParam, latParam, lonParam, zipParam } from "../params.ts";
import { problem } from "../problem.ts";
import { readQuery } from "../query.ts";
import { rateByLocation } from "./rates-by-location.ts";

export const RATE_QUERY = { county: countyParam, zip: zipParam, address: addressParam, lat: latParam, lon: lonParam, date: dateParam };

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
    if (query.county === undefined && query.zip === undefined && query.address === undefined && query.lat === undefined && query.lon === undefined) {
      throw problem("bad-request", "Send one of county, zip, address, or lat with lon.", {
        invalidParams: [{ name: "county", reason: "one of county, zip, address, lat and lon is required" }],
      });
    }
    const date = query.date ?? dateInOhio(ctx.now());
    if (query.address !== undefined || query.lat !== undefined || query.lon !== undefined) {
      return rateByLocation(ctx, event, query, date);
    }
    const currency = await ctx.currency();
    const lookup = { county: query.county, zip: query.zip, date };
    // Both dates are in the body (last_reconciled, beyond_confirmed), so both are in the key.
    const key = `${currency.lastReconciled}|${currency.confirmedThrough}|${lookup.county ?? ""}|${lookup.zip ?? ""}|${date}`;
    const body = bodies.get(ctx.table, key, event.context.requestId ?? "", (requestId) =>
      toBody(resolveLookup(ctx.table, ctx.zips, lookup), currency, requestId),
    );
    // The cached body is a string: give it the Content-Type h3 gives every other JSON answer.
    event.res.headers.set("content-type", "application/json;charset=UTF-8");
    return body;
  };
}
