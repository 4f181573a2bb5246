/**
 * Every error the API sends is RFC 9457 (formerly 7807) Problem Details. Problems are a closed
 * table of slugs: handlers throw `problem(slug, detail)`, and exactly one place (the API's error
 * hook, src/http/app.ts) turns it into an `application/problem+json` response.
 */
import { HTTPError } from "h3";
import { z } from "zod";

/** Every problem the API sends: its status, its title, and when it is sent (docs/api/errors.md is generated from this table). */
export const PROBLEMS = {
  "bad-request": { status: 400, title: "Invalid Parameters", when: "none of county, zip, address (or lat/lon); a malformed zip, date, sort or search; an unknown or repeated parameter — listed in `invalid_params` (the first 20); a field holding a control character (C0 other than tab, or DEL; in a batch file that row alone fails, naming the field); a row of a Finder-layout file that breaks the layout's field rules (that row alone, naming the field); ?format=finder asked of a job not uploaded in that layout; a batch file that cannot be read, or is not UTF-8 (naming the line, row and byte offset where it stops being so), or JSON nested deeper than a lookup (an NDJSON line over 3 levels, an inline body over 5), refused as it streams" },
  "parameter-conflict": { status: 400, title: "Conflicting Parameters", when: "a `zip` that does not reach into the given `county`" },
  unauthorized: { status: 401, title: "API Key Required", when: "no `Authorization: Bearer tax_live_…/tax_test_…` header" },
  "invalid-api-key": { status: 401, title: "Invalid or Revoked API Key", when: "a key that fails its checksum, is unknown, revoked, or belongs to a suspended organization" },
  "not-found": { status: 404, title: "Not Found", when: "no such path" },
  "county-not-found": { status: 404, title: "County Not Found", when: "not one of Ohio's 88 counties; the `detail` suggests the one county within two edits of a misspelling" },
  "zip-not-found": { status: 404, title: "ZIP Code Not Found", when: "not an Ohio ZIP code" },
  "webhook-not-found": { status: 404, title: "Webhook Not Found", when: "not one of this organization's webhooks" },
  "certificate-not-found": { status: 404, title: "Certificate Not Found", when: "not one of this organization's exemption certificates" },
  "delivery-not-found": { status: 404, title: "Delivery Not Found", when: "not one of that webhook's deliveries" },
  "delivery-pending": { status: 409, title: "Delivery Already Pending", when: "a redelivery of an event still queued for that webhook" },
  "webhook-disabled": { status: 409, title: "Webhook Disabled", when: "a redelivery to a disabled webhook" },
  "webhook-limit-reached": { status: 409, title: "Webhook Limit Reached", when: "a webhook registered while the organization has `WEBHOOKS_PER_ORG` (default 20), active or disabled; delete one it no longer needs first" },
  "certificate-limit-reached": { status: 409, title: "Certificate Limit Reached", when: "a certificate recorded while the organization keeps `CERTIFICATES_PER_ORG` (default 10,000); delete expired ones first" },
  "invalid-webhook": { status: 422, title: "Invalid Webhook", when: "a bad webhook body, the problems listed in `invalid_params` (the first 20)" },
  "invalid-certificate": { status: 422, title: "Invalid Certificate", when: "a bad certificate body, the problems listed in `invalid_params` (the first 20)" },
  "invalid-sale": { status: 422, title: "Invalid Sale", when: "a bad sale body (POST /api/v1/tax, POST /api/v1/transactions): a negative or fractional quantity, an amount with three decimals or sent as a number, an unknown product category, a currency other than USD, more than 1,000 lines, a pickup or order location the organization does not have, no place to source the sale to; the problems listed in `invalid_params` (the first 20); nothing is recorded. In a batch of orders (POST /api/v1/tax/batches) that sale's row alone, and also a CSV order whose rows disagree on an order field or are apart" },
  "invalid-refund": { status: 422, title: "Invalid Refund", when: "a bad refund or void body, or one dated before its sale; the problems listed in `invalid_params`; nothing is recorded" },
  "refund-exceeds-sale": { status: 422, title: "Refund Exceeds Sale", when: "a refund of more than is left of a line, or of the delivery charges, after the sale's earlier refunds; or a void of a sale nothing is left of. `invalid_params` names the field; nothing is recorded" },
  "location-not-settled": { status: 422, title: "Location Not Settled", when: "a sale recorded whose place rates cannot settle (a ZIP that spans counties, a county a transit district splits): send the street address. POST /api/v1/tax answers such a sale with its candidates instead" },
  "invalid-location": { status: 422, title: "Invalid Location", when: "a bad location body, the problems listed in `invalid_params`" },
  "invalid-tax-settings": { status: 422, title: "Invalid Tax Settings", when: "a bad tax settings body, the problems listed in `invalid_params`" },
  "location-not-found": { status: 404, title: "Location Not Found", when: "not one of this organization's locations" },
  "transaction-not-found": { status: 404, title: "Transaction Not Found", when: "not a transaction of this key's ledger (a test key sees the test ledger, a live key the live one)" },
  "transaction-conflict": { status: 409, title: "Transaction Conflict", when: "an order_id (or refund_id) already recorded in this ledger with another body; the same body answers the recorded transaction" },
  "method-not-allowed": { status: 405, title: "Method Not Allowed", when: "a known path asked with another method (`DELETE /api/v1/rates`); `Allow` lists the methods it takes (a GET path also takes HEAD). Checked before the key, so it needs none" },
  "unsupported-media-type": { status: 415, title: "Unsupported Media Type", when: "a body not sent as `application/json` (inline batch, webhooks, recover, certificates) or as CSV / NDJSON (jobs)" },
  "not-acceptable": { status: 406, title: "Not Acceptable", when: "batch results asked for in a format other than CSV or NDJSON; a return in one other than JSON or CSV" },
  "invalid-return-period": { status: 400, title: "Invalid Return Period", when: "a return period written neither YYYY-MM (monthly) nor YYYY-H1 / YYYY-H2 (semiannual), or one starting before 2018-01-01, where the rate history starts" },
  "filing-frequency-mismatch": { status: 409, title: "Not This Organization's Filing Period", when: "a monthly period asked of an organization that files semiannually, or a half year of one that files monthly (its `filing_frequency`, set in the dashboard's settings)" },
  "return-period-not-begun": { status: 422, title: "Return Period Not Begun", when: "a return for a period whose first day is after today in Ohio; a period under way is answered, marked `period_status: open`" },
  "batch-not-found": { status: 404, title: "Batch Not Found", when: "not one of this organization's batch jobs" },
  "batch-not-finished": { status: 409, title: "Batch Not Finished", when: "batch results asked for before the job completed; `Retry-After` says when to look again" },
  "batch-jobs-stored": { status: 409, title: "Too Many Batch Jobs Stored", when: "a new job while the organization keeps `BATCH_JOBS_STORED_PER_ORG` jobs (100 by default; completed ones count until deleted or swept after `RETAIN_BATCH_JOBS_DAYS`): delete some with `DELETE /api/v1/batches/{id}`" },
  "batch-too-large": {
    status: 413,
    title: "Batch Too Large",
    when: "over 1,000 inline lookups, or over 100,000 rows in a job, or an upload whose reading took more than a batch thread's heap (`BATCH_THREAD_MAX_HEAP_MB`)",
  },
  "batch-line-too-long": {
    status: 413,
    title: "Batch Line Too Long",
    when: "a job upload with an NDJSON line or CSV record longer than `UPLOAD_MAX_LINE_BYTES` (64 KiB by default), refused as it streams; nothing is stored",
  },
  "body-incomplete": { status: 400, title: "Request Body Incomplete", when: "the connection ended, or a chunk was malformed, before the whole body arrived (any route that reads a body): nothing was done. The client has usually gone and never reads this answer; it is counted as the client's outcome, not a fault" },
  "body-too-large": { status: 413, title: "Request Body Too Large", when: "a webhook, certificate or recovery body over 64 KiB: by `Content-Length` before reading, else while reading" },
  "date-out-of-range": { status: 422, title: "Date Out of Range", when: "a date before 2018-01-01, where the rate history starts" },
  "address-not-resolved": { status: 422, title: "Address Not Resolved", when: "the geocoder found no match and no usable ZIP was sent or at the end of the address" },
  "outside-ohio": { status: 422, title: "Location Outside Ohio", when: "an address or `lat`/`lon` outside Ohio" },
  "rate-limit-exceeded": { status: 429, title: "Too Many Requests", when: "more than the key's requests per second (`RATE_LIMIT_PER_SECOND`); `Retry-After` says when to retry" },
  "organization-rate-limit-exceeded": { status: 429, title: "Too Many Requests for This Organization", when: "more than the organization's requests per second across all its keys (`RATE_LIMIT_PER_SECOND_PER_ORG`), though the key itself is within its limit; the RateLimit headers describe the organization's bucket, `Retry-After` says when to retry, and the key's own tokens were not spent" },
  "organization-in-trial": { status: 403, title: "Organization in Trial", when: "a batch job from an organization made by open sign-up that an operator has not verified yet (`buckeye org verify`); single and inline lookups work meanwhile, within the rate organizations in trial share" },
  "batch-jobs-in-flight": { status: 429, title: "Too Many Batch Jobs in Flight", when: "a new job while the organization has `BATCH_JOBS_IN_FLIGHT_PER_ORG` jobs queued or running (10 by default); `Retry-After` says when to try again" },
  "batch-uploads-in-flight": {
    status: 429,
    title: "Too Many Batch Upload Bytes in Flight",
    when: "a job upload while the organization's uploads to the same server already being received, with this one's `Content-Length` (64 MiB when it declares none), would pass `BATCH_UPLOAD_BYTES_PER_ORG` (128 MiB by default); answered before the body is read, `Retry-After` says when to try again",
  },
  "batch-downloads-in-flight": { status: 429, title: "Too Many Results Downloads in Flight", when: "a results download while the organization already has `BATCH_DOWNLOADS_PER_ORG` (2 by default) in progress on the same server; answered before anything is read, `Retry-After` says when to try again" },
  "batch-row-abandoned": { status: 500, title: "Batch Row Abandoned", when: "a job's row whose chunk was claimed `BATCH_CHUNK_MAX_ATTEMPTS` times and never finished (its runner crashed or failed each time): the row is given up and the rest of the job goes on; submit it again" },
  "internal-error": { status: 500, title: "Internal Server Error", when: "a fault on our side; logged with its `request_id`, never a stack trace" },
  "geocoder-unavailable": { status: 503, title: "Geocoder Unavailable", when: "the geocoder is down or its circuit is open and no usable ZIP was sent; `Retry-After` says when to retry" },
  "batch-uploads-busy": {
    status: 503,
    title: "Server Busy Receiving Batch Uploads",
    when: "a job upload whose bytes, with the bytes of the uploads this server already holds from every organization (only bytes that have arrived count, never a declared size), would pass `BATCH_UPLOAD_BYTES_PER_PROCESS` (256 MiB by default): before the body is read when there is no room at all, else as its bytes arrive, and nothing is stored; `Retry-After` says when to try again. A refusal for room, which the server-errors alert does not count",
  },
  "boundaries-unavailable": { status: 503, title: "Boundary Data Unavailable", when: "no county and place polygons loaded (see `/readyz`)" },
} as const satisfies Record<string, { status: number; title: string; when: string }>;

