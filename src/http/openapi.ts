/**
 * GET /api/v1/openapi.json (docs/api/README.md): the OpenAPI 3.1 document, generated from the zod schemas
 * the service itself uses, so the records (src/rates/record-schemas.ts), the problem details, the
 * webhook record and every query parameter are written once. Paths and their wording live here.
 * Built once, when the app is (src/http/app.ts serves it serialized and compressed, with an ETag).
 */
import { z } from "zod";
import { SUBSCRIBABLE_EVENTS } from "../webhooks/event-types.ts";
import { createWebhookSchema, updateWebhookSchema } from "../webhooks/validate-webhook.ts";
import { webhookRecordSchema } from "../webhooks/webhook-record.ts";
import {
  ambiguousResponseSchema,
  candidateCountySchema,
  countiesResponseSchema,
  countyItemSchema,
  rateComponentsSchema,
  rateRecordSchema,
  transitDistrictSchema,
  upcomingSchema,
} from "../rates/record-schemas.ts";
import { batchAnswerSchema, batchJobSchema, certificateRecordSchema, deliveryRecordSchema, reconciliationSchema } from "./answer-schemas.ts";
import { problemDetailsSchema } from "../web/problem.ts";
import { CERTIFICATES_QUERY, certificateSchema } from "./routes/certificates.ts";
import { ORDERS_UPLOAD_QUERY, RESULTS_QUERY, UPLOAD_QUERY } from "./routes/batches.ts";
import { LINE_COLUMNS, ORDER_COLUMNS } from "../batch/read-orders-file.ts";
import { ORDER_RESULT_COLUMNS } from "../batch/order-results.ts";
import { COUNTIES_QUERY } from "./routes/counties.ts";
import { RATE_QUERY } from "./routes/rates.ts";
import { RECONCILIATIONS_QUERY } from "./routes/reconciliations.ts";
import { MAX_RECOVERED } from "../webhooks/webhook-service.ts";
import { DELIVERIES_QUERY, recoverSchema } from "./routes/webhooks.ts";
import { RETURN_QUERY } from "./routes/returns.ts";
import { worksheetSchema } from "../returns/worksheet-schema.ts";
import { TRANSACTIONS_QUERY } from "./routes/transactions.ts";
import { locationSchema, recordSaleSchema, refundSchema, saleSchema, taxSettingsSchema, voidSchema } from "../ledger/sale-request.ts";
import { locationRecordSchema, replaySchema, taxAnswerSchema, transactionRecordSchema, unsettledAnswerSchema } from "../ledger/tax-answers.ts";

export const eventEnvelopeSchema = z
  .strictObject({
    id: z.string().regex(/^evt_/).describe("The same on every attempt: the X-Webhook-ID receivers de-duplicate by"),
    type: z.enum([...SUBSCRIBABLE_EVENTS, "webhook.test"]),
    created_at: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()).describe("The event's data; its fields per type are listed in docs/guides/webhooks-and-jobs.md, \"Event data\""),
  })
  .describe("An event as delivered: its id, type, time and data");

const NAMED = {
  RateRecord: rateRecordSchema,
  AmbiguousResponse: ambiguousResponseSchema,
  CandidateCounty: candidateCountySchema,
  RateComponents: rateComponentsSchema,
  TransitDistrict: transitDistrictSchema,
  Upcoming: upcomingSchema,
  CountyItem: countyItemSchema,
  CountiesResponse: countiesResponseSchema,
  ProblemDetails: problemDetailsSchema,
  WebhookRecord: webhookRecordSchema,
  WebhookCreate: createWebhookSchema,
  WebhookUpdate: updateWebhookSchema,
  WebhookRecover: recoverSchema,
  CertificateCreate: certificateSchema,
  CertificateRecord: certificateRecordSchema,
  EventEnvelope: eventEnvelopeSchema,
  BatchAnswer: batchAnswerSchema,
  BatchJob: batchJobSchema,
  DeliveryRecord: deliveryRecordSchema,
  Reconciliation: reconciliationSchema,
  ReturnWorksheet: worksheetSchema,
  Sale: saleSchema,
  SaleToRecord: recordSaleSchema,
  TaxAnswer: taxAnswerSchema,
  TaxUnsettled: unsettledAnswerSchema,
  TaxSettings: taxSettingsSchema,
  LocationCreate: locationSchema,
  LocationRecord: locationRecordSchema,
  TransactionRecord: transactionRecordSchema,
  RefundCreate: refundSchema,
  VoidCreate: voidSchema,
  Replay: replaySchema,
} as const;

type JsonSchema = Record<string, unknown>;

function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: "draft-2020-12", unrepresentable: "any", uri: (id) => `#/components/schemas/${id}` });
  // Each schema stands inside the document, not as a document of its own.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema as JsonSchema]));
}

const PARAMETER_HELP: Record<string, string> = {
  county: "County name or slug, any case: `franklin`, `Van Wert`, `van-wert`",
  zip: "5-digit ZIP code, or a ZIP+4 (43081-1234 or 430811234) that the boundary file's ZIP+4 ranges settle exactly (resolved_by zip4_range); a ZIP that spans counties answers with the ambiguous response",
  address: "Street address, ideally ending with its ZIP so the ZIP fallback is available",
  lat: "Latitude in decimal degrees (at most 15 decimal places), sent with lon",
  lon: "Longitude in decimal degrees (at most 15 decimal places), sent with lat",
  date: "The date of the sale, YYYY-MM-DD (from 2018-01-01); default: today in Ohio",
  search: "Counties whose name starts with this",
  sort: "name (default), rate_asc or rate_desc",
  limit: "How many to return, newest first",
  cursor: "Where this page starts: the `next_cursor` of the previous page (opaque); omitted: the first page",
};

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" });
  return rest;
}

/** The query parameters of an operation; `help` words one differently here than PARAMETER_HELP does. */
function queryParameters(query: Record<string, z.ZodType>, help: Record<string, string> = {}) {
  return Object.entries(query).map(([name, schema]) => ({
    name,
    in: "query",
    required: false,
    description: help[name] ?? PARAMETER_HELP[name],
    schema: jsonSchemaOf(schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema),
  }));
}


