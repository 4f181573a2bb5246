/**
 * An orders job's results (docs/guides/tax-and-returns.md, "Batches of orders"), one per sale in the
 * upload's order: as stored with the job's chunks, and as its download writes them. NDJSON lines are
 * `{row, id, status, body}` with the very body and status POST /api/v1/tax (or, recorded, POST
 * /api/v1/transactions) answers for that sale; CSV lines carry the figures a back office reconciles.
 */
import type { TaxAnswer, TransactionRecord, UnsettledAnswer } from "../ledger/tax-answers.ts";
import { PROBLEMS, problem, toProblemDetails, type InvalidParam, type ProblemDetails, type ProblemSlug } from "../web/problem.ts";
import { csvLine } from "./result-lines.ts";

export type OrderResult =
  /** Calculated: POST /api/v1/tax's answer. */
  | { kind: "tax"; body: TaxAnswer | UnsettledAnswer }
  /** Recorded: the transaction, made by this row (`created`) or by an earlier request with the same order_id and body. */
  | { kind: "transaction"; created: boolean; body: TransactionRecord }
  /** The problem the endpoint would have answered for this sale alone. */
  | { kind: "problem"; slug: ProblemSlug; detail: string; invalidParams?: InvalidParam[] };

/** One sale's result: its 1-based place among the upload's sales and its order_id. */
export interface OrderRowResult {
  row: number;
  id: string | null;
  result: OrderResult;
}

export function orderProblemBody(result: Extract<OrderResult, { kind: "problem" }>, errorsUrl: string, requestId: string): ProblemDetails {
  const { headers: _headers, ...body } = toProblemDetails(problem(result.slug, result.detail, result.invalidParams ? { invalidParams: result.invalidParams } : {}), errorsUrl, requestId);
  return body;
}

/** The status and body the single endpoint answers with for this sale. */
export function orderAnswer(result: OrderResult, errorsUrl: string, requestId: string): { status: number; body: unknown } {
  if (result.kind === "tax") return { status: 200, body: result.body };
  if (result.kind === "transaction") return { status: result.created ? 201 : 200, body: { transaction: result.body } };
  return { status: PROBLEMS[result.slug].status, body: orderProblemBody(result, errorsUrl, requestId) };
}

/** New columns go at the end, so a sheet that reads the file by position keeps working. */
export const ORDER_RESULT_COLUMNS = [
  "row", "order_id", "status", "settled", "date", "county", "fips", "transit_district", "gross", "exempt", "taxable", "tax",
  "state_tax", "county_tax", "transit_tax", "rounding_basis", "transaction_id", "recorded", "note", "problem_type", "problem_detail", "problem_fields",
] as const;

export const ORDER_RESULT_HEADER = csvLine(ORDER_RESULT_COLUMNS);

type Column = (typeof ORDER_RESULT_COLUMNS)[number];

const taxOf = (answer: TaxAnswer, jurisdiction: "state" | "county" | "transit") => answer.jurisdictions.find((j) => j.jurisdiction === jurisdiction)?.tax ?? "0.00";

export function orderCsvLine(row: OrderRowResult, errorsUrl: string, requestId: string): string {
  const values: Partial<Record<Column, unknown>> = { row: row.row, order_id: row.id };
  const { result } = row;
  const answered = orderAnswer(result, errorsUrl, requestId);
  values.status = answered.status;
  if (result.kind === "tax" && !result.body.settled) {
    Object.assign(values, { settled: false, date: result.body.date, note: `${result.body.message} Candidates: ${result.body.candidates.map((c) => `${c.fips}${c.transit_district ? ` ${c.transit_district}` : ""} ${c.combined_rate}`).join(", ")}.` });
  } else if (result.kind === "tax" && result.body.settled) {
    const a = result.body;
    Object.assign(values, {
      settled: true, date: a.date, county: a.location.county, fips: a.location.fips, transit_district: a.location.transit_district?.status === "inside" ? a.location.transit_district.authority : null,
      gross: a.totals.gross, exempt: a.totals.exempt, taxable: a.totals.taxable, tax: a.totals.tax,
      state_tax: taxOf(a, "state"), county_tax: taxOf(a, "county"), transit_tax: taxOf(a, "transit"), rounding_basis: a.rounding.basis,
    });
  } else if (result.kind === "transaction") {
    const t = result.body;
    const answer = t.calculation["answer"] as TaxAnswer;
    Object.assign(values, {
      settled: true, date: t.date, county: answer.location.county, fips: t.county_fips, transit_district: t.transit_district,
      ...t.amounts, rounding_basis: answer.rounding.basis, transaction_id: t.id, recorded: result.created,
    });
  } else {
    const body = answered.body as ProblemDetails;
    Object.assign(values, { problem_type: body.type, problem_detail: body.detail, problem_fields: (body.invalid_params ?? []).map((p) => p.name).join(" ") || null });
  }
  return csvLine(ORDER_RESULT_COLUMNS.map((c) => values[c]));
}

export function orderNdjsonLine(row: OrderRowResult, errorsUrl: string, requestId: string): string {
  return `${JSON.stringify({ row: row.row, id: row.id, ...orderAnswer(row.result, errorsUrl, requestId) })}\n`;
}