export type ProblemSlug = keyof typeof PROBLEMS;

export const invalidParamSchema = z.strictObject({ name: z.string(), reason: z.string() });
export type InvalidParam = z.infer<typeof invalidParamSchema>;

export const problemDetailsSchema = z
  .strictObject({
    type: z.url().describe("ERRORS_URL followed by the problem's slug"),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    request_id: z.string(),
    invalid_params: z.array(invalidParamSchema).optional().describe("The bad parameters or fields, each with its reason: the first 20, with the count in `detail` when there are more"),
  })
  .describe("RFC 9457 problem details, sent as application/problem+json");
export type ProblemDetails = z.infer<typeof problemDetailsSchema>;

export interface ProblemData {
  slug: ProblemSlug;
  invalidParams?: InvalidParam[];
  headers?: Record<string, string>;
}

/** Builds the error a handler throws. `detail` must never echo secrets (keys, passwords). */
export function problem(
  slug: ProblemSlug,
  detail: string,
  extra: { invalidParams?: InvalidParam[]; headers?: Record<string, string> } = {},
): HTTPError<ProblemData> {
  return new HTTPError<ProblemData>({
    status: PROBLEMS[slug].status,
    message: detail,
    data: { slug, ...extra },
  });
}

/**
 * What a problem echoes of a request is bounded, so a request cannot make its own error large: 1,500
 * unknown query parameters would otherwise come back as 1,500 entries, each listing the allowed names.
 * The first entries are enough to fix a request; the detail says how many were left out.
 */
