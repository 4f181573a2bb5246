/**
 * POST /api/v1/tax: the tax on one sale, stored nowhere; GET and PUT /api/v1/tax/settings: the
 * organization's rounding basis. The tax service decides (src/ledger/tax-service.ts); this reads the
 * body and answers.
 */
import type { H3Event } from "h3";
import { readTaxSettings, writeTaxSettings } from "../../ledger/tax-settings.repository.ts";
import { saleSchema, taxSettingsSchema } from "../../ledger/sale-request.ts";
import type { ApiContext } from "../context.ts";
import { readJsonObject } from "../json-body.ts";
import { describeParams, parseBody } from "../../web/parse-body.ts";

/** A sale of 1,000 lines fits well within this: the lines' own limit, not the body's size, is what a large cart meets. */
export const SALE_BODY_BYTES = 1024 * 1024;

export function principalOf(event: H3Event) {
  const principal = event.context.principal;
  if (!principal) throw new Error("tax routes run after admitRequest");
  return principal;
}

export function postTax(ctx: ApiContext) {
  return async (event: H3Event) => {
    const sale = parseBody(saleSchema, await readJsonObject(event, "invalid-sale", SALE_BODY_BYTES), "invalid-sale", describeParams("sale"));
    const calculation = await ctx.tax.service.calculate(principalOf(event).organizationId, sale, event.context.requestId ?? "");
    return calculation.answer;
  };
}

export function getTaxSettings(ctx: ApiContext) {
  return async (event: H3Event) => {
    const settings = await readTaxSettings(ctx.db, principalOf(event).organizationId);
    return { rounding_basis: settings.roundingBasis };
  };
}

export function putTaxSettings(ctx: ApiContext) {
  return async (event: H3Event) => {
    const body = parseBody(taxSettingsSchema, await readJsonObject(event, "invalid-tax-settings"), "invalid-tax-settings", describeParams("tax settings"));
    await writeTaxSettings(ctx.db, principalOf(event).organizationId, { roundingBasis: body.rounding_basis }, ctx.now());
    return { rounding_basis: body.rounding_basis };
  };
}
