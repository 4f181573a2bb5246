/**
 * GET /api/v1/rates (docs/api/README.md): by county, ZIP, address or coordinates, at a date. The lookup
 * service decides; this route reads the query and answers. County and ZIP answers, the same
 * bytes every time but their request id, come from the body cache; so do answers the state's
 * boundary file settled, keyed by the file version they came from as well (an import or a
 * rollback is a new key), so a checkout asking about the same address again costs no probe. A ZIP
 * alone answers from the active file's own records for it when the file covers it
 * (src/lookup/resolve-zip-file.ts), so its key names the version too.
 */
import type { H3Event } from "h3";
import type { ZipSummary } from "../../boundaries/boundary-index.interface.ts";
import { dateInOhio } from "../../rates/calendar.ts";
import { recordContext } from "../../rates/records.ts";
import { combineFields, FIELD_TEXT_SCHEMAS, strategyOf } from "../../lookup/lookup-item.ts";
import type { ItemResult } from "../../lookup/item-result.ts";
import { isZipOnly, resolveWithoutGeography } from "../../lookup/resolve-item.ts";
import { jsonAnswer } from "../answer-headers.ts";
import { BodyCache } from "../body-cache.ts";
import type { ApiContext } from "../context.ts";
import { readQuery } from "../query.ts";
import { itemProblem } from "../../lookup/item-answers.ts";

/** The query parameters are the fields of a lookup item (src/lookup/lookup-item.ts), read by the same schemas. */
export const RATE_QUERY = FIELD_TEXT_SCHEMAS;

/** The body of an answer, or the problem it stands for, thrown. */
function bodyOf(result: ItemResult) {
  if (result.kind === "failure") throw itemProblem(result);
  return result.body;
}

export function getRates(ctx: ApiContext) {
  const bodies = new BodyCache();
  const fileAnswers = new BodyCache();
  return async (event: H3Event) => {
    const query = readQuery(event, RATE_QUERY);
    const item = combineFields(query, dateInOhio(ctx.now()));
    if ("kind" in item) throw itemProblem(item);
    const requestId = event.context.requestId ?? "";
    const freshness = await ctx.freshness();
    const table = ctx.rates.table;
    // Both dates are in the body (last_reconciled, beyond_confirmed), so both are in the keys.
    const asOf = `${freshness.lastReconciled}|${freshness.confirmedThrough}|${item.date}`;
    if (strategyOf(item) !== "county-or-zip") {
      const version = await ctx.lookups.service.boundaryVersion();
      const key = version === null ? null : `${version}|${asOf}|${item.address ?? ""}|${item.zip ?? ""}|${item.zip4 ?? ""}|${item.county ?? ""}|${item.lat ?? ""}|${item.lon ?? ""}`;
      const kept = key === null ? undefined : fileAnswers.find(table, key, requestId);
      if (kept !== undefined) return jsonAnswer(event, kept);
      const result = await ctx.lookups.service.answerOne(item, recordContext(freshness, requestId));
      if (key !== null && result.kind === "rate" && result.body.boundary_record?.version === version) fileAnswers.keep(table, key, result.body);
      return bodyOf(result);
    }
    // A ZIP alone answers from the active boundary file's records when it covers the ZIP: the version is in its key.
    const zipOnly = isZipOnly(item);
    const version = zipOnly ? await ctx.lookups.service.boundaryVersion() : null;
    const key = `${asOf}|${item.county ?? ""}|${item.zip ?? ""}|${version ?? ""}`;
    let zipFile: ZipSummary | null = null;
    if (zipOnly && version !== null) {
      const kept = bodies.find(table, key, requestId);
      if (kept !== undefined) return jsonAnswer(event, kept);
      zipFile = await ctx.lookups.service.zipSummary(item.zip, item.date);
    }
    const body = bodies.get(table, key, requestId, (id) => bodyOf(resolveWithoutGeography({ table, zips: ctx.zips }, item, recordContext(freshness, id), zipFile)));
    return jsonAnswer(event, body);
  };
}