const TAGS = {
  Rates: "Statutory rates by county, ZIP, street address or point, single or up to 1,000 inline, and the log of their reconciliation against the state's rate file",
  Counties: "The 88 counties with their rates at a date",
  Batches: "Asynchronous batch jobs of up to 100,000 lookups, uploaded as CSV or NDJSON",
  // Not "Webhooks": OpenAPI 3.1's own webhooks section (the events Buckeye posts) is titled that in every renderer, and two headings of one name read as one.
  "Webhook endpoints": "Registering the endpoints Buckeye posts events to, their delivery log, redelivery and recovery; the events themselves are under Webhooks",
  Certificates: "Exemption certificates, kept for expiry reminders and read by the tax on a sale",
  Tax: "The tax on a sale (each jurisdiction separately, the state's rounding rule, sourcing by R.C. 5739.033), the organization's locations and rounding basis, and the ledger of recorded sales, refunds and voids with replay",
  Returns: "Ohio's sales tax return (UST 1) for a filing period, worked out from the recorded transactions",
  Health: "Liveness, readiness and this API description; no API key needed",
} as const;
type Tag = keyof typeof TAGS;

/** Response headers, written once and referenced by every answer that carries them. */
const HEADERS = {
  "X-Request-Id": {
    description: "This request's id, also in the body's request_id and in the access log: quote it when reporting a problem",
    required: true,
    schema: { type: "string", pattern: "^req_" },
  },
  "RateLimit-Limit": {
    description: "Requests per second this API key may make; on a 429 organization-rate-limit-exceeded, those its organization may make across all its keys",
    required: true,
    schema: { type: "integer", minimum: 1 },
  },
  "RateLimit-Remaining": {
    description: "Requests this key may still make now, before it has to wait (on organization-rate-limit-exceeded: its organization, so 0)",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Reset": {
    description: "Seconds until the key's allowance is full again (on organization-rate-limit-exceeded: its organization's)",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "Retry-After": { description: "Seconds to wait before retrying", required: true, schema: { type: "integer", minimum: 1 } },
  Location: { description: "The path of the resource this request created", required: true, schema: { type: "string", format: "uri-reference" } },
  "WWW-Authenticate": { description: 'The Bearer challenge (RFC 6750): `Bearer realm="buckeye"`, with `error="invalid_token"` for a key that was refused', required: true, schema: { type: "string" } },
  ETag: { description: "A strong validator of this representation (one per content encoding): send it back as If-None-Match to get an empty 304 while the document is unchanged", required: true, schema: { type: "string" } },
  "Cache-Control": { description: "`no-cache`: a client may keep the document but asks again, with If-None-Match, before using it", required: true, schema: { type: "string" } },
  Vary: { description: "`accept-encoding`: the document is sent brotli- or gzip-compressed when the request accepts it", required: true, schema: { type: "string" } },
  "X-Content-Type-Options": { description: "`nosniff`", required: true, schema: { type: "string" } },
} as const;
type HeaderName = keyof typeof HEADERS;

const header = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMITED: HeaderName[] = ["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

/** An answer of an operation behind the API key: it carries the request id and the key's RateLimit headers. */
function answer(description: string, content?: JsonSchema, extra: Record<string, JsonSchema> = {}) {
  return {
    description,
    headers: { ...Object.fromEntries(RATE_LIMITED.map((name) => [name, header(name)])), ...extra },
    ...(content && { content }),
  };
}

const pathId = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string" } });
const ref = (id: keyof typeof NAMED) => ({ $ref: `#/components/schemas/${id}` });
const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });
const json = (description: string, schema: JsonSchema, extra: Record<string, JsonSchema> = {}) => answer(description, jsonContent(schema), extra);
const created = (description: string, schema: JsonSchema) => json(description, schema, { Location: header("Location") });
const object = (properties: Record<string, JsonSchema>) => ({ type: "object", properties, required: Object.keys(properties) });
const jsonBody = (schema: JsonSchema) => ({ required: true, content: jsonContent(schema) });

const PROBLEM_WHEN: Record<number, string> = {
  400: "Invalid or conflicting parameters",
  401: "No API key, or one that is unknown, mistyped, revoked or of a suspended organization",
  404: "Not found in this organization",
  406: "The Accept header asks for a format the answer is not available in",
  409: "The resource is not in a state that allows this, or the organization already keeps as many of them as it may",
  413: "Too many items, or more bytes than this operation reads (webhook and certificate bodies: 64 KiB, refused by Content-Length before reading; a batch upload's line: UPLOAD_MAX_LINE_BYTES, 64 KiB by default)",
  415: "The body was not sent with the Content-Type this operation reads",
  422: "The input is understood but cannot be served",
  429: "More than the key's requests per second (rate-limit-exceeded), or than its organization's across all its keys (organization-rate-limit-exceeded)",
  503: "The geocoder or the boundary data is unavailable",
};

const problemContent = { "application/problem+json": { schema: ref("ProblemDetails") } };

/** The body of an upload of rows, lookups or orders alike: a CSV with a header row, or NDJSON. */
const BATCH_FILE_BODY = { required: true, content: { "text/csv": { schema: { type: "string" } }, "application/x-ndjson": { schema: { type: "string" } } } };

/** Why an upload of rows from an organization in trial is refused. */
const IN_TRIAL = answer("organization-in-trial: the organization was made by open sign-up and an operator has not verified it yet; batch jobs start once it is", problemContent);

/** Headers a problem carries beyond the RateLimit ones, by status. */
const PROBLEM_HEADERS: Record<number, Record<string, JsonSchema>> = {
  409: { "Retry-After": { description: "For a batch that is not finished: seconds until it is worth polling again", required: false, schema: { type: "integer", minimum: 1 } } },
  429: { "Retry-After": header("Retry-After") },
  503: { "Retry-After": { description: "For geocoder-unavailable: seconds until the geocoder is tried again", required: false, schema: { type: "integer", minimum: 1 } } },
};

/** The problem answers of an operation behind the API key: the statuses given, plus 401 and 429 that every such operation can answer. */
function problems(...statuses: number[]) {
  const unauthorized = {
    description: PROBLEM_WHEN[401],
    headers: { "X-Request-Id": header("X-Request-Id"), "WWW-Authenticate": header("WWW-Authenticate") },
    content: problemContent,
  };
  return {
    ...Object.fromEntries(statuses.map((status) => [String(status), answer(PROBLEM_WHEN[status]!, problemContent, PROBLEM_HEADERS[status])])),
    "401": unauthorized,
    "429": answer(PROBLEM_WHEN[429]!, problemContent, PROBLEM_HEADERS[429]),
  };
}

