/**
 * An orders job's chunks in a batch-lane thread (workers/batch-lane.ts wires them up beside the lookup
 * tasks): each sale read by the rules POST /api/v1/tax and POST /api/v1/transactions read it with, its
 * places resolved on the thread's ladder (the one a lookup job climbs), its tax calculated by the tax
 * service and, when the job records, recorded by the ledger service, over the thread's own store
 * connection. So the answering thread neither parses, computes nor commits an order; it only asks the
 * Census batch endpoint for the addresses the boundary file left (I/O), between the two steps, as it
 * does for a lookup job (src/lookup/lookup-service.ts `resolveInSteps`).
 *
 * The sales' places are resolved for the whole group first, so a thousand addresses cost one
 * geocoder request, not a thousand; then the tax service, whose lookups answer from those results,
 * calculates each sale exactly as the endpoint does: the same code, the same answer.
 */
import { HTTPError } from "h3";
import { LedgerService } from "../ledger/ledger-service.ts";
import { findLocation, type Place } from "../ledger/locations.repository.ts";
import { recordSaleSchema, saleSchema, type RecordSaleRequest, type SaleRequest } from "../ledger/sale-request.ts";
import { TaxService } from "../ledger/tax-service.ts";
import { readTaxSettings } from "../ledger/tax-settings.repository.ts";
import type { LeasedChunks } from "../lookup/batch-tasks.ts";
import type { BatchStep, ChunkDone, ChunkLease, Geocoded } from "../lookup/chunk-work.ts";
import type { ItemResult } from "../lookup/item-result.ts";
import { batchOutcomes, complete, settle, type Entry, type LadderParts, type Settled } from "../lookup/ladder.ts";
import { combineFields, type LookupItem } from "../lookup/lookup-item.ts";
import type { IsoDate } from "../rates/calendar.ts";
import type { RatesOverlay } from "../rates/overlay-periods.ts";
import { recordContext, type RecordFreshness } from "../rates/records.ts";
import type { Store } from "../store/connect.ts";
import type { Db } from "../store/database.ts";
import { describeParams, parseBody } from "../web/parse-body.ts";
import type { ProblemData } from "../web/problem.ts";
import type { OrderChunkOwner } from "./batch-jobs.repository.ts";
import type { OrderResult, OrderRowResult } from "./order-results.ts";
import type { OrderRow } from "./read-orders-file.ts";

/** A claimed chunk of an orders job. */
export interface OrderChunkWork {
  firstRow: number;
  /** The job's "today" in Ohio: a sale without a date is dated on it, as a lookup job's rows are. */
  today: IsoDate;
  requestId: string;
  lease: ChunkLease;
  orders: OrderChunkOwner;
}

/** What both steps are given besides their chunks or state: what the answers cite. */
export interface OrderStepContext {
  overlay: RatesOverlay;
  /** ISO time, from the service's clock: when recorded sales are created and chunks completed. */
  now: string;
  freshness: RecordFreshness;
  /** The rate data version the answers cite (src/ledger/tax-service.ts `rateDataVersion`). */
  rateDataVersion: string;
}

/** A sale as read: by recordSaleSchema when its job records (order_id kept), else by saleSchema; or the problem its request would have met. */
type ParsedSale = { id: string | null; sale: SaleRequest | RecordSaleRequest } | { id: string | null; problem: Extract<OrderResult, { kind: "problem" }> };

interface ParsedChunk {
  work: OrderChunkWork;
  rows: ParsedSale[];
}

/** Carried between the two steps as JSON text (the second may run on another thread). */
interface CarriedOrders {
  chunks: ParsedChunk[];
  keys: string[];
  entries: Entry[];
  settled: Settled;
}

/**
 * A time in the job's "today" in Ohio whatever the season (17:00 UTC is noon or 1 p.m. there): the tax
 * service dates a sale without a date on its clock's day, and a job's sales are dated on the day it was
 * accepted, as a lookup job's rows are, however late it runs.
 */
const dayOf = (today: IsoDate) => new Date(`${today}T17:00:00Z`);

/** The key a place's lookup is resolved under: the lookup exactly as the tax service asks for it (tax-service.ts `#resolve`). */
const lookupKey = (item: LookupItem) => JSON.stringify(item);

