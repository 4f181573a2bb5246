/** GET /api/v1/counties (docs/api/README.md): the 88 counties with their rates at a date. */
import type { H3Event } from "h3";
import { dateInOhio } from "../../rates/calendar.ts";
import { countyKey, evaluateCounty } from "../../rates/evaluate.ts";
import { SOURCE, toCountyItem, withBeyondConfirmed, type CountiesResponse } from "../../rates/records.ts";
import { checkDate } from "../../lookup/resolve-lookup.ts";
import { toDecimal } from "../../rates/millionths.ts";
import type { ApiContext } from "../context.ts";
import { dateParam, searchParam, sortParam } from "../params.ts";
import { problem } from "../../web/problem.ts";
import { readQuery } from "../query.ts";

export const COUNTIES_QUERY = { search: searchParam, sort: sortParam, date: dateParam };

export function getCounties(ctx: ApiContext) {
  return async (event: H3Event): Promise<CountiesResponse> => {
    const query = readQuery(event, COUNTIES_QUERY, new Set(["date"]));
    const date = query.date ?? dateInOhio(ctx.now());
    // One table for the whole answer, even if a reconciliation rebuilds it meanwhile.
    const table = ctx.rates.table;
    const outOfRange = checkDate(table, date);
    if (outOfRange?.kind === "failure") {
      throw problem(outOfRange.slug, outOfRange.detail, { invalidParams: [{ name: "date", reason: outOfRange.detail }] });
    }
    const prefix = query.search === undefined ? "" : countyKey(query.search);
    const rates = table.counties
      .filter((county) => county.slug.startsWith(prefix))
      .map((county) => evaluateCounty(table, county, date));
    const direction = { name: 0, rate_asc: 1, rate_desc: -1 }[query.sort ?? "name"];
    rates.sort((a, b) => direction * (a.combined - b.combined) || a.county.name.localeCompare(b.county.name));
    const freshness = await ctx.freshness();
    return {
      total: rates.length,
      state_base_rate: toDecimal(table.stateRate),
      last_reconciled: freshness.lastReconciled,
      ...withBeyondConfirmed(date, freshness),
      statutory_authority: SOURCE,
      date_evaluated: date,
      counties: rates.map(toCountyItem),
    };
  };
}