interface Operation {
  operationId: string;
  tags: [Tag];
  summary: string;
  description: string;
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  security?: [];
}

const operation = (tag: Tag, operationId: string, rest: Omit<Operation, "tags" | "operationId">): Operation => ({ operationId, tags: [tag], ...rest });

/** The operations that need no API key: only the request id is added to their answers. */
function open(tag: Tag, operationId: string, summary: string, description: string, responses: Record<string, { description: string; schema: JsonSchema }>): Operation {
  const answers = Object.fromEntries(
    Object.entries(responses).map(([status, { description: said, schema }]) => [status, { description: said, headers: { "X-Request-Id": header("X-Request-Id") }, content: jsonContent(schema) }]),
  );
  return { operationId, tags: [tag], summary, description, security: [], responses: answers };
}

/** GET /api/v1/openapi.json: prepared once, so it carries a validator and answers a matching If-None-Match with an empty 304. */
function documentOperation(): Operation {
  const validated = Object.fromEntries((["ETag", "Cache-Control", "Vary", "X-Content-Type-Options"] as const).map((name) => [name, header(name)]));
  const operation = open("Health", "getOpenApiDocument", "This document", "The OpenAPI 3.1 description of this API, generated from the service's own schemas.", {
    "200": { description: "OpenAPI 3.1", schema: { type: "object" } },
  });
  const ok = operation.responses["200"] as { headers: Record<string, unknown> };
  ok.headers = { ...ok.headers, ...validated };
  operation.responses["304"] = { description: "Not modified: the If-None-Match sent names this document's ETag", headers: ok.headers };
  return operation;
}

/**
 * One lookup of an inline batch. Each item is checked on its own by readLookupItem (src/lookup/lookup-item.ts):
 * a value that GET /api/v1/rates would refuse makes that item's result a 400 problem and the batch is still
 * answered 200. So the schema types the fields and leaves their formats, lengths and names to that check: a
 * request whose item carries a malformed ZIP is one the service accepts, and a validating client must send it.
 */
const BATCH_LOOKUP = {
  type: "object",
  description:
    "A lookup as for GET /api/v1/rates, with the same precedence, and an optional id of yours that its result repeats. " +
    "Each item is validated on its own, with the rules of GET /api/v1/rates: a value it would refuse (a ZIP that is not five digits or a ZIP+4, " +
    "a date not written YYYY-MM-DD) makes that item's result a 400 problem whose invalid_params names the field, " +
    "and the other items are answered as usual. A field not listed here (an export's name) is ignored and listed in the answer's ignored_fields; an item left with nothing to look up fails, naming it.",
  properties: {
    id: { type: ["string", "number"], maxLength: 100, description: "Yours, up to 100 characters; its result repeats it" },
    county: { type: "string", maxLength: 64, description: "County name or slug, any case, up to 64 characters" },
    zip: { type: ["string", "number"], description: "5-digit ZIP code, or a ZIP+4 (43081-1234 or 430811234)", examples: ["43215"] },
    address: { type: "string", maxLength: 300, description: "Street address, up to 300 characters, ideally ending with its ZIP" },
    lat: { type: ["number", "string"], description: "Decimal degrees, sent with lon" },
    lon: { type: ["number", "string"], description: "Decimal degrees, sent with lat" },
    date: { type: "string", description: "The date of the sale, YYYY-MM-DD (from 2018-01-01); default: today in Ohio", examples: ["2026-03-31"] },
    ...Object.fromEntries(
      [
        ["street", "The street line, as exports name it (or address1); with any of these split columns, address is read as the street line too"],
        ["address1", "The street line"],
        ["address2", "The unit (or street2, unit, suite), written after the street line"],
        ["street2", "The unit"],
        ["unit", "The unit"],
        ["suite", "The unit"],
        ["city", "The city"],
        ["state", "The state"],
        ["postal_code", "The ZIP, as zip"],
        ["zip4", "The +4 of the ZIP (or plus4)"],
        ["plus4", "The +4 of the ZIP"],
      ].map(([name, description]) => [name, { type: ["string", "number"], description: `${description}. Split columns are written into one address, "street unit, city, state ZIP"; two that name one thing with different values fail the item` }]),
    ),
    finder: {
      type: "array",
      minItems: 8,
      maxItems: 9,
      items: { type: "string" },
      description:
        "A row in Ohio's Finder batch layout, its fields in order (invoice number, address, suite, city, state, ZIP, ZIP+4, as-of date MM/DD/YYYY, optional taxable amount), held to the layout's rules; " +
        "sent alone, without the other fields. Its invoice number is the result's id",
      examples: [["INV-1001", "150 High St", "Suite 200", "Columbus", "OH", "43215", "", "11/02/2026"]],
    },
  },
};

const RATE_PRECEDENCE =
  "Send `county`, `zip`, `address`, or `lat` with `lon`; when several are sent, this precedence applies. " +
  "`address` wins: it is geocoded, and a `zip` sent with it is kept for the fallback when the address cannot be geocoded. " +
  "Otherwise `lat` with `lon`: the point decides. A `county` sent with an address or a point is not used. " +
  "Otherwise `county`: a `zip` sent with it must reach into that county (else 400 parameter-conflict), and the county answers. " +
  "Otherwise `zip`: a ZIP that spans counties answers with the ambiguous response. " +
  "Sending none of them is a 400, and so is an unknown or repeated parameter.";

