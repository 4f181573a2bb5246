/**
 * Every error the API sends is RFC 9457 (formerly 7807) Problem Details. Problems are a closed
 * table of slugs: handlers throw `problem(slug, detail)`, and exactly one place (app.ts's error
 * hook) turns it into an `application/problem+json` response.
 */
import { HTTPError } from "h3";
import { z } from "zod";

export const PROBLEMS = {
  "bad-request": { status: 400, title: "Invalid Parameters" },
  "parameter-conflict": { status: 400, title: "Conflicting Parameters" },
  unauthorized: { status: 401, title: "API Key Required" },
  "invalid-api-key": { status: 401, title: "Invalid or Revoked API Key" },
  "not-found": { status: 404, title: "Not Found" },
  "county-not-found": { status: 404, title: "County Not Found" },
  "zip-not-found": { status: 404, title: "ZIP Code Not Found" },
  "webhook-not-found": { status: 404, title: "Webhook Not Found" },
  "certificate-not-found": { status: 404, title: "Certificate Not Found" },
  "delivery-not-found": { status: 404, title: "Delivery Not Found" },
  "delivery-pending": { status: 409, title: "Delivery Already Pending" },
  "webhook-disabled": { status: 409, title: "Webhook Disabled" },
  "invalid-webhook": { status: 422, title: "Invalid Webhook" },
  "invalid-certificate": { status: 422, title: "Invalid Certificate" },
  "method-not-allowed": { status: 405, title: "Method Not Allowed" },
  "unsupported-media-type": { status: 415, title: "Unsupported Media Type" },
  "not-acceptable": { status: 406, title: "Not Acceptable" },
  "batch-not-found": { status: 404, title: "Batch Not Found" },
  "batch-not-finished": { status: 409, title: "Batch Not Finished" },
  "batch-too-large": { status: 413, title: "Batch Too Large" },
  "body-too-large": { status: 413, title: "Request Body Too Large" },
  "date-out-of-range": { status: 422, title: "Date Out of Range" },
  "address-not-resolved": { status: 422, title: "Address Not Resolved" },
  "outside-ohio": { status: 422, title: "Location Outside Ohio" },
  "rate-limit-exceeded": { status: 429, title: "Too Many Requests" },
  "internal-error": { status: 500, title: "Internal Server Error" },
  "geocoder-unavailable": { status: 503, title: "Geocoder Unavailable" },
  "boundaries-unavailable": { status: 503, title: "Boundary Data Unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

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
    invalid_params: z.array(invalidParamSchema).optional().describe("Every bad parameter or field, each with its reason"),
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

/** Maps any thrown value to a problem: ours as they are, h3's own by status, the rest to a bare 500. */
export function toProblemDetails(error: HTTPError, errorsUrl: string, requestId: string): ProblemDetails & { headers?: Record<string, string> } {
  const data = error.data as ProblemData | undefined;
  if (data?.slug && data.slug in PROBLEMS) {
    const { status, title } = PROBLEMS[data.slug];
    return {
      type: `${errorsUrl}/${data.slug}`,
      title,
      status,
      detail: error.message,
      request_id: requestId,
      ...(data.invalidParams && { invalid_params: data.invalidParams }),
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
        : error.message;
  return { type: `${errorsUrl}/${slug}`, title, status, detail, request_id: requestId };
}
