/**
 * Asynchronous batch jobs for files up to 100,000 rows (CSV with a header row, NDJSON, or with
 * ?format=finder a headerless CSV in Ohio's Finder layout, docs/guides/address-resolution.md):
 *
 *   POST /api/v1/batches               → 202, Location: /api/v1/batches/{id}
 *   GET  /api/v1/batches/{id}          → status, total, done, failed, ignored columns, what it waits for, timestamps
 *   GET  /api/v1/batches/{id}/results  → CSV or NDJSON by Accept (or ?format=), in input order, once completed;
 *                                        a Finder job's results and errors files by ?format=finder|finder-errors
 *                                        (cut, if the job is deleted meanwhile, as a failed transfer, never a clean end)
 *   DELETE /api/v1/batches/{id}        → 204 once the job is marked: it is gone for every reader (a running job is
 *                                        cancelled); its rows and results are purged in the background
 *
 * Only the organization that submitted a job sees it; to anyone else it does not exist. A batch of
 * orders (POST /api/v1/tax/batches, below) is a job of kind "orders" at the same addresses.
 */
import { getRouterParam, noContent, type H3Event } from "h3";
import { z } from "zod";
import type { FinderFile } from "../../batch/finder-results.ts";
import { readWaitingFor } from "../../batch/job-waiting-for.ts";
import type { JobRefusal } from "../../batch/job-admission.ts";
import type { Reservation } from "../../batch/upload-reservations.ts";
import { MAX_JOB_ROWS, type Submission } from "../../batch/job-service.ts";
import { dateInOhio } from "../../rates/calendar.ts";
import type { BatchJob } from "../../batch/batch-jobs.repository.ts";
import type { BatchFileFormat } from "../../store/batch-jobs.table.ts";
import type { ApiContext } from "../context.ts";
import { problem } from "../../web/problem.ts";
import { RowCounter, UploadRefusal } from "../../batch/row-counter.ts";
import { mediaType, readCapped } from "../../web/read-body.ts";
import { readQuery } from "../query.ts";
import type { ResultFormat } from "../../batch/result-lines.ts";
import type { BatchJobAnswer } from "../answer-schemas.ts";
import { parseColumnMapping, type ColumnChoice } from "../../lookup/export-headers.ts";

/** 100,000 rows of full addresses stay well under this. */
const MAX_JOB_BYTES = 64 * 1024 * 1024;
const NDJSON_TYPES = ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"];
type ResultFile = ResultFormat | FinderFile;
const CONTENT_TYPES: Record<ResultFile, string> = {
  csv: "text/csv; charset=utf-8",
  ndjson: "application/x-ndjson",
  finder: "text/csv; charset=utf-8; header=absent",
  "finder-errors": "text/csv; charset=utf-8; header=absent",
};
const FILE_NAMES: Record<ResultFile, string> = { csv: "results.csv", ndjson: "results.ndjson", finder: "finder-results.csv", "finder-errors": "finder-errors.csv" };

/**
 * The Finder layout is asked for by a query parameter, not a media type: a Finder file is plain CSV,
 * which every tool uploads as text/csv, and a parameter such as `profile=finder` on it is dropped by
 * many clients and proxies without a word, which would read the file's first row as a header.
 */
export const UPLOAD_QUERY = {
  format: z.enum(["finder"], { error: "must be finder (Ohio's Finder layout), or absent" }).optional(),
  columns: z.string().max(2000, "must be at most 2000 characters").optional(),
  address_side: z.enum(["shipping", "billing"], { error: "must be shipping or billing" }).optional(),
};

/**
 * A CSV's column mapping and address side, read before the body is: `columns=street=Addr 1,zip=Zip`
 * says which header each of Buckeye's names is read from (src/lookup/export-headers.ts), and
 * `address_side` which of an export's two addresses is read (shipping by default).
 */
function columnChoice(event: H3Event): ColumnChoice {
  const { columns, address_side: side } = readQuery(event, UPLOAD_QUERY);
  const choice: ColumnChoice = side === undefined ? {} : { side };
  if (columns === undefined) return choice;
  const mapping = parseColumnMapping(columns);
  if (!mapping.ok) throw problem("bad-request", `Invalid columns: ${mapping.reason}.`, { invalidParams: [{ name: "columns", reason: mapping.reason }] });
  return { ...choice, columns: mapping.columns };
}
export const RESULTS_QUERY = { format: z.enum(["csv", "ndjson", "finder", "finder-errors"], { error: "must be csv, ndjson, finder or finder-errors" }).optional() };

function uploadFormat(event: H3Event): BatchFileFormat {
  const { format } = readQuery(event, UPLOAD_QUERY);
  const type = mediaType(event);
  if (format === "finder") {
    if (type === "text/csv") return "finder";
    throw problem("unsupported-media-type", "Send a Finder file as Content-Type: text/csv.");
  }
  if (type === "text/csv") return "csv";
  if (NDJSON_TYPES.includes(type)) return "ndjson";
  throw problem("unsupported-media-type", "Send the file as Content-Type: text/csv (with a header row), text/csv with ?format=finder (Ohio's Finder layout), or application/x-ndjson (one JSON lookup per line).");
}

