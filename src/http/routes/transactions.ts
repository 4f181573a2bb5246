/**
 * /api/v1/transactions: the tax ledger. A sale recorded under the merchant's order id, its refunds and
 * void, the list by date with a cursor, and replay. The key's environment picks the ledger: a test key
 * records into and reads the test ledger, a live key the live one. The ledger service decides
 * (src/ledger/ledger-service.ts); these read the request and answer.
 */
import { getRouterParam, type H3Event } from "h3";
import { z } from "zod";
import { isIsoDate } from "../../rates/calendar.ts";
import type { Ledger } from "../../ledger/ledger-service.ts";
import { recordSaleSchema, refundSchema, voidSchema } from "../../ledger/sale-request.ts";
import type { ApiContext } from "../context.ts";
import { decodeDateIdCursor, encodeDateIdCursor, pageParams } from "../date-id-cursor.ts";
import { readJsonObject } from "../json-body.ts";
import { describeParams, parseBody } from "../../web/parse-body.ts";
import { readQuery } from "../query.ts";
import { principalOf, SALE_BODY_BYTES } from "./tax.ts";

function ledgerOf(event: H3Event): Ledger {
  const principal = principalOf(event);
  return { organizationId: principal.organizationId, env: principal.env };
}

/** What a transaction id looks like: a page's cursor carries the last one with its date (date-id-cursor.ts). */
const TRANSACTION_ID = /^txn_\w+$/;

const date = z.string().refine(isIsoDate, "must be a calendar date written YYYY-MM-DD").optional();

export const TRANSACTIONS_QUERY = {
  from: date,
  to: date,
  ...pageParams(TRANSACTION_ID),
};

/** 201 for a record this request made, 200 for one an earlier request with the same id and body made. */
function answered(event: H3Event, outcome: { created: boolean; record: { id: string } }) {
  event.res.status = outcome.created ? 201 : 200;
  event.res.headers.set("location", `/api/v1/transactions/${outcome.record.id}`);
  return { transaction: outcome.record };
}

export function postTransaction(ctx: ApiContext) {
  return async (event: H3Event) => {
    const body = parseBody(recordSaleSchema, await readJsonObject(event, "invalid-sale", SALE_BODY_BYTES), "invalid-sale", describeParams("sale"));
    return answered(event, await ctx.tax.ledger.record(ledgerOf(event), body, event.context.requestId ?? ""));
  };
}

export function getTransactions(ctx: ApiContext) {
  return async (event: H3Event) => {
    const query = readQuery(event, TRANSACTIONS_QUERY);
    const limit = Number(query.limit ?? 50);
    const page = await ctx.tax.ledger.list(ledgerOf(event), {
      from: query.from ?? "0000-01-01",
      to: query.to ?? "9999-12-31",
      limit,
      after: query.cursor === undefined ? null : decodeDateIdCursor(query.cursor, TRANSACTION_ID),
    });
    return { transactions: page.transactions, next_cursor: page.next === null ? null : encodeDateIdCursor(page.next) };
  };
}

export function getTransaction(ctx: ApiContext) {
  return async (event: H3Event) => ({ transaction: await ctx.tax.ledger.get(ledgerOf(event), getRouterParam(event, "id") ?? "") });
}

export function postRefund(ctx: ApiContext) {
  return async (event: H3Event) => {
    const body = parseBody(refundSchema, await readJsonObject(event, "invalid-refund", SALE_BODY_BYTES), "invalid-refund", describeParams("refund"));
    return answered(event, await ctx.tax.ledger.refund(ledgerOf(event), getRouterParam(event, "id") ?? "", body));
  };
}

export function postVoid(ctx: ApiContext) {
  return async (event: H3Event) => {
    const body = parseBody(voidSchema, await readJsonObject(event, "invalid-refund"), "invalid-refund", describeParams("void"));
    return answered(event, await ctx.tax.ledger.void(ledgerOf(event), getRouterParam(event, "id") ?? "", body));
  };
}

export function getReplay(ctx: ApiContext) {
  return async (event: H3Event) => ctx.tax.ledger.replay(ledgerOf(event), getRouterParam(event, "id") ?? "", event.context.requestId ?? "");
}
