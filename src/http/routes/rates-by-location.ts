/**
 * GET /api/v1/rates with `address`, `lat`/`lon` or a ZIP+4: a list of one through the lookup pipeline
 * (src/lookup/pipeline.ts), so a single lookup and a batch row answer alike.
 */
import type { H3Event } from "h3";
import type { LookupItem } from "../../lookup/lookup-item.ts";
import { resolveEntries } from "../../lookup/pipeline.ts";
import { recordContext, type AmbiguousResponse, type RateRecord } from "../../rates/records.ts";
import type { ApiContext } from "../context.ts";
import { itemProblem } from "./lookup-answers.ts";

/** DESIGN §3: the address wins and its zip is kept for the fallback; then coordinates; the county is not used. */
export async function rateByLocation(ctx: ApiContext, event: H3Event, item: LookupItem): Promise<RateRecord | AmbiguousResponse> {
  // The whole item goes, a county sent beside an address too, so that a failure's advice knows it was sent.
  const context = recordContext(await ctx.currency(), event.context.requestId ?? "");
  const [result] = await resolveEntries(ctx.lookups.pipeline, [{ item, context }], { geocoding: "single" });
  if (result!.kind === "failure") throw itemProblem(result!);
  return result!.body;
}
