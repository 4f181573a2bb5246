/**
 * What one lookup comes to, as plain data that crosses between worker threads and is stored
 * with a batch job: a rate record, an ambiguous ZIP response, or a failure that the HTTP layer
 * renders as a problem object (docs/api/errors.md) with the same slug a single lookup would get.
 */
import type { AmbiguousResponse, RateRecord } from "../rates/records.ts";
import type { LookupFailureSlug } from "./resolve-lookup.ts";

export type ItemFailureSlug =
  | LookupFailureSlug
  | "bad-request"
  | "address-not-resolved"
  | "outside-ohio"
  | "geocoder-unavailable"
  | "boundaries-unavailable"
  | "batch-row-abandoned";

export interface ItemFailure {
  kind: "failure";
  slug: ItemFailureSlug;
  detail: string;
  /** The input field at fault, reported as invalid_params; null when no single field is. */
  param: string | null;
  /** Why that field is wrong, for invalid_params, when the detail says more than that. */
  reason?: string;
  retryAfterSeconds?: number;
}

export type ItemResult = { kind: "rate"; body: RateRecord } | { kind: "ambiguous"; body: AmbiguousResponse } | ItemFailure;

/** A result as stored and returned for a batch row: its 1-based row number and the caller's id. */
export interface RowResult {
  row: number;
  id: string | null;
  result: ItemResult;
  /**
   * The row's columns that look like part of an address, held a value and were not read
   * (src/lookup/export-headers.ts): the row was answered from less than it was sent. Absent when none.
   */
  unread_columns?: string[];
}

export function failure(slug: ItemFailureSlug, detail: string, param: string | null = null, retryAfterSeconds?: number): ItemFailure {
  return { kind: "failure", slug, detail, param, ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) };
}
