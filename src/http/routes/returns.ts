/**
 * GET /api/v1/returns/{period}: the organization's UST 1 worksheet for a filing period, from the ledger
 * of the calling key's environment (docs/guides/tax-and-returns.md, "The return"). JSON, or CSV by ?format=csv or
 * Accept: text/csv. The rules are the return service's; this route reads the request and renders.
 */
import { getRouterParam, type H3Event } from "h3";
import { z } from "zod";
import { ReturnRefusal } from "../../returns/return-service.ts";
import { worksheetCsv, worksheetFileName } from "../../returns/worksheet-csv.ts";
import { problem } from "../../web/problem.ts";
import type { ApiContext } from "../context.ts";
import { readQuery } from "../query.ts";

export const RETURN_QUERY = { format: z.enum(["json", "csv"], { error: "must be json or csv" }).optional() };

/** ?format= decides; without it, Accept: CSV when asked for, JSON when asked for or with no preference. */
function formatOf(event: H3Event): "json" | "csv" {
  const { format } = readQuery(event, RETURN_QUERY);
  if (format !== undefined) return format;
  const accept = (event.req.headers.get("accept") ?? "").toLowerCase();
  if (accept.includes("text/csv")) return "csv";
  if (accept === "" || accept.includes("application/json") || accept.includes("*/*")) return "json";
  throw problem("not-acceptable", "A return is available as application/json or text/csv.");
}

export function getReturn(ctx: ApiContext) {
  return async (event: H3Event) => {
    const principal = event.context.principal;
    if (!principal) throw new Error("return routes run after admitRequest");
    const format = formatOf(event);
    const worksheet = await ctx.returns.worksheet(principal.organizationId, principal.env, getRouterParam(event, "period") ?? "").catch((error: unknown) => {
      throw error instanceof ReturnRefusal ? problem(error.code, error.message) : error;
    });
    if (format === "json") return worksheet;
    event.res.headers.set("content-type", "text/csv; charset=utf-8");
    event.res.headers.set("content-disposition", `attachment; filename="${worksheetFileName(worksheet)}"`);
    return worksheetCsv(worksheet);
  };
}