function problemOf(error: unknown): Extract<OrderResult, { kind: "problem" }> {
  if (!(error instanceof HTTPError)) throw error;
  const data = error.data as ProblemData | undefined;
  if (data?.slug === undefined) throw error;
  return { kind: "problem", slug: data.slug, detail: error.message, ...(data.invalidParams && { invalidParams: data.invalidParams }) };
}

/** A row as the endpoint would read its body: a sale (with order_id when recorded), or that request's problem. */
function readSale(row: OrderRow, records: boolean): ParsedSale {
  if (row.problem) return { id: row.id, problem: { kind: "problem", ...row.problem } };
  const raw = row.sale;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { id: row.id, problem: { kind: "problem", slug: "invalid-sale", detail: "The row must be a JSON object: a sale.", invalidParams: [{ name: "body", reason: "must be a JSON object" }] } };
  }
  // Calculated only, order_id just names the row: the sale is the body POST /api/v1/tax takes.
  const { order_id: _orderId, ...sale } = raw as Record<string, unknown>;
  try {
    const parsed = records ? parseBody(recordSaleSchema, raw, "invalid-sale", describeParams("sale")) : parseBody(saleSchema, sale, "invalid-sale", describeParams("sale"));
    return { id: row.id, sale: parsed };
  } catch (error) {
    return { id: row.id, problem: problemOf(error) };
  }
}