/**
 * ?format= decides; without it, Accept; with no preference (none, or any type) the results come back
 * in the format that was uploaded (a Finder job: its results file). The Finder files exist only for a
 * job uploaded in that layout: another job's rows have no Finder fields to give back.
 */
function resultFormat(event: H3Event, job: BatchJob): ResultFile {
  const { format } = readQuery(event, RESULTS_QUERY);
  if ((format === "finder" || format === "finder-errors") && job.format !== "finder") {
    throw problem("bad-request", `Batch ${job.id} was uploaded as ${job.format}; the Finder results and errors files are made for jobs uploaded with ?format=finder.`, {
      invalidParams: [{ name: "format", reason: "only for a job uploaded in the Finder layout" }],
    });
  }
  if (format !== undefined) return format;
  const accept = (event.req.headers.get("accept") ?? "").toLowerCase();
  if (accept.includes("text/csv")) return job.format === "finder" ? "finder" : "csv";
  if (/application\/(x-ndjson|ndjson|jsonl|x-jsonlines)/.test(accept)) return "ndjson";
  if (accept === "" || accept.includes("*/*")) return job.format;
  throw problem("not-acceptable", "Results are available as text/csv or application/x-ndjson.");
}

/** The job as GET /api/v1/batches/{id} shows it. */
export function toJobView(job: BatchJob) {
  const path = `/api/v1/batches/${job.id}`;
  return {
    id: job.id,
    status: job.status,
    format: job.format,
    kind: job.kind,
    ledger: job.ledger,
    ignored_columns: job.ignored_columns === null ? [] : (JSON.parse(job.ignored_columns) as string[]),
    total: job.total,
    done: job.done,
    failed: job.failed,
    created_at: job.created_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
    waiting_for: job.status === "completed" ? null : readWaitingFor(job.waiting_for),
    links: { self: path, results: `${path}/results` },
    request_id: job.request_id,
  };
}

async function ownJob(ctx: ApiContext, event: H3Event): Promise<BatchJob> {
  const id = getRouterParam(event, "id") ?? "";
  const job = await ctx.lookups.jobs.findJob(event.context.principal!.organizationId, id);
  if (!job) throw problem("batch-not-found", `No batch job ${id} belongs to this organization.`);
  return job;
}

/**
 * Reads the upload while counting its rows: at row 100,001 (after a CSV's header) reading stops and
 * the 413 goes out at once, so a file of millions of short rows costs a few hundred kilobytes, not
 * its whole size parsed in memory. A line over UPLOAD_MAX_LINE_BYTES (413) or an NDJSON line nested
 * deeper than a lookup (400) stops it the same way, before anything is stored or handed to a thread.
 */
async function readUpload(ctx: ApiContext, event: H3Event, format: BatchFileFormat, maxRows: number, place: Reservation): Promise<Buffer> {
  const counter = new RowCounter(format === "ndjson" ? "ndjson" : "csv", { maxLineBytes: ctx.config.batch.maxLineBytes });
  const maxRecords = maxRows + (format === "csv" ? 1 : 0);
  const bytes = await readCapped(
    event,
    MAX_JOB_BYTES,
    (declared) => problem("batch-too-large", `The file is ${declared === null ? "over the limit of" : `${declared} bytes; the limit is`} ${MAX_JOB_BYTES} bytes.`),
    (chunk) => {
      let rows: number;
      try {
        rows = counter.push(chunk);
      } catch (error) {
        if (!(error instanceof UploadRefusal)) throw error;
        throw error.code === "line-too-long"
          ? problem("batch-line-too-long", `${error.message}; one lookup takes a few hundred. Nothing was stored.`)
          : problem("bad-request", `${error.message}; each line must be one flat lookup object. Nothing was stored.`);
      }
      if (rows > maxRecords) {
        throw problem("batch-too-large", `The batch has at least ${maxRows + 1} rows; a job takes at most ${maxRows}. Split the file.`);
      }
      // The process's room is taken by what arrives, not by what was declared (upload-reservations.ts).
      const noRoom = place.arrive(chunk.byteLength);
      if (noRoom) throw refused(noRoom);
    },
  );
  return bytes;
}

function refused(refusal: JobRefusal) {
  return problem(refusal.slug, refusal.detail, refusal.retryAfterSeconds === undefined ? {} : { headers: { "retry-after": String(refusal.retryAfterSeconds) } });
}

/**
 * What an upload is counted as before its body is read: its declared length, or the most an upload
 * may be when it declares none (chunked). A declared length over the limit is counted as the limit:
 * reading refuses it with 413 before a byte is read anyway.
 */
function reservedBytes(event: H3Event): number {
  const declared = Number(event.req.headers.get("content-length") ?? Number.NaN);
  return Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, MAX_JOB_BYTES) : MAX_JOB_BYTES;
}

/**
 * Admits, reads and submits an upload as a job: the same steps for a file of lookups and one of
 * orders, which differ only in how the batch lane reads them (`orders`) and, for lookups, the
 * client's column choice.
 */
