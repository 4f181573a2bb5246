/**
 * GET /api/v1/rates with `address` or `lat`/`lon`: a batch of one through the lookup pipeline
 * (src/batch/pipeline.ts), so a single lookup and a batch row answer alike. Point-in-polygon
 * and address parsing run in the worker pool; this thread only geocodes and replies.
 */
import type { H3Event } from "h3";
import type { IsoDate } from "../../rates/calendar.ts";
import { recordContext, type AmbiguousResponse, type RateRecord } from "../../rates/records.ts";
import { resolveLookups } from "../../batch/pipeline.ts";
import type { ApiContext } from "../context.ts";
import { itemProblem } from "./lookup-answers.ts";

export interface LocationQuery {
  county?: string | undefined;
  zip?: string | undefined;
  address?: string | undefined;
  lat?: string | undefined;
  lon?: string | undefined;
}

/** DESIGN §3: the address wins and its zip is kept for the fallback; then coordinates; the county is not used. */
export async function rateByLocation(ctx: ApiContext, event: H3Event, query: LocationQuery, date: IsoDate): Promise<RateRecord | AmbiguousResponse> {
  // The county rides along unused, so that a failure's advice knows it was sent.
  const item = query.address !== undefined ? { address: query.address, zip: query.zip, county: query.county, date } : { lat: query.lat, lon: query.lon, date };
  const [answer] = await resolveLookups(ctx.lookups.pipeline, [item], {
    today: date,
    context: recordContext(await ctx.currency(), event.context.requestId ?? ""),
  });
  const result = answer!.result;
  if (result.kind === "failure") throw itemProblem(result);
  return result.body;
}