export const ECHO_LIMITS = { params: 20, name: 100, reason: 300, detail: 1_000 } as const;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function bounded(detail: string, params: InvalidParam[] | undefined): { detail: string; invalid_params?: InvalidParam[] } {
  if (!params) return { detail: clip(detail, ECHO_LIMITS.detail) };
  const left = params.length - ECHO_LIMITS.params;
  const shown = params.slice(0, ECHO_LIMITS.params).map((p) => ({ name: clip(p.name, ECHO_LIMITS.name), reason: clip(p.reason, ECHO_LIMITS.reason) }));
  const more = left > 0 ? ` (${params.length} problems; the first ${ECHO_LIMITS.params} are listed)` : "";
  return { detail: clip(detail, ECHO_LIMITS.detail - more.length) + more, invalid_params: shown };
}

/** Maps any thrown value to a problem: ours as they are, h3's own by status, the rest to a bare 500. */
export function toProblemDetails(error: HTTPError, errorsUrl: string, requestId: string): ProblemDetails & { headers?: Record<string, string> } {
  const data = error.data as ProblemData | undefined;
  if (data?.slug && data.slug in PROBLEMS) {
    const { status, title } = PROBLEMS[data.slug];
    return {
      type: `${errorsUrl}/${data.slug}`,
      title,
      status,
      ...bounded(error.message, data.invalidParams),
      request_id: requestId,
      ...(data.headers && { headers: data.headers }),
    };
  }
  const slug: ProblemSlug =
    error.unhandled || error.status >= 500
      ? "internal-error"
      : error.status === 404
        ? "not-found"
        : error.status === 405
          ? "method-not-allowed"
          : "bad-request";
  const { status, title } = PROBLEMS[slug];
  const detail =
    slug === "internal-error"
      ? "The server failed to answer this request. It has been logged with its request_id."
      : slug === "not-found"
        ? "No resource at this path. The API lives under /api/v1."
        : clip(error.message, ECHO_LIMITS.detail);
  return { type: `${errorsUrl}/${slug}`, title, status, detail, request_id: requestId };
}