async function acceptUpload(ctx: ApiContext, event: H3Event, format: BatchFileFormat, extra: Pick<Submission, "choice" | "orders">): Promise<BatchJobAnswer> {
  const principal = event.context.principal!;
  // Batch jobs are the allowance an organization in trial does not get (docs/guides/dashboard.md, "Trial organizations").
  if (principal.trial) {
    throw problem("organization-in-trial", "This organization is in trial: batch jobs start once an operator verifies it. Single and inline lookups (POST /api/v1/rates/batch) work meanwhile.");
  }
  // Refused before the upload is read: a full queue or store, or too many bytes already being uploaded,
  // costs the caller nothing to learn. Its places are held until the job is stored or refused.
  // The organization's own caps on jobs and rows, where an operator set them, travel with its key's verdict.
  const admitted = await ctx.lookups.jobs.admitJob(principal.organizationId, reservedBytes(event), principal.limits);
  if ("ok" in admitted) throw refused(admitted);
  try {
    const bytes = await readUpload(ctx, event, format, principal.limits.rowsPerJob ?? MAX_JOB_ROWS, admitted);
    const requestId = event.context.requestId ?? "";
    const outcome = await ctx.lookups.jobs.submitJob({
      jobId: admitted.jobId,
      bytes,
      format,
      organizationId: principal.organizationId,
      apiKeyId: principal.keyId,
      requestId,
      today: dateInOhio(ctx.now()),
      limits: principal.limits,
      ...extra,
    });
    if (!outcome.ok) throw refused(outcome);
    const view: BatchJobAnswer = toJobView(outcome.job);
    event.res.status = 202;
    event.res.headers.set("location", view.links.self);
    return view;
  } finally {
    admitted.release();
  }
}

export function postBatch(ctx: ApiContext) {
  return async (event: H3Event) => {
    const format = uploadFormat(event);
    const choice = columnChoice(event);
    return acceptUpload(ctx, event, format, { choice });
  };
}

export const ORDERS_UPLOAD_QUERY = {
  record: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
};

/**
 * POST /api/v1/tax/batches: a file of orders (src/batch/read-orders-file.ts), each sale calculated as
 * POST /api/v1/tax calculates it, and with record=true recorded as POST /api/v1/transactions records
 * it, into the ledger of the key's environment. A job like any other from then on: polled, downloaded
 * and deleted at /api/v1/batches/{id}.
 */
export function postOrderBatch(ctx: ApiContext) {
  return async (event: H3Event) => {
    const { record } = readQuery(event, ORDERS_UPLOAD_QUERY);
    const type = mediaType(event);
    const format: BatchFileFormat | null = type === "text/csv" ? "csv" : NDJSON_TYPES.includes(type) ? "ndjson" : null;
    if (format === null) throw problem("unsupported-media-type", "Send the orders as Content-Type: text/csv (one row per line item, with an order_id column) or application/x-ndjson (one sale per line).");
    const ledger = record === "true" ? event.context.principal!.env : null;
    return acceptUpload(ctx, event, format, { orders: { ledger } });
  };
}

export function getBatch(ctx: ApiContext) {
  return async (event: H3Event): Promise<BatchJobAnswer> => ({ ...toJobView(await ownJob(ctx, event)), request_id: event.context.requestId ?? "" });
}

export function deleteBatch(ctx: ApiContext) {
  return async (event: H3Event) => {
    const id = getRouterParam(event, "id") ?? "";
    if (!(await ctx.lookups.jobs.deleteJob(event.context.principal!.organizationId, id))) {
      throw problem("batch-not-found", `No batch job ${id} belongs to this organization.`);
    }
    return noContent();
  };
}

export function getBatchResults(ctx: ApiContext) {
  return async (event: H3Event) => {
    const job = await ownJob(ctx, event);
    if (job.status !== "completed") {
      throw problem("batch-not-finished", `Batch ${job.id} is ${job.status}: ${job.done} of ${job.total} rows done. Poll /api/v1/batches/${job.id} until status is completed.`, {
        headers: { "retry-after": "2" },
      });
    }
    const format = resultFormat(event, job);
    const slot = ctx.lookups.jobs.openDownload(event.context.principal!.organizationId);
    if ("ok" in slot) throw refused(slot);
    const pages = ctx.lookups.jobs.resultText(job, format, ctx.config.errorsUrl);
    const encoder = new TextEncoder();
    // One slice per pull: the stream asks for the next only when the client has taken this one. The slot is
    // given back however the download ends: read to the end, cut by the job's deletion, or left by its client.
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const next = await pages.next();
            if (next.done) {
              slot.release();
              controller.close();
            } else controller.enqueue(encoder.encode(next.value));
          } catch (error) {
            slot.release();
            throw error;
          }
        },
        async cancel() {
          slot.release();
          await pages.return(undefined);
        },
      },
      // Nothing rendered ahead of the client: a slice is made when the one before has gone to the socket.
      { highWaterMark: 0 },
    );
    const headers = new Headers(event.res.headers);
    headers.set("content-type", CONTENT_TYPES[format]);
    headers.set("content-disposition", `attachment; filename="${job.id}-${FILE_NAMES[format]}"`);
    return new Response(body, { status: 200, headers });
  };
}
