/** Turns pipeline answers into HTTP bodies: records as they are, failures as problem objects (spec §7). */
import type { ItemFailure, ItemResult } from "../../lookup/item-result.ts";
import type { AmbiguousResponse, RateRecord } from "../../rates/records.ts";
import { problem, toProblemDetails, type ProblemDetails } from "../../web/problem.ts";

/** The error a single lookup throws for a failed item, with its invalid_params and Retry-After. */
export function itemProblem(failure: ItemFailure) {
  return problem(failure.slug, failure.detail, {
    ...(failure.param !== null && { invalidParams: [{ name: failure.param, reason: failure.reason ?? failure.detail }] }),
    ...(failure.retryAfterSeconds !== undefined && { headers: { "retry-after": String(failure.retryAfterSeconds) } }),
  });
}

export function problemBody(failure: ItemFailure, errorsUrl: string, requestId: string): ProblemDetails {
  const { headers: _headers, ...body } = toProblemDetails(itemProblem(failure), errorsUrl, requestId);
  return body;
}

export interface ItemAnswer {
  status: number;
  body: RateRecord | AmbiguousResponse | ProblemDetails;
}

export function itemAnswer(result: ItemResult, errorsUrl: string, requestId: string): ItemAnswer {
  if (result.kind === "failure") {
    const body = problemBody(result, errorsUrl, requestId);
    return { status: body.status, body };
  }
  return { status: 200, body: result.body };
}
