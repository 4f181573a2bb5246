/**
 * The answers of the endpoints beyond the rate records (record-schemas.ts) (batches, certificates, deliveries,
 * reconciliations) as zod schemas: the routes type what they return with these, and the OpenAPI
 * document (openapi.ts) is generated from them, so their fields too are written once.
 */
import { z } from "zod";
import { discrepancySchema } from "../scheduled/compare-rates.ts";
import { ambiguousResponseSchema, rateRecordSchema } from "../rates/record-schemas.ts";
import { problemDetailsSchema } from "../web/problem.ts";

const timestamp = z.iso.datetime();

export const batchItemAnswerSchema = z
  .strictObject({
    id: z.string().nullable().describe("The caller's id for the lookup, when it sent one"),
    status: z.number().int().describe("The status a single lookup would have had"),
    body: z.union([rateRecordSchema, ambiguousResponseSchema, problemDetailsSchema]),
  })
  .describe("One lookup of an inline batch");

export const batchAnswerSchema = z.strictObject({
  total: z.number().int(),
  failed: z.number().int(),
  results: z.array(batchItemAnswerSchema).describe("In input order"),
  ignored_fields: z.array(z.string()).describe("The fields of the lookups Buckeye does not read (such as an export's name), at most 1,000: ignored, not refused, and listed here so a misspelt field is never silent"),
  request_id: z.string(),
});
export type BatchAnswer = z.infer<typeof batchAnswerSchema>;

export const batchJobSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(["queued", "running", "completed"]),
    format: z.enum(["csv", "ndjson", "finder"]).describe("As uploaded: csv (with a header row), ndjson, or finder (Ohio's Finder layout, uploaded with ?format=finder)"),
    kind: z.enum(["rates", "orders"]).describe("rates: rate lookups (POST /api/v1/batches); orders: sales whose tax is calculated (POST /api/v1/tax/batches)"),
    ledger: z
      .enum(["test", "live"])
      .nullable()
      .describe("An orders job uploaded with record=true: the ledger its sales are recorded into, the uploading key's environment; null: calculated only (and every rates job)"),
    ignored_columns: z
      .array(z.string())
      .describe(
        "The upload's columns (CSV: every column of its header that is not read, the other address side's of an export included) or fields (NDJSON: at most 1,000 names, in order of first sight) Buckeye does not read, such as an export's name or phone: ignored, not refused, and listed here so a misspelt column is never silent",
      ),
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    created_at: timestamp,
    started_at: timestamp.nullable(),
    completed_at: timestamp.nullable(),
    waiting_for: z
      .strictObject({
        reason: z.enum(["geocoder-retry"]).describe("geocoder-retry: a request to the Census geocoder for rows the state's boundary file could not place failed, and is tried again at retry_at"),
        detail: z.string().describe("What is waited for, in words: why the request failed, which retry comes next, and what becomes of the rows if it fails too"),
        retry_at: timestamp.describe("When the request is tried again; once past, the retry is in flight"),
      })
      .nullable()
      .describe(
        "What a running job waits for, so a job at done: 0 during an outage says why; null when it waits for nothing (always, once completed). Every instance shows the same: it is stored on the job by the runner that waits, and cleared when its work goes on",
      ),
    links: z.strictObject({ self: z.string(), results: z.string() }),
    request_id: z.string(),
  })
  .describe("An asynchronous batch job");
export type BatchJobAnswer = z.infer<typeof batchJobSchema>;

export const certificateRecordSchema = z
  .strictObject({
    id: z.string(),
    customer_id: z.string(),
    customer_name: z.string(),
    exempt_reason: z.string(),
    expires_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    created_at: timestamp,
  })
  .describe("An exemption certificate, registered for expiry reminders");
export type CertificateRecord = z.infer<typeof certificateRecordSchema>;

export const deliveryRecordSchema = z
  .strictObject({
    id: z.string(),
    event_id: z.string().describe("The X-Webhook-ID of every attempt"),
    event_type: z.string(),
    status: z.enum(["pending", "delivered", "failed", "cancelled"]),
    attempt_count: z.number().int(),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
    delivered_at: timestamp.nullable(),
    attempts: z.array(
      z.strictObject({
        number: z.number().int(),
        attempted_at: timestamp,
        status_code: z.number().int().nullable(),
        latency_ms: z.number().int(),
        outcome: z.enum(["delivered", "retry", "failed", "gone"]),
        error: z.string().nullable(),
      }),
    ),
  })
  .describe("One event's delivery to one webhook, with every attempt");
export type DeliveryRecord = z.infer<typeof deliveryRecordSchema>;

export const reconciliationSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(["succeeded", "failed"]),
    source: z.string(),
    file_name: z.string().nullable(),
    reconciled_on: z.string(),
    rows: z.number().int(),
    periods_recorded: z.number().int(),
    events_emitted: z.number().int(),
    discrepancies: z.array(discrepancySchema),
    error: z.string().nullable(),
    started_at: timestamp,
    finished_at: timestamp,
  })
  .describe("One run of reconciliation against the state's rate file");
export type ReconciliationRecord = z.infer<typeof reconciliationSchema>;