function paths() {
  const webhookId = pathId("id", "Webhook id, wh_…");
  const batchId = pathId("id", "Batch id, as returned when the job was submitted");
  const certificateId = pathId("id", "Certificate id");
  const webhookAnswer = () => object({ webhook: ref("WebhookRecord"), message: { type: "string" } });
  const oneWebhook = json("The webhook", object({ webhook: ref("WebhookRecord") }));
  const oneCertificate = object({ certificate: ref("CertificateRecord") });
  const locationId = pathId("id", "Location id, loc_…");
  const transactionId = pathId("id", "Transaction id, txn_…");
  const oneLocation = object({ location: ref("LocationRecord") });
  const oneTransaction = object({ transaction: ref("TransactionRecord") });
  const recorded = (what: string) => ({
    "201": created(`The ${what}, recorded by this request`, oneTransaction),
    "200": json(`The ${what} an earlier request with the same id and body recorded`, oneTransaction, { Location: header("Location") }),
  });
  return {
    "/api/v1/rates": {
      get: operation("Rates", "getRate", {
        summary: "The statutory rate for a county, ZIP, street address or point, at a date",
        description: RATE_PRECEDENCE,
        parameters: queryParameters(RATE_QUERY),
        responses: {
          "200": json("An exact match, or the ambiguous response for a ZIP spanning counties", {
            oneOf: [ref("RateRecord"), ref("AmbiguousResponse")],
          }),
          ...problems(400, 404, 422, 503),
        },
      }),
    },
    "/api/v1/rates/batch": {
      post: operation("Rates", "getRatesBatch", {
        summary: "Up to 1,000 lookups answered inline, in input order, counted as one request",
        description:
          "Each lookup is answered as GET /api/v1/rates would answer it, with its status beside its body; one bad lookup never fails the others. " +
          "Address lookups are geocoded together, waiting at most GEOCODER_INLINE_BATCH_TIMEOUT_MS (30 s by default) for the geocoder: " +
          "lookups it has not answered by then are answered as its outage is (their ZIP with a note, or 503 geocoder-unavailable in the item), the list still with 200. " +
          "Larger files go to POST /api/v1/batches. " +
          "A body nested deeper than 5 levels (the body, its list and a lookup's 3) is a 400, refused as it streams.",
        requestBody: jsonBody(object({ lookups: { type: "array", minItems: 1, maxItems: 1000, items: BATCH_LOOKUP } })),
        responses: { "200": json("One result per lookup, in input order", ref("BatchAnswer")), ...problems(400, 413, 415) },
      }),
    },
    "/api/v1/batches": {
      post: operation("Batches", "createBatch", {
        summary: "Starts a batch job of up to 100,000 rows (CSV, NDJSON, or Ohio's Finder layout)",
        description:
          "CSV with a header row naming the columns id, county, zip, address, lat, lon and date, or NDJSON with one lookup object per line. " +
          "Address columns as exports name them are read too (street, address1, address2, street2, unit, suite, city, state, postal_code, zip4, plus4; a header in any case, spaces or hyphens for underscores): " +
          "they are written into one address line, and address is then its street line. " +
          "Exports' own headers are read too: Shopify's, WooCommerce's, BigCommerce's, Magento's, Square's, Amazon Seller Central's (tab-separated), QuickBooks' and Salesforce's, and common spellings (Address Line 1, AddressLine1, Street Address, Apt, Postal Code, ZIP Code), matched by their letters and digits in any case " +
          "(the list: docs/guides/address-resolution.md, \"Exports as platforms write them\"). Where an export carries a shipping and a billing address, the shipping address is read unless address_side=billing. " +
          "Any other header is read through the columns parameter. " +
          "A file in which no column is read as an address part (address, a street line, unit, city, state, ZIP, +4; or lat with lon) while some column looks like one (its name holds address, street, addr, zip, postal, postcode, apt or line N) is refused with 400 before anything is stored, naming those columns, what was read and the columns mapping to send. " +
          "Other columns (an export's name, phone, …) are ignored, not refused: the job lists every one as ignored_columns, and a row left with nothing to look up fails with a problem naming them; a row answered while a column that looks like an address part held a value that was not read carries unread_columns in the results. " +
          "A file that is not UTF-8 is refused with 400 naming the line, row and byte offset. " +
          "With ?format=finder the body is a headerless CSV in Ohio's Finder batch layout (invoice number, address, suite, city, state, ZIP, ZIP+4, as-of date MM/DD/YYYY, optional taxable amount), sent as text/csv; " +
          "each row is checked against the layout's rules (field lengths, state OH, ZIP 5 digits, ZIP+4 4 digits, dates from 01/01/2004 and not in the future) and fails alone if it breaks one; a date before 2018-01-01 fails with 422 date-out-of-range. " +
          "The job runs in the background; poll the Location until its status is completed, then fetch its results. " +
          "Refused as the upload streams, before anything is stored: a line (an NDJSON line, or a CSV record with its quoted line breaks) longer than UPLOAD_MAX_LINE_BYTES " +
          "(64 KiB by default) is a 413 batch-line-too-long, an NDJSON line nested deeper than 3 levels a 400, and row 100,001 a 413 batch-too-large; each names where. " +
          "A field longer than its documented length, or holding a control character, fails its own row. " +
          "Refused before the body is read: an upload past the organization's caps on jobs (counting its uploads being received) or on bytes being uploaded at once (429), or past the server's bytes being uploaded at once (503). Send Content-Length: without it an upload counts as 64 MiB.",
        parameters: queryParameters(UPLOAD_QUERY, {
          format: "finder: the body is a headerless CSV in Ohio's Finder batch layout (Content-Type text/csv); absent: CSV with a header row, or NDJSON, by Content-Type",
          columns:
            "For a CSV with a header row: which header each part is read from, as NAME=HEADER pairs separated by commas (URL-encoded), e.g. street=Addr 1,zip=Zip Cd. " +
            "NAME is one of id, address, street, address2, city, state, zip, zip4, county, lat, lon, date; HEADER is matched by its letters and digits, in any case. " +
            "A mapped column wins over any other column for that part. A pair that cannot be read, an unknown name, a name twice, or a header the file does not have is a 400",
          address_side: "For a CSV export that carries a shipping and a billing address: which is read. Absent: shipping (where the buyer receives the goods); an export with billing columns only is read from them",
        }),
        requestBody: BATCH_FILE_BODY,
        responses: {
          "202": json("The job; Location is where to poll it", ref("BatchJob"), { Location: header("Location") }),
          ...problems(400, 413, 415),
          "403": IN_TRIAL,
          "409": answer(
            "batch-jobs-stored: the organization keeps as many jobs as it may (BATCH_JOBS_STORED_PER_ORG, completed ones included); delete some with DELETE /api/v1/batches/{id}",
            problemContent,
          ),
          "429": answer(
            "More than the key's requests per second; or batch-jobs-in-flight: the organization has as many jobs queued, running or being uploaded as it may (BATCH_JOBS_IN_FLIGHT_PER_ORG); " +
              "or batch-uploads-in-flight: its uploads being received, with this one's Content-Length (64 MiB without one), would pass BATCH_UPLOAD_BYTES_PER_ORG. Answered before the body is read; Retry-After says when to try again",
            problemContent,
            PROBLEM_HEADERS[429],
          ),
          "503": answer(
            "batch-uploads-busy: the uploads this server is receiving from every organization, with this one's Content-Length (64 MiB without one), would pass BATCH_UPLOAD_BYTES_PER_PROCESS. Answered before the body is read; Retry-After says when to try again",
            problemContent,
            { "Retry-After": header("Retry-After") },
          ),
        },
      }),
    },
    "/api/v1/batches/{id}": {
      get: operation("Batches", "getBatch", {
        summary: "A batch job's state and progress",
        description: "Only the organization that submitted a job sees it; to any other it does not exist (404).",
        parameters: [batchId],
        responses: { "200": json("The job", ref("BatchJob")), ...problems(404) },
      }),
      delete: operation("Batches", "deleteBatch", {
        summary: "Deletes a batch job, its rows and its results",
        description:
          "In any state: a queued job never runs, a running one is cancelled (what its runner has in hand is not stored). Afterwards the job and its results answer 404. " +
          "Completed jobs are also deleted RETAIN_BATCH_JOBS_DAYS (7 by default) after they completed; deleting them sooner frees room under BATCH_JOBS_STORED_PER_ORG. " +
          "Only the organization that submitted a job can delete it; to any other it does not exist (404).",
        parameters: [batchId],
        responses: { "204": answer("Deleted"), ...problems(404) },
      }),
    },
    "/api/v1/batches/{id}/results": {
      get: operation("Batches", "getBatchResults", {
        summary: "A finished job's results, as CSV or NDJSON, or a Finder job's results and errors files",
        description:
          "One line per input row, in input order. ?format= or else Accept chooses the format (text/csv or application/x-ndjson); with neither, or */*, the results come in the format that was uploaded. " +
          "A job uploaded with ?format=finder has two headerless CSV files besides: ?format=finder (its default, and what Accept: text/csv gives it), each row answered with one rate as its 9 Finder fields then " +
          "county, fips, combined_rate, state_rate, county_permissive_rate, transit_authority_rate, resolved_by, effective_from, date_evaluated, note; and ?format=finder-errors, every other row as its 9 Finder fields then row, status, problem_type, problem_detail. " +
          "Buckeye's CSV has a header line and the columns row, id, status, county, fips, combined_rate, state, county_permissive, transit_authority, transit_status, resolved_by, effective_from, date_evaluated, " +
          "candidate_fips, lowest_combined_rate, note, problem_type, problem_detail, boundary_version, boundary_record_type, boundary_line, ambiguous, unread_columns (new columns are added at the end): " +
          "ambiguous is true on a row whose ZIP spans counties and that has no single rate (status 200, candidate_fips and lowest_combined_rate in place of a rate), false otherwise. " +
          "unread_columns (the last column) names, space-separated, a row's columns that look like part of an address, held a value and were not read: the row was answered from less than it was sent; blank on other rows. " +
          "Each NDJSON line is {row, id, status, body}, body the rate record, ambiguous response or problem object a single lookup would have answered, and on a row that has some, unread_columns: [names]. " +
          `An orders job's (POST /api/v1/tax/batches) line is one sale, in the upload's order: NDJSON {row, id, status, body}, id its order_id and status and body what POST /api/v1/tax (or, recorded, POST /api/v1/transactions) answers for it; ` +
          `CSV with the columns ${ORDER_RESULT_COLUMNS.join(", ")}. ` +
          "Asking another job for a Finder file is a 400. " +
          "Any other Accept is a 406. Until the job is completed the answer is a 409 with Retry-After. " +
          "You have every row when the body ends cleanly and holds the job's total rows (its total, as GET /api/v1/batches/{id} shows; a CSV has a header line besides). " +
          "A download cut short, because the job was deleted (DELETE, or the retention sweep) while it streamed, fails as a transfer: the connection is closed before the chunked body's end, never a clean end with fewer rows.",
        parameters: [batchId, ...queryParameters(RESULTS_QUERY, { format: "csv or ndjson: Buckeye's results; finder or finder-errors (a job uploaded with ?format=finder only): its Finder results or errors file. Absent: by Accept" })],
        responses: {
          "200": answer(
            "One line per row, streamed",
            { "text/csv": { schema: { type: "string" } }, "application/x-ndjson": { schema: { type: "string" } } },
            { "Content-Disposition": { description: "attachment, with a file name made of the batch id", required: true, schema: { type: "string" } } },
          ),
          ...problems(400, 404, 406, 409),
        },
      }),
    },
    "/api/v1/counties": {
      get: operation("Counties", "listCounties", {
        summary: "All 88 counties with their rates at a date",
        description: "Filtered by the start of their name and sorted by name or by rate. Unknown or repeated parameters are refused.",
        parameters: queryParameters(COUNTIES_QUERY),
        responses: { "200": json("All 88 counties with their rates on one date", ref("CountiesResponse")), ...problems(400, 422) },
      }),
    },
    "/api/v1/webhooks": {
      post: operation("Webhook endpoints", "createWebhook", {
        summary: "Registers a webhook; the signing secret is shown only in this answer",
        description:
          "The url must be https (http is accepted for test keys), and events a non-empty list of the subscribable event types. " +
          "An organization has at most WEBHOOKS_PER_ORG webhooks (20 unless the operator sets it), disabled ones included: the next is a 409 webhook-limit-reached until one is deleted.",
        requestBody: jsonBody(ref("WebhookCreate")),
        responses: { "201": created("The webhook and a message; the secret appears only here", webhookAnswer()), ...problems(409, 413, 415, 422) },
      }),
      get: operation("Webhook endpoints", "listWebhooks", {
        summary: "This organization's webhooks",
        description: "Every webhook of the key's organization and mode, without secrets.",
        responses: { "200": json("The list", object({ total: { type: "integer" }, webhooks: { type: "array", items: ref("WebhookRecord") } })), ...problems() },
      }),
    },
    "/api/v1/webhooks/{id}": {
      get: operation("Webhook endpoints", "getWebhook", { summary: "One webhook", description: "The webhook without its secret.", parameters: [webhookId], responses: { "200": oneWebhook, ...problems(404) } }),
      patch: operation("Webhook endpoints", "updateWebhook", {
        summary: "Changes its url, events or status",
        description: "Send only the fields to change. Setting status to active re-enables a webhook that was disabled after failing deliveries.",
        parameters: [webhookId],
        requestBody: jsonBody(ref("WebhookUpdate")),
        responses: { "200": oneWebhook, ...problems(404, 413, 415, 422) },
      }),
      delete: operation("Webhook endpoints", "deleteWebhook", {
        summary: "Deletes a webhook",
        description: "Its pending deliveries are cancelled with it.",
        parameters: [webhookId],
        responses: { "204": answer("Deleted"), ...problems(404) },
      }),
    },
    "/api/v1/webhooks/{id}/rotate-secret": {
      post: operation("Webhook endpoints", "rotateWebhookSecret", {
        summary: "A new signing secret",
        description: "The new secret appears only in this answer. The old one keeps signing, beside the new, for 24 hours.",
        parameters: [webhookId],
        responses: { "200": json("The webhook and the new secret", webhookAnswer()), ...problems(404) },
      }),
    },
    "/api/v1/webhooks/{id}/test": {
      post: operation("Webhook endpoints", "sendWebhookTest", {
        summary: "Queues a webhook.test event for this webhook alone",
        description: "The event is delivered as any other, whatever events the webhook subscribes to; follow it in the deliveries.",
        parameters: [webhookId],
        responses: { "202": json("The queued event", object({ event: ref("EventEnvelope"), message: { type: "string" } })), ...problems(404) },
      }),
    },
    "/api/v1/webhooks/{id}/deliveries": {
      get: operation("Webhook endpoints", "listWebhookDeliveries", {
        summary: "Recent deliveries, newest first",
        description: "Each delivery with every attempt: status code, latency, outcome and error.",
        parameters: [webhookId, ...queryParameters(DELIVERIES_QUERY)],
        responses: { "200": json("The deliveries", object({ webhook_id: { type: "string" }, deliveries: { type: "array", items: ref("DeliveryRecord") } })), ...problems(400, 404) },
      }),
    },
    "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
      post: operation("Webhook endpoints", "redeliverWebhookDelivery", {
        summary: "Queues a settled delivery's event again",
        description: "With the same X-Webhook-ID, so receivers de-duplicate it, and a fresh retry schedule.",
        parameters: [webhookId, pathId("delivery_id", "Delivery id, dlv_…")],
        responses: { "202": json("The new delivery", object({ delivery: ref("DeliveryRecord"), message: { type: "string" } })), ...problems(404, 409) },
      }),
    },
    "/api/v1/webhooks/{id}/recover": {
      post: operation("Webhook endpoints", "recoverWebhookEvents", {
        summary: "Queues again the events this webhook missed since a time",
        description: `Oldest first, up to ${MAX_RECOVERED} events per call that this webhook never received; call again while remaining is above 0.`,
        parameters: [webhookId],
        requestBody: jsonBody(ref("WebhookRecover")),
        responses: {
          "202": json("How many were queued, and how many remain for another call", object({ queued: { type: "integer" }, remaining: { type: "integer" }, message: { type: "string" } })),
          ...problems(400, 404, 409, 413, 415),
        },
      }),
    },
    "/api/v1/certificates": {
      post: operation("Certificates", "createCertificate", {
        summary: "Records an exemption certificate",
        description:
          "Buckeye sends certificate.expiring events before its expiry date. An organization keeps at most CERTIFICATES_PER_ORG certificates (10,000 unless the operator sets it): the next is a 409 certificate-limit-reached until some are deleted.",
        requestBody: jsonBody(ref("CertificateCreate")),
        responses: { "201": created("The certificate", oneCertificate), ...problems(409, 413, 415, 422) },
      }),
      get: operation("Certificates", "listCertificates", {
        summary: "This organization's certificates, a page at a time",
        description:
          "The key's organization's certificates, soonest expiry first (then by id), `limit` to a page. Ask for the next page with `cursor` set to this page's `next_cursor`, until `next_cursor` is null. " +
          "A certificate added or deleted between pages never makes the walk skip or repeat another.",
        parameters: queryParameters(CERTIFICATES_QUERY, { limit: "Certificates per page, 1 to 200; default 50" }),
        responses: {
          "200": json(
            "One page",
            object({
              total: { type: "integer", description: "How many certificates the organization keeps, on every page" },
              certificates: { type: "array", items: ref("CertificateRecord") },
              next_cursor: { type: ["string", "null"], description: "The cursor of the next page; null on the last" },
            }),
          ),
          ...problems(400),
        },
      }),
    },
    "/api/v1/certificates/{id}": {
      get: operation("Certificates", "getCertificate", { summary: "One certificate", description: "As it was recorded.", parameters: [certificateId], responses: { "200": json("The certificate", oneCertificate), ...problems(404) } }),
      delete: operation("Certificates", "deleteCertificate", {
        summary: "Deletes a certificate",
        description: "No reminder is sent for it afterwards.",
        parameters: [certificateId],
        responses: { "204": answer("Deleted"), ...problems(404) },
      }),
    },
    "/api/v1/reconciliations": {
      get: operation("Rates", "listReconciliations", {
        summary: "The reconciliation log, newest first",
        description: "Each run against the state's rate file, with the discrepancies it found.",
        parameters: queryParameters(RECONCILIATIONS_QUERY),
        responses: { "200": json("The runs, with their discrepancies", object({ total: { type: "integer" }, reconciliations: { type: "array", items: ref("Reconciliation") } })), ...problems(400) },
      }),
    },
    "/api/v1/returns/{period}": {
      get: operation("Returns", "getReturn", {
        summary: "The UST 1 worksheet of a filing period, by county",
        description:
          "Sums the ledger of the calling key's environment (a test key reads the test ledger, a live key the live one) over the records dated in the period: " +
          "per county with sales, gross, exempt and net taxable sales and the tax (a COTA district's part of Delaware, Fairfield, Licking or Union County on its own line, as the Department of Taxation numbers it); " +
          "a refund or void counts in the period of its own date. Then the form's lines 1 to 9 with the prompt-payment discount in force for the due date. " +
          "The period follows the organization's filing frequency: YYYY-MM for a monthly filer, YYYY-H1 or YYYY-H2 for a semiannual one. " +
          "JSON, or CSV with ?format=csv or Accept: text/csv.",
        parameters: [
          { name: "period", in: "path", required: true, description: "2026-11 (monthly), or 2026-H1 / 2026-H2 (semiannual)", schema: { type: "string", examples: ["2026-11"] } },
          ...queryParameters(RETURN_QUERY, { format: "json or csv; absent: by Accept (text/csv for CSV), JSON by default" }),
        ],
        responses: {
          "200": answer(
            "The worksheet",
            { "application/json": { schema: ref("ReturnWorksheet") }, "text/csv": { schema: { type: "string" } } },
            { "Content-Disposition": { description: "For CSV only: attachment, with a file name made of the period and the ledger", required: false, schema: { type: "string" } } },
          ),
          ...problems(400, 406, 409, 422),
        },
      }),
    },
    "/api/v1/tax": {
      post: operation("Tax", "calculateTax", {
        summary: "The tax on one sale, stored nowhere",
        description:
          "The sale is sourced by R.C. 5739.033 (a pickup at one of the organization's locations; an order received at its Ohio location; else where the buyer receives the goods, `ship_to`, in any form a rate lookup takes), " +
          "its places resolved as GET /api/v1/rates resolves them, and the tax computed for each jurisdiction separately (state, county, transit authority), carried to the third decimal and rounded by R.C. 5739.025 " +
          "on the organization's item or invoice basis. A certificate of the customer's valid on the sale's date exempts its lines. Amounts are decimal strings with two places. " +
          "A place rates cannot settle (a ZIP spanning counties, a county a transit district splits) answers its candidates and no tax (settled: false). docs/guides/tax-and-returns.md works examples cent by cent.",
        requestBody: jsonBody(ref("Sale")),
        responses: {
          "200": json("The tax, or the candidates of a place not settled", { oneOf: [ref("TaxAnswer"), ref("TaxUnsettled")] }),
          ...problems(404, 413, 415, 422, 503),
        },
      }),
    },
    "/api/v1/tax/batches": {
      post: operation("Tax", "createOrderBatch", {
        summary: "Starts a batch job of orders: each sale's tax calculated, and with record=true recorded, in the upload's order",
        description:
          "A job like POST /api/v1/batches's (polled, downloaded and deleted at /api/v1/batches/{id}, under the same caps on jobs, rows, lines and bytes), whose rows are sales. " +
          "NDJSON: one sale per line, the body POST /api/v1/tax takes, with order_id (required with record=true, as POST /api/v1/transactions requires it; otherwise it names the result row). " +
          `CSV with a header row: one row per line item, order_id grouping the rows of one sale, which are contiguous. The order's columns (${Object.keys(ORDER_COLUMNS).join(", ")}) may be repeated on each of its rows or given on its first; ` +
          `the line's (${Object.keys(LINE_COLUMNS).join(", ")}) are each row's. A row without line_id is the order's nth line. Any other column is refused with 400, naming it, before anything is stored. ` +
          "Each sale is answered as POST /api/v1/tax answers it (its tax, the candidates of a place not settled, or the problem naming the field), or with record=true as POST /api/v1/transactions answers it, " +
          "into the ledger of the key's environment (a test key's into the test ledger, a live key's into the live one): the same order_id and body answer the transaction already recorded (200), another body is that row's 409 transaction-conflict. " +
          "A re-upload of the same file records nothing twice. One bad sale never fails the others. A CSV order whose rows disagree on an order field, or whose rows are apart, fails alone naming the field. " +
          "Sales without a date are dated on the day the job was accepted. docs/guides/tax-and-returns.md, \"Batches of orders\", shows a file and its results.",
        parameters: queryParameters(ORDERS_UPLOAD_QUERY, { record: "true: record each sale into the ledger of the key's environment, idempotently by order_id; absent or false: calculate only, store nothing in the ledger" }),
        requestBody: BATCH_FILE_BODY,
        responses: {
          "202": json("The job (kind orders); Location is where to poll it", ref("BatchJob"), { Location: header("Location") }),
          ...problems(400, 413, 415),
          "403": IN_TRIAL,
          "409": answer("batch-jobs-stored: the organization keeps as many jobs as it may (BATCH_JOBS_STORED_PER_ORG); delete some with DELETE /api/v1/batches/{id}", problemContent),
          "429": answer("More than the key's requests per second; or batch-jobs-in-flight or batch-uploads-in-flight, as for POST /api/v1/batches; Retry-After says when to try again", problemContent, PROBLEM_HEADERS[429]),
          "503": answer("batch-uploads-busy, as for POST /api/v1/batches; Retry-After says when to try again", problemContent, { "Retry-After": header("Retry-After") }),
        },
      }),
    },
    "/api/v1/tax/settings": {
      get: operation("Tax", "getTaxSettings", {
        summary: "The organization's rounding basis",
        description: "invoice (the default) or item: SSUTA section 324 lets the seller choose.",
        responses: { "200": json("The settings", ref("TaxSettings")) , ...problems() },
      }),
      put: operation("Tax", "putTaxSettings", {
        summary: "Sets the organization's rounding basis",
        description: "Applies to every sale computed afterwards; a recorded sale keeps the basis it was computed on.",
        requestBody: jsonBody(ref("TaxSettings")),
        responses: { "200": json("The settings now", ref("TaxSettings")), ...problems(415, 422) },
      }),
    },
    "/api/v1/locations": {
      post: operation("Tax", "createLocation", {
        summary: "Records one of the organization's places of business",
        description: "A store or office where it receives orders or hands goods over, placed by a county, ZIP, address or point. It must settle one county and transit district today: a ZIP spanning counties is refused (422), a place that cannot be resolved answers the rate lookup's problem.",
        requestBody: jsonBody(ref("LocationCreate")),
        responses: { "201": created("The location", oneLocation), ...problems(404, 415, 422) },
      }),
      get: operation("Tax", "listLocations", {
        summary: "The organization's locations",
        description: "Oldest first.",
        responses: { "200": json("The locations", object({ locations: { type: "array", items: ref("LocationRecord") } })), ...problems() },
      }),
    },
    "/api/v1/locations/{id}": {
      get: operation("Tax", "getLocation", { summary: "One location", description: "As it was recorded.", parameters: [locationId], responses: { "200": json("The location", oneLocation), ...problems(404) } }),
      delete: operation("Tax", "deleteLocation", {
        summary: "Deletes a location",
        description: "Sales already recorded keep what they were computed from; a sale naming it afterwards is refused.",
        parameters: [locationId],
        responses: { "204": answer("Deleted"), ...problems(404) },
      }),
    },
    "/api/v1/transactions": {
      post: operation("Tax", "recordTransaction", {
        summary: "Records a sale's tax in the ledger under the merchant's order id",
        description:
          "Computed as POST /api/v1/tax computes it, then kept in the key's ledger (a test key's in the test ledger, a live key's in the live one). The same order_id and body answer the transaction already recorded (200); " +
          "the same order_id with another body is a 409. A place that does not settle one county is refused (422 location-not-settled).",
        requestBody: jsonBody(ref("SaleToRecord")),
        responses: { ...recorded("sale"), ...problems(404, 409, 413, 415, 422, 503) },
      }),
      get: operation("Tax", "listTransactions", {
        summary: "The ledger by date, a page at a time",
        description: "Sales, refunds and voids dated from `from` to `to` (both included), in date order (then by id). Ask for the next page with `cursor` set to this page's `next_cursor`, until it is null.",
        parameters: queryParameters(TRANSACTIONS_QUERY, { from: "The first date, YYYY-MM-DD", to: "The last date, YYYY-MM-DD", limit: "Records per page, 1 to 200; default 50" }),
        responses: {
          "200": json("One page", object({ transactions: { type: "array", items: ref("TransactionRecord") }, next_cursor: { type: ["string", "null"], description: "The cursor of the next page; null on the last" } })),
          ...problems(400),
        },
      }),
    },
    "/api/v1/transactions/{id}": {
      get: operation("Tax", "getTransaction", { summary: "One record of the ledger", description: "With what it was computed from.", parameters: [transactionId], responses: { "200": json("The record", oneTransaction), ...problems(404) } }),
    },
    "/api/v1/transactions/{id}/refunds": {
      post: operation("Tax", "refundTransaction", {
        summary: "Records a refund of part or all of a sale",
        description:
          "Its own record, pointing at the sale, with negative amounts dated on the refund's date in the sale's county, so it reduces the return of its own period. The tax taken back is computed at the sale's rates and basis and never passes what is left; " +
          "a refund of more than is left of a line or of the delivery charges is refused (422 refund-exceeds-sale). The same refund_id and body answer the refund already recorded.",
        parameters: [transactionId],
        requestBody: jsonBody(ref("RefundCreate")),
        responses: { ...recorded("refund"), ...problems(404, 409, 415, 422) },
      }),
    },
    "/api/v1/transactions/{id}/void": {
      post: operation("Tax", "voidTransaction", {
        summary: "Voids a sale: all that is left of it taken back",
        description: "Its own record, negative, dated on the void's date. One per sale; asked again with the same body it answers the void already recorded. A sale refunded in full has nothing left to void (422).",
        parameters: [transactionId],
        requestBody: jsonBody(ref("VoidCreate")),
        responses: { ...recorded("void"), ...problems(404, 409, 415, 422) },
      }),
    },
    "/api/v1/transactions/{id}/replay": {
      get: operation("Tax", "replayTransaction", {
        summary: "A recorded sale computed again: from what it cites, and from today's data",
        description:
          "as_recorded computes the sale again from the rates and basis its record cites (the record keeps them, since a later reconciliation may replace the periods they came from) and says whether that gives the recorded amounts; " +
          "today places and rates the same sale, on its own date, with today's boundary file and rate table; differences lists what changed. A refund or void is replayed through its sale.",
        parameters: [transactionId],
        responses: { "200": json("The replay", ref("Replay")), ...problems(404) },
      }),
    },
    "/healthz": {
      get: open("Health", "getHealth", "The process is up", "Liveness: answers as long as the process serves HTTP.", {
        "200": { description: "Up", schema: object({ status: { const: "ok" } }) },
      }),
    },
    "/readyz": {
      get: open("Health", "getReadiness", "Database reachable, data loaded, worker pool up", "Readiness: a load balancer sends traffic only while this answers 200.", {
        "200": { description: "Ready", schema: { type: "object" } },
        "503": { description: "Not ready, with the reasons", schema: { type: "object" } },
      }),
    },
    "/api/v1/openapi.json": {
      get: documentOperation(),
    },
  };
}

