/**
 * The ledger service: sales recorded under the merchant's order id, refunds and voids as their own
 * records pointing at the sale, the list, and replay (docs/guides/tax-and-returns.md, "The ledger").
 *
 * - Idempotent: a record's request is kept as a digest; the same reference and body answer the record
 *   already made, another body is a conflict. Two requests at once with one order id insert one row (the
 *   table's unique index decides, and the one that lost reads the winner's).
 * - Refunds and voids are written under the organization's lock, after reading what earlier ones left,
 *   so two at once can never take back more than the sale had.
 * - A refund's amounts are negative and dated on the refund's own date, in the county its sale was
 *   sourced to, so a return's figures for a period are plain sums of the rows dated in it.
 */
import { createHash } from "node:crypto";
import { HTTPError } from "h3";
import { dateInOhio } from "../rates/calendar.ts";
import { parseRate } from "../rates/millionths.ts";
import { newId } from "../ids.ts";
import type { Db } from "../store/database.ts";
import { lockOrganization } from "../store/organizations.repository.ts";
import type { TaxTransactionRow } from "../store/tax-transactions.table.ts";
import { problem } from "../web/problem.ts";
import { computeTax, type Jurisdiction, type JurisdictionRate, type RoundingBasis } from "../tax/compute-tax.ts";
import { formatCents, parseMoney } from "../tax/money.ts";
import { addFigures, everythingLeft, refundFigures, type LedgerFigures, type RecordedSale, type RefundRequest } from "../tax/refund.ts";
import type { RecordSaleRequest, RefundRequestBody, SaleRequest } from "./sale-request.ts";
import type { ReplayAnswer, TaxAnswer, TransactionRecord } from "./tax-answers.ts";
import { findByReference, findByReferences, findTransaction, insertTransaction, listReductions, listTransactions, type Ledger, type TransactionPosition } from "./tax-transactions.repository.ts";
import type { TaxService } from "./tax-service.ts";

export type { Ledger } from "./tax-transactions.repository.ts";

/** What a sale's row keeps as `calculation`: the sale as sent, and the answer it was recorded with. */
interface SaleCalculation {
  request: SaleRequest;
  answer: TaxAnswer;
}

/** What a refund's or void's row keeps as `calculation`. */
interface RefundCalculation {
  refund: { lines: Array<{ id: string; amount: string }>; delivery: string };
  request: unknown;
}

/** A JSON text with every object's keys sorted, so a body's digest does not depend on the order its fields were sent in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().filter((key) => (value as Record<string, unknown>)[key] !== undefined).map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const digest = (value: unknown) => createHash("sha256").update(stableJson(value)).digest("hex");

function figuresOf(row: TaxTransactionRow): LedgerFigures {
  return {
    gross: Number(row.gross_cents),
    exempt: Number(row.exempt_cents),
    taxable: Number(row.taxable_cents),
    tax: Number(row.tax_cents),
    state: Number(row.state_tax_cents),
    county: Number(row.county_tax_cents),
    transit: Number(row.transit_tax_cents),
  };
}

function amountsOf(f: LedgerFigures) {
  return {
    gross: formatCents(f.gross),
    exempt: formatCents(f.exempt),
    taxable: formatCents(f.taxable),
    tax: formatCents(f.tax),
    state_tax: formatCents(f.state),
    county_tax: formatCents(f.county),
    transit_tax: formatCents(f.transit),
  };
}

function toTransactionRecord(row: TaxTransactionRow): TransactionRecord {
  return {
    id: row.id,
    kind: row.kind,
    reference: row.reference,
    sale_id: row.sale_id,
    ledger: row.env === "live" ? "live" : "test",
    date: row.transaction_date,
    county_fips: row.county_fips,
    transit_district: row.transit_district,
    amounts: amountsOf(figuresOf(row)),
    calculation: JSON.parse(row.calculation) as Record<string, unknown>,
    created_at: row.created_at,
  };
}

function figuresOfComputation(c: { gross: number; exempt: number; taxable: number; tax: number; jurisdictions: ReadonlyArray<{ jurisdiction: Jurisdiction; tax: number }> }): LedgerFigures {
  const of = (j: Jurisdiction) => c.jurisdictions.find((x) => x.jurisdiction === j)?.tax ?? 0;
  return { gross: c.gross, exempt: c.exempt, taxable: c.taxable, tax: c.tax, state: of("state"), county: of("county"), transit: of("transit") };
}

/** The sale as its record keeps it: lines, delivery charges, the rates it cites and the basis it used. */
function recordedSale(answer: TaxAnswer): RecordedSale {
  return {
    lines: answer.lines.map((line) => ({ id: line.id, net: parseMoney(line.net)!, exemptReason: line.exempt_reason })),
    delivery: { amount: parseMoney(answer.delivery.amount)!, taxable: parseMoney(answer.delivery.taxable)! },
    rates: answer.jurisdictions.map((j): JurisdictionRate => ({ jurisdiction: j.jurisdiction, name: j.name, rate: parseRate(j.rate) })),
    basis: answer.rounding.basis,
  };
}

