/**
 * GET /api/v1/openapi.json (DESIGN §5): the OpenAPI 3.1 document, generated from the zod schemas
 * the service itself uses, so the records (src/rates/record-schemas.ts), the problem details, the
 * webhook record and every query parameter are written once. Paths and their wording live here.
 * Built once, on first request.
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
import { problemDetailsSchema } from "./problem.ts";
import { certificateSchema } from "./routes/certificates.ts";
import { COUNTIES_QUERY } from "./routes/counties.ts";
import { RATE_QUERY } from "./routes/rates.ts";
import { RECONCILIATIONS_QUERY } from "./routes/reconciliations.ts";
import { DELIVERIES_QUERY, MAX_RECOVERED, recoverSchema } from "./routes/webhooks.ts";

export const eventEnvelopeSchema = z
  .strictObject({
    id: z.string().regex(/^evt_/).describe("The same on every attempt: the X-Webhook-ID receivers de-duplicate by"),
    type: z.enum([...SUBSCRIBABLE_EVENTS, "webhook.test"]),
    created_at: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()).describe("The event's data; its fields per type are listed in the README"),
  })
  .describe("spec §2.8");

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
};

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" });
  return rest;
}

function queryParameters(query: Record<string, z.ZodType>) {
  return Object.entries(query).map(([name, schema]) => ({
    name,
    in: "query",
    required: false,
    description: PARAMETER_HELP[name],
    schema: jsonSchemaOf(schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema),
  }));
}

const pathId = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string" } });
const ref = (id: keyof typeof NAMED) => ({ $ref: `#/components/schemas/${id}` });
const json = (description: string, schema: JsonSchema) => ({ description, content: { "application/json": { schema } } });
const object = (properties: Record<string, JsonSchema>) => ({ type: "object", properties, required: Object.keys(properties) });

const PROBLEM_WHEN: Record<number, string> = {
  400: "Invalid or conflicting parameters",
  401: "No API key, or one that is unknown, mistyped, revoked or of a suspended organization",
  404: "Not found in this organization",
  409: "The resource is not in a state that allows this",
  413: "Too many items",
  415: "Unsupported body type",
  422: "The input is understood but cannot be served",
  429: "More than the key's requests per second; see Retry-After",
  503: "An upstream or the boundary data is unavailable; see Retry-After",
};

function problems(...statuses: number[]) {
  return Object.fromEntries(
    [...statuses, 401, 429].map((status) => [String(status), { description: PROBLEM_WHEN[status], content: { "application/problem+json": { schema: ref("ProblemDetails") } } }]),
  );
}

function paths() {
  const webhookId = pathId("id", "Webhook id, wh_…");
  const webhookAnswer = json("The webhook and a message; the secret appears only here", object({ webhook: ref("WebhookRecord"), message: { type: "string" } }));
  return {
    "/api/v1/rates": {
      get: {
        summary: "The statutory rate for a county, ZIP, street address or point, at a date",
        description: "Send one of county, zip, address, or lat with lon. Unknown or repeated parameters are refused.",
        parameters: queryParameters(RATE_QUERY),
        responses: {
          "200": json("An exact match (spec §2.1), or the ambiguous response for a ZIP spanning counties (spec §2.4)", {
            oneOf: [ref("RateRecord"), ref("AmbiguousResponse")],
          }),
          ...problems(400, 404, 422, 503),
        },
      },
    },
    "/api/v1/rates/batch": {
      post: {
        summary: "Up to 1,000 lookups answered inline, in input order, counted as one request",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: object({
                lookups: {
                  type: "array",
                  maxItems: 1000,
                  items: { type: "object", description: "county, zip, address, lat, lon and date as for GET /api/v1/rates, and an optional id of yours" },
                },
              }),
            },
          },
        },
        responses: { "200": json("One result per lookup, in input order", ref("BatchAnswer")), ...problems(400, 413, 415) },
      },
    },
    "/api/v1/batches": {
      post: {
        summary: "Starts a batch job of up to 100,000 rows (CSV or NDJSON)",
        requestBody: { required: true, content: { "text/csv": { schema: { type: "string" } }, "application/x-ndjson": { schema: { type: "string" } } } },
        responses: { "202": json("The job, with a Location to poll", ref("BatchJob")), ...problems(400, 413, 415) },
      },
    },
    "/api/v1/batches/{id}": {
      get: { summary: "A batch job's state and progress", parameters: [pathId("id", "Batch id")], responses: { "200": json("The job", ref("BatchJob")), ...problems(404) } },
    },
    "/api/v1/batches/{id}/results": {
      get: {
        summary: "A finished job's results, as CSV or NDJSON (Accept)",
        parameters: [pathId("id", "Batch id")],
        responses: { "200": { description: "One line per row", content: { "text/csv": {}, "application/x-ndjson": {} } }, ...problems(404, 409) },
      },
    },
    "/api/v1/counties": {
      get: {
        summary: "All 88 counties with their rates at a date",
        parameters: queryParameters(COUNTIES_QUERY),
        responses: { "200": json("spec §2.6", ref("CountiesResponse")), ...problems(400, 422) },
      },
    },
    "/api/v1/webhooks": {
      post: {
        summary: "Registers a webhook; the signing secret is shown only in this answer",
        requestBody: { required: true, content: { "application/json": { schema: ref("WebhookCreate") } } },
        responses: { "201": webhookAnswer, ...problems(400, 422) },
      },
      get: { summary: "This organization's webhooks", responses: { "200": json("The list", object({ total: { type: "integer" }, webhooks: { type: "array", items: ref("WebhookRecord") } })), ...problems() } },
    },
    "/api/v1/webhooks/{id}": {
      get: { summary: "One webhook", parameters: [webhookId], responses: { "200": json("The webhook", object({ webhook: ref("WebhookRecord") })), ...problems(404) } },
      patch: {
        summary: "Changes its url, events or status (active re-enables a disabled webhook)",
        parameters: [webhookId],
        requestBody: { required: true, content: { "application/json": { schema: ref("WebhookUpdate") } } },
        responses: { "200": json("The webhook", object({ webhook: ref("WebhookRecord") })), ...problems(404, 422) },
      },
      delete: { summary: "Deletes it with its pending deliveries", parameters: [webhookId], responses: { "204": { description: "Deleted" }, ...problems(404) } },
    },
    "/api/v1/webhooks/{id}/rotate-secret": {
      post: { summary: "A new secret; the old one keeps signing for 24 h", parameters: [webhookId], responses: { "200": webhookAnswer, ...problems(404) } },
    },
    "/api/v1/webhooks/{id}/test": {
      post: { summary: "Queues a webhook.test event for this webhook alone", parameters: [webhookId], responses: { "202": json("The queued event", object({ event: ref("EventEnvelope"), message: { type: "string" } })), ...problems(404) } },
    },
    "/api/v1/webhooks/{id}/deliveries": {
      get: {
        summary: "Recent deliveries, newest first, each with every attempt (status code, latency, outcome, error)",
        parameters: [webhookId, ...queryParameters(DELIVERIES_QUERY)],
        responses: { "200": json("The deliveries", object({ webhook_id: { type: "string" }, deliveries: { type: "array", items: ref("DeliveryRecord") } })), ...problems(400, 404) },
      },
    },
    "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
      post: {
        summary: "Queues a settled delivery's event again, with the same X-Webhook-ID and a fresh retry schedule",
        parameters: [webhookId, pathId("delivery_id", "Delivery id, dlv_…")],
        responses: { "202": json("The new delivery", object({ delivery: ref("DeliveryRecord"), message: { type: "string" } })), ...problems(404, 409) },
      },
    },
    "/api/v1/webhooks/{id}/recover": {
      post: {
        summary: `Queues again, oldest first, up to ${MAX_RECOVERED} events since a time that this webhook never received`,
        parameters: [webhookId],
        requestBody: { required: true, content: { "application/json": { schema: ref("WebhookRecover") } } },
        responses: {
          "202": json("How many were queued, and how many remain for another call", object({ queued: { type: "integer" }, remaining: { type: "integer" }, message: { type: "string" } })),
          ...problems(400, 404, 409),
        },
      },
    },
    "/api/v1/certificates": {
      post: {
        summary: "Records an exemption certificate, for expiry reminders",
        requestBody: { required: true, content: { "application/json": { schema: ref("CertificateCreate") } } },
        responses: { "201": json("The certificate", object({ certificate: ref("CertificateRecord") })), ...problems(422) },
      },
      get: {
        summary: "This organization's certificates",
        responses: { "200": json("The list", object({ total: { type: "integer" }, certificates: { type: "array", items: ref("CertificateRecord") } })), ...problems() },
      },
    },
    "/api/v1/certificates/{id}": {
      get: { summary: "One certificate", parameters: [pathId("id", "Certificate id")], responses: { "200": json("The certificate", object({ certificate: ref("CertificateRecord") })), ...problems(404) } },
      delete: { summary: "Deletes it", parameters: [pathId("id", "Certificate id")], responses: { "204": { description: "Deleted" }, ...problems(404) } },
    },
    "/api/v1/reconciliations": {
      get: {
        summary: "The reconciliation log, newest first",
        parameters: queryParameters(RECONCILIATIONS_QUERY),
        responses: { "200": json("The runs, with their discrepancies", object({ total: { type: "integer" }, reconciliations: { type: "array", items: ref("Reconciliation") } })), ...problems(400) },
      },
    },
    "/healthz": { get: { summary: "The process is up", security: [], responses: { "200": json("Up", object({ status: { const: "ok" } })) } } },
    "/readyz": {
      get: {
        summary: "Database reachable, data loaded, worker pool up",
        security: [],
        responses: { "200": json("Ready", { type: "object" }), "503": json("Not ready, with the reasons", { type: "object" }) },
      },
    },
    "/api/v1/openapi.json": { get: { summary: "This document", security: [], responses: { "200": json("OpenAPI 3.1", { type: "object" }) } } },
  };
}

function buildDocument() {
  const delivery = {
    post: {
      summary: "What Buckeye POSTs to a registered webhook",
      description:
        "Signed as Stripe signs: X-Webhook-Signature `t=<timestamp>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" keyed with the whole whsec_ secret>`. Answer any 2xx within 10 s.",
      requestBody: { content: { "application/json": { schema: ref("EventEnvelope") } } },
      responses: { "200": { description: "Any 2xx: delivered. Anything else, or no answer in time, is retried." } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Buckeye: Ohio sales tax rates",
      version: "1.0.0",
      description: "Statutory Ohio sales tax rates by county, ZIP, street address or point, for any date from 2018-01-01.",
    },
    security: [{ apiKey: [] }],
    paths: paths(),
    webhooks: Object.fromEntries([...SUBSCRIBABLE_EVENTS, "webhook.test"].map((type) => [type, delivery])),
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An API key: tax_live_… or tax_test_…" } },
      schemas: componentSchemas(),
    },
  };
}

let document: ReturnType<typeof buildDocument> | undefined;

export function openApiDocument() {
  document ??= buildDocument();
  return document;
}