/** `openedStore`: the thread's store connection; `ladder`: the thread's ladder (src/lookup/batch-tasks.ts `threadLadder`). */
export function createOrderTasks(openedStore: () => Store | null, ladder: (overlay: RatesOverlay) => LadderParts, leasedChunks: LeasedChunks) {
  /** Every place the group's sales name, each lookup once, as the tax service will ask for it. */
  async function placesOf(db: Db, chunks: readonly ParsedChunk[], freshness: RecordFreshness): Promise<{ keys: string[]; entries: Entry[] }> {
    const keys: string[] = [];
    const entries: Entry[] = [];
    const seen = new Set<string>();
    for (const { work, rows } of chunks) {
      const context = recordContext(freshness, work.requestId);
      const locations = new Map<string, Place | null>();
      const locationPlace = async (id: string | undefined) => {
        if (id === undefined) return null;
        if (!locations.has(id)) locations.set(id, (await findLocation(db, work.orders.organizationId, id))?.place ?? null);
        return locations.get(id)!;
      };
      for (const row of rows) {
        if (!("sale" in row)) continue;
        const { sale } = row;
        const date = sale.date ?? work.today;
        const places = [sale.ship_to, await locationPlace(sale.pickup_location_id), await locationPlace(sale.order_location_id)];
        for (const place of places) {
          if (!place) continue;
          const item = combineFields({ ...place }, date);
          // A place that is no lookup at all: the tax service refuses it itself, naming the field.
          if ("kind" in item) continue;
          const lookup = { ...item, date };
          const key = lookupKey(lookup);
          if (seen.has(key)) continue;
          seen.add(key);
          keys.push(key);
          entries.push({ item: lookup, context });
        }
      }
    }
    return { keys, entries };
  }

  /** Each sale calculated (and recorded, when its job records) with its places' results; each chunk's results stored under its lease. */
  async function finish(chunks: readonly ParsedChunk[], keys: readonly string[], results: readonly ItemResult[], parts: LadderParts, context: OrderStepContext): Promise<ChunkDone[]> {
    const store = openedStore()!;
    const resolved = new Map(keys.map((key, i) => [key, results[i]!]));
    const done: ChunkDone[] = [];
    for (const { work, rows } of chunks) {
      const workOn = async (db: Db) => {
        const tax = new TaxService({
          db,
          lookups: {
            answerOne: async (item: LookupItem) => {
              const result = resolved.get(lookupKey(item));
              if (result === undefined) throw new Error(`the place ${lookupKey(item)} was not resolved with its group`);
              return result;
            },
          },
          table: () => parts.data.table,
          freshness: () => context.freshness,
          rateDataVersion: () => context.rateDataVersion,
          now: () => dayOf(work.today),
        });
        const ledger = new LedgerService({ db, tax, now: () => new Date(context.now) });
        // What every sale of the chunk would read on its own, read once for the chunk: the rounding basis (as it
        // is when the chunk starts) and, when the job records, the sales already recorded under its order ids.
        // On PostgreSQL each read is a round trip, and three per recorded sale were most of a batch's time.
        const basis = (await readTaxSettings(db, work.orders.organizationId)).roundingBasis;
        const into = work.orders.ledger === null ? null : { organizationId: work.orders.organizationId, env: work.orders.ledger };
        const recording = into && { into, existing: await ledger.recordedBefore(into, rows.flatMap((row) => ("sale" in row ? [(row.sale as RecordSaleRequest).order_id] : []))) };
        const out: OrderRowResult[] = [];
        for (const [i, row] of rows.entries()) {
          let result: OrderResult;
          if (!("sale" in row)) result = row.problem;
          else {
            try {
              if (recording === null) {
                result = { kind: "tax", body: (await tax.calculate(work.orders.organizationId, row.sale, work.requestId, basis)).answer };
              } else {
                // A recording job's sales were read by recordSaleSchema (readSale): each has its order_id.
                const sale = row.sale as RecordSaleRequest;
                const recorded = await ledger.record(recording.into, sale, work.requestId, { existing: recording.existing.get(sale.order_id) ?? null, basis });
                result = { kind: "transaction", created: recorded.created, body: recorded.record };
              }
            } catch (error) {
              result = problemOf(error);
            }
          }
          out.push({ row: work.firstRow + i, id: row.id, result });
        }
        return out;
      };
      // On PostgreSQL a chunk's sales are recorded in one transaction: each commit waits for the
      // write-ahead log to reach the disk (src/batch/batch-jobs.repository.ts `claimGroup`), and an
      // order_id taken meanwhile by another request is met by its unique index, never an error. On
      // SQLite each record is its own short commit, so the one write lock is never held for a chunk.
      const out = store.dialect === "postgres" && work.orders.ledger !== null ? await store.db.transaction().execute(workOn) : await workOn(store.db);
      const counts = { done: out.length, failed: out.filter((row) => row.result.kind === "problem").length };
      const [stored] = await leasedChunks.write(store, work.lease.owner, [{ jobId: work.lease.jobId, seq: work.lease.seq, rows: out, counts }], new Date(context.now));
      done.push({ stored: stored!, ...counts });
    }
    return done;
  }

  return {
    /** The group's sales read and their places resolved on every rung but the geocoder; done at once when nothing is left for it. */
    async resolveOrders(input: OrderStepContext & { chunks: OrderChunkWork[] }): Promise<BatchStep> {
      const store = openedStore()!;
      const texts = new Map<string, string>();
      for (const owner of new Set(input.chunks.map((chunk) => chunk.lease.owner))) {
        const leases = input.chunks.filter((chunk) => chunk.lease.owner === owner).map((chunk) => chunk.lease);
        for (const [key, text] of await leasedChunks.read(store, leases, owner)) texts.set(`${owner}:${key}`, text);
      }
      // A chunk whose lease was lost has no rows; its empty results are refused when stored.
      const chunks: ParsedChunk[] = input.chunks.map((work) => {
        const rows = JSON.parse(texts.get(`${work.lease.owner}:${work.lease.jobId}:${work.lease.seq}`) ?? "[]") as OrderRow[];
        return { work, rows: rows.map((row) => readSale(row, work.orders.ledger !== null)) };
      });
      const parts = ladder(input.overlay);
      const { keys, entries } = await placesOf(store.db, chunks, input.freshness);
      const settled = await settle(parts, entries);
      if (settled.pending.length === 0) return { kind: "done", chunks: await finish(chunks, keys, settled.results.map((r) => r!), parts, input) };
      const carried: CarriedOrders = { chunks, keys, entries, settled };
      return { kind: "geocode", rows: settled.pending.map((p) => p.row), state: JSON.stringify(carried) };
    },

    /** The geocoder's answers for a `geocode` step's addresses folded in, then every sale calculated. */
    async completeOrders(input: OrderStepContext & { state: string; geocoded: Geocoded }): Promise<Extract<BatchStep, { kind: "done" }>> {
      const { chunks, keys, entries, settled } = JSON.parse(input.state) as CarriedOrders;
      const parts = ladder(input.overlay);
      const outcomes = batchOutcomes(parts.data, settled.pending, new Map(input.geocoded.answers), input.geocoded.down);
      const results = await complete(parts, entries, settled, outcomes);
      return { kind: "done", chunks: await finish(chunks, keys, results, parts, input) };
    },
  };
}

export type OrderTasks = ReturnType<typeof createOrderTasks>;