export interface LedgerServiceOptions {
  db: Db;
  tax: TaxService;
  now: () => Date;
}

export class LedgerService {
  readonly #options: LedgerServiceOptions;

  constructor(options: LedgerServiceOptions) {
    this.#options = options;
  }

  /** The record already made under this reference, when its body matches; a conflict when it does not. */
  #same(row: TaxTransactionRow, hash: string, what: string): TransactionRecord {
    if (row.request_hash !== hash) {
      throw problem("transaction-conflict", `${what} is already recorded in this ledger (${row.id}) with another body. Send the same body to get it, or another id for another record.`);
    }
    return toTransactionRecord(row);
  }

  /**
   * Records a sale under its order id. `known`: what a batch read for its whole chunk before its sales
   * (LedgerService.recordedBefore), so a sale costs its insert alone: the record already under this order id
   * (null: none was), and the organization's rounding basis. A record made since that read is still met,
   * by the insert's unique index, and answered as if it had been found.
   */
  async record(ledger: Ledger, body: RecordSaleRequest, requestId: string, known?: { existing: TaxTransactionRow | null; basis: RoundingBasis }): Promise<{ created: boolean; record: TransactionRecord }> {
    const { db, tax, now } = this.#options;
    const hash = digest(body);
    const what = `Order ${body.order_id}`;
    const existing = known ? known.existing : await findByReference(db, ledger, "sale", body.order_id);
    if (existing) return { created: false, record: this.#same(existing, hash, what) };
    const { order_id: _orderId, ...sale } = body;
    const calculation = await tax.calculate(ledger.organizationId, sale, requestId, known?.basis);
    if (!calculation.settled) throw problem("location-not-settled", calculation.answer.message, { invalidParams: [{ name: "ship_to", reason: "does not settle one county and transit district: send the street address" }] });
    const { answer, computation } = calculation;
    const figures = figuresOfComputation(computation);
    const row = {
      id: newId("txn"),
      organization_id: ledger.organizationId,
      env: ledger.env,
      kind: "sale" as const,
      reference: body.order_id,
      sale_id: null,
      transaction_date: answer.date,
      county_fips: answer.location.fips,
      transit_district: answer.location.transit_district?.status === "inside" ? answer.location.transit_district.authority : null,
      gross_cents: figures.gross,
      exempt_cents: figures.exempt,
      taxable_cents: figures.taxable,
      tax_cents: figures.tax,
      state_tax_cents: figures.state,
      county_tax_cents: figures.county,
      transit_tax_cents: figures.transit,
      request_hash: hash,
      calculation: JSON.stringify({ request: sale, answer } satisfies SaleCalculation),
      created_at: now().toISOString(),
    };
    if (await insertTransaction(db, row)) return { created: true, record: toTransactionRecord(row) };
    // Another request with this order id inserted first: answer with its record, or a conflict.
    const winner = await findByReference(db, ledger, "sale", body.order_id);
    return { created: false, record: this.#same(winner!, hash, what) };
  }

  /** The sales already recorded under any of `orderIds`, by order id: what `record` needs to know for a chunk of a batch, in one query. */
  recordedBefore(ledger: Ledger, orderIds: readonly string[]): Promise<Map<string, TaxTransactionRow>> {
    return findByReferences(this.#options.db, ledger, "sale", orderIds);
  }

  async get(ledger: Ledger, id: string): Promise<TransactionRecord> {
    const row = await findTransaction(this.#options.db, ledger, id);
    if (!row) throw problem("transaction-not-found", `No transaction ${id} in this ledger.`);
    return toTransactionRecord(row);
  }

  async list(ledger: Ledger, page: { from: string; to: string; limit: number; after: TransactionPosition | null }): Promise<{ transactions: TransactionRecord[]; next: TransactionPosition | null }> {
    const rows = await listTransactions(this.#options.db, ledger, { ...page, limit: page.limit + 1 });
    const shown = rows.slice(0, page.limit);
    const last = shown[shown.length - 1];
    return { transactions: shown.map(toTransactionRecord), next: rows.length > page.limit && last ? { date: last.transaction_date, id: last.id } : null };
  }

  /** A refund of part or all of a sale. */
  refund(ledger: Ledger, saleId: string, body: RefundRequestBody): Promise<{ created: boolean; record: TransactionRecord }> {
    const request: RefundRequest = {
      lines: (body.lines ?? []).map((line) => ({ id: line.id, amount: parseMoney(line.amount)! })),
      delivery: body.delivery === undefined ? 0 : parseMoney(body.delivery)!,
    };
    return this.#reduce(ledger, saleId, { kind: "refund", reference: body.refund_id, date: body.date, hash: digest({ sale_id: saleId, ...body }), body, request: () => request });
  }

  /** A void: all that is left of the sale, taken back on the void's date. One per sale. */
  void(ledger: Ledger, saleId: string, body: { date?: string | undefined }): Promise<{ created: boolean; record: TransactionRecord }> {
    return this.#reduce(ledger, saleId, { kind: "void", reference: null, date: body.date, hash: digest({ sale_id: saleId, ...body }), body, request: everythingLeft });
  }

  async #reduce(
    ledger: Ledger,
    saleId: string,
    reduction: { kind: "refund" | "void"; reference: string | null; date: string | undefined; hash: string; body: unknown; request: (left: { lines: ReadonlyMap<string, number>; delivery: number; figures: LedgerFigures }) => RefundRequest },
  ): Promise<{ created: boolean; record: TransactionRecord }> {
    const { db, now } = this.#options;
    return db.transaction().execute(async (trx) => {
      await lockOrganization(trx, ledger.organizationId);
      const sale = await findTransaction(trx, ledger, saleId);
      if (!sale || sale.kind !== "sale") throw problem("transaction-not-found", `No sale ${saleId} in this ledger.`);
      const reference = reduction.reference ?? sale.reference;
      const what = reduction.kind === "void" ? `The void of order ${sale.reference}` : `Refund ${reference}`;
      const existing = await findByReference(trx, ledger, reduction.kind, reference);
      if (existing) return { created: false, record: this.#same(existing, reduction.hash, what) };
      const date = reduction.date ?? dateInOhio(now());
      if (date < sale.transaction_date) {
        throw problem("invalid-refund", `The ${reduction.kind} is dated ${date}, before its sale (${sale.transaction_date}).`, { invalidParams: [{ name: "date", reason: `must be ${sale.transaction_date} or later` }] });
      }
      const { answer } = JSON.parse(sale.calculation) as SaleCalculation;
      const recorded = recordedSale(answer);
      const reductions = await listReductions(trx, ledger, sale.id);
      const lines = new Map(recorded.lines.map((line) => [line.id, line.net]));
      let delivery = recorded.delivery.amount;
      let figures = figuresOf(sale);
      for (const row of reductions) {
        const { refund } = JSON.parse(row.calculation) as RefundCalculation;
        for (const line of refund.lines) lines.set(line.id, lines.get(line.id)! - parseMoney(line.amount)!);
        delivery -= parseMoney(refund.delivery)!;
        figures = addFigures(figures, figuresOf(row));
      }
      const remainder = { lines, delivery, figures };
      const request = reduction.request(remainder);
      if (request.lines.length === 0 && request.delivery === 0 && reduction.kind === "void") {
        throw problem("refund-exceeds-sale", `Nothing is left of order ${sale.reference} to void: it has been refunded in full.`, { invalidParams: [{ name: "sale", reason: "has nothing left" }] });
      }
      const outcome = refundFigures(recorded, remainder, request);
      if (!outcome.ok) {
        const slug = outcome.reason.startsWith("is more than") ? "refund-exceeds-sale" : "invalid-refund";
        throw problem(slug, `The refund is not valid: ${outcome.field} ${outcome.reason}.`, { invalidParams: [{ name: outcome.field, reason: outcome.reason }] });
      }
      const taken = outcome.figures;
      const row = {
        id: newId("txn"),
        organization_id: ledger.organizationId,
        env: ledger.env,
        kind: reduction.kind,
        reference,
        sale_id: sale.id,
        transaction_date: date,
        county_fips: sale.county_fips,
        transit_district: sale.transit_district,
        gross_cents: -taken.gross,
        exempt_cents: -taken.exempt,
        taxable_cents: -taken.taxable,
        tax_cents: -taken.tax,
        state_tax_cents: -taken.state,
        county_tax_cents: -taken.county,
        transit_tax_cents: -taken.transit,
        request_hash: reduction.hash,
        calculation: JSON.stringify({
          refund: { lines: request.lines.map((line) => ({ id: line.id, amount: formatCents(line.amount) })), delivery: formatCents(request.delivery) },
          request: reduction.body,
        } satisfies RefundCalculation),
        created_at: now().toISOString(),
      };
      await insertTransaction(trx, row);
      return { created: true, record: toTransactionRecord(row) };
    });
  }

  /**
   * A recorded sale computed again: from what it cites (its rates, which the record keeps because a
   * later reconciliation may replace the periods they came from, and its basis), and from today's
   * data (the place resolved again, the rates of today's table, on the sale's own date). A refund or
   * void is replayed through its sale, whose rates its amounts were computed at.
   */
  async replay(ledger: Ledger, id: string, requestId: string): Promise<ReplayAnswer> {
    const { db, tax } = this.#options;
    let row = await findTransaction(db, ledger, id);
    if (row && row.kind !== "sale") row = await findTransaction(db, ledger, row.sale_id!);
    if (!row) throw problem("transaction-not-found", `No transaction ${id} in this ledger.`);
    const { request, answer } = JSON.parse(row.calculation) as SaleCalculation;
    const recorded = recordedSale(answer);
    const again = computeTax({
      lines: answer.lines.map((line) => ({ id: line.id, gross: parseMoney(line.gross)!, discount: parseMoney(line.discount)!, exemptReason: line.exempt_reason })),
      delivery: recorded.delivery.amount,
      rates: recorded.rates,
      basis: recorded.basis,
    });
    const stored = figuresOf(row);
    const asRecorded = figuresOfComputation(again);
    let today: ReplayAnswer["today"];
    let todayFigures: LedgerFigures | null = null;
    let todayPlace: { fips: string; transit: string | null; rates: string } | null = null;
    try {
      const calculation = await tax.calculate(ledger.organizationId, { ...request, date: answer.date }, requestId, recorded.basis as RoundingBasis);
      if (calculation.settled) {
        todayFigures = figuresOfComputation(calculation.computation);
        const a = calculation.answer;
        todayPlace = { fips: a.location.fips, transit: a.location.transit_district?.status === "inside" ? a.location.transit_district.authority : null, rates: a.jurisdictions.map((j) => j.rate).join(" + ") };
        today = { computed_from: { ...a.computed_from, location: a.location, sourcing: a.sourcing }, amounts: amountsOf(todayFigures), problem: null };
      } else {
        today = { computed_from: null, amounts: null, problem: calculation.answer.message };
      }
    } catch (error) {
      if (!(error instanceof HTTPError)) throw error;
      today = { computed_from: null, amounts: null, problem: error.message };
    }
    const differences: ReplayAnswer["differences"] = [];
    if (todayFigures !== null && todayPlace !== null) {
      const was = amountsOf(stored);
      const now = amountsOf(todayFigures);
      for (const key of Object.keys(was) as Array<keyof typeof was>) if (was[key] !== now[key]) differences.push({ field: `amounts.${key}`, recorded: was[key], today: now[key] });
      if (row.county_fips !== todayPlace.fips) differences.push({ field: "county_fips", recorded: row.county_fips, today: todayPlace.fips });
      if (row.transit_district !== todayPlace.transit) differences.push({ field: "transit_district", recorded: row.transit_district ?? "none", today: todayPlace.transit ?? "none" });
      const rates = answer.jurisdictions.map((j) => j.rate).join(" + ");
      if (rates !== todayPlace.rates) differences.push({ field: "rates", recorded: rates, today: todayPlace.rates });
    }
    return {
      transaction_id: row.id,
      as_recorded: {
        computed_from: { ...answer.computed_from, location: answer.location, sourcing: answer.sourcing, rates: answer.jurisdictions.map((j) => ({ jurisdiction: j.jurisdiction, name: j.name, rate: j.rate })), basis: answer.rounding.basis },
        amounts: amountsOf(asRecorded),
        matches_record: stableJson(asRecorded) === stableJson(stored),
      },
      today,
      differs: differences.length > 0 || todayFigures === null,
      differences,
    };
  }
}