/** What Buckeye POSTs to a registered webhook for each event type. */
function webhookDeliveries() {
  const camel = (type: string) => type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase());
  return Object.fromEntries(
    [...SUBSCRIBABLE_EVENTS, "webhook.test"].map((type) => [
      type,
      {
        post: {
          operationId: `${camel(type)}Event`,
          tags: ["Webhook endpoints"],
          summary: `The ${type} event, as Buckeye POSTs it to a registered webhook`,
          description:
            "Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" keyed with the whole whsec_ secret>`. " +
            "Answer any 2xx within 10 s; anything else, or no answer in time, is retried.",
          security: [],
          requestBody: { required: true, content: jsonContent(ref("EventEnvelope")) },
          responses: { "200": { description: "Any 2xx: delivered" } },
        },
      },
    ]),
  );
}

function buildDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Buckeye: Ohio sales tax rates",
      version: "1.0.0",
      description: "Statutory Ohio sales tax rates by county, ZIP, street address or point, for any date from 2018-01-01.",
      contact: { name: "Buckeye", url: "https://buckeye.dev" },
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "This Buckeye instance: the paths are relative to where this document is served" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ apiKey: [] }],
    paths: paths(),
    webhooks: webhookDeliveries(),
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An API key: tax_live_… or tax_test_…" } },
      headers: HEADERS,
      schemas: componentSchemas(),
    },
  };
}

let document: ReturnType<typeof buildDocument> | undefined;

export function openApiDocument() {
  document ??= buildDocument();
  return document;
}
