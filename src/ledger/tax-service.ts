/**
 * The tax service: the tax on one sale (POST /api/v1/tax), and the calculation the ledger records. It
 * resolves the places the sale names through the lookup service, as a rate lookup would (so the same
 * ladder, boundary file and geocoder decide), picks the place R.C. 5739.033 sources the sale to
 * (tax/sourcing.ts), finds the customer's exemption certificate valid on the sale's date, evaluates the
 * rates of that place and date, and has tax/ compute the amounts. Refusals are problems (the problem
 * table, src/web/problem.ts) naming the field at fault.
 */
import { dateInOhio, type IsoDate } from "../rates/calendar.ts";
import { evaluateCounty, type TransitStatus } from "../rates/evaluate.ts";
import { formatRate } from "../rates/millionths.ts";
import type { RateTable } from "../rates/rate-table.ts";
import type { RatesOverlay } from "../rates/overlay-periods.ts";
import { recordContext, type AmbiguousResponse, type RateRecord, type RecordFreshness } from "../rates/records.ts";
import type { LookupService } from "../lookup/lookup-service.ts";
import { combineFields } from "../lookup/lookup-item.ts";
import { itemProblem } from "../lookup/item-answers.ts";
import type { ItemFailure } from "../lookup/item-result.ts";
import type { Db } from "../store/database.ts";
import { problem } from "../web/problem.ts";
import { PRODUCT_CATEGORIES } from "../tax/categories.ts";
import { computeTax, type JurisdictionRate, type JurisdictionTax, type RoundingBasis, type SaleLine, type TaxComputation } from "../tax/compute-tax.ts";
import { formatCents, parseMoney } from "../tax/money.ts";
import { formatExact } from "../tax/rounding.ts";
import { chooseSourcing, type SourcingChoice } from "../tax/sourcing.ts";
import { findLocation, type Place } from "./locations.repository.ts";
import type { SaleRequest } from "./sale-request.ts";
import type { TaxAnswer, UnsettledAnswer } from "./tax-answers.ts";
import { readManyTaxSettings, type TaxSettings } from "./tax-settings.repository.ts";
import { batchPerTurn } from "../per-turn.ts";

const ROUNDING_RULE =
  "R.C. 5739.025(E) and the Streamlined Sales and Use Tax Agreement, section 324: the tax on the price at the aggregate rate, carried to the third decimal place and rounded to a whole cent, up when the third decimal is greater than four; " +
  "each jurisdiction's tax computed separately, as the state's rate-table instructions ask, rounded by the same rule and brought to add up to the tax collected (docs/guides/tax-and-returns.md, \"Rounding\")";

/** The rate data a calculation cites: the shipped rate file, and the reconciliation laid over it when there is one (its id and how many periods it holds). */
export function rateDataVersion(rateFile: string, overlay: RatesOverlay): string {
  return overlay.periods.length === 0 ? rateFile : `${rateFile}+${overlay.key}`;
}

export interface TaxServiceOptions {
  db: Db;
  lookups: Pick<LookupService, "answerOne">;
  /** The live rate table, read at each use (a reconciliation swaps it). */
  table: () => RateTable;
  freshness: () => RecordFreshness | Promise<RecordFreshness>;
  /** The shipped rate file and the reconciliation laid over it, e.g. "OHR2026Q1NOV28" or "OHR2026Q1NOV28+rec_…:3". */
  rateDataVersion: () => string;
  now: () => Date;
}

export interface SettledCalculation {
  settled: true;
  answer: TaxAnswer;
  computation: TaxComputation;
}

export type Calculation = SettledCalculation | { settled: false; answer: UnsettledAnswer };

function invalidSale(name: string, reason: string) {
  return problem("invalid-sale", `The sale is not valid: ${name} ${reason}.`, { invalidParams: [{ name, reason }] });
}

/** A place's lookup failure as the problem a rate lookup gives, its field named where the sale holds it. */
function placeProblem(failure: ItemFailure, field: string) {
  return itemProblem({ ...failure, param: failure.param === null ? field : `${field}.${failure.param}` });
}

function jurisdictionRecord(j: JurisdictionTax) {
  return { jurisdiction: j.jurisdiction, name: j.name, rate: formatRate(j.rate), taxable: formatCents(j.taxable), unrounded: formatExact(j.exact), tax: formatCents(j.tax) };
}

export class TaxService {
  readonly #options: TaxServiceOptions;
  /**
   * The organization's settings, read once for all the sales of one event-loop turn (src/per-turn.ts):
   * a setting committed before a request was sent is still seen by it, and a turn of fifty sales costs
   * one query instead of fifty.
   */
  readonly #settings: (organizationId: string) => Promise<TaxSettings>;

  constructor(options: TaxServiceOptions) {
    this.#options = options;
    this.#settings = batchPerTurn((organizationIds: string[]) => readManyTaxSettings(options.db, organizationIds));
  }

  /** Resolves a place on `date` as a rate lookup would; a failure is thrown as its problem, naming `field`. */
  async #resolve(place: Place, date: IsoDate, field: string, requestId: string): Promise<{ kind: "rate"; body: RateRecord } | { kind: "ambiguous"; body: AmbiguousResponse }> {
    const item = combineFields({ ...place }, date);
    if ("kind" in item) throw placeProblem(item, field);
    const result = await this.#options.lookups.answerOne({ ...item, date }, recordContext(await this.#options.freshness(), requestId));
    if (result.kind === "failure") throw placeProblem(result, field);
    return result;
  }

  /**
   * A place of the organization's, checked before it is kept: it must settle one county and transit
   * district today, as a sale sourced to it will need. A failure or an unsettled place is refused, naming `field`.
   */
  async checkPlace(place: Place, field: string, requestId: string): Promise<void> {
    const table = this.#options.table();
    const date = dateInOhio(this.#options.now());
    const placed = await this.#resolve(place, date, field, requestId);
    const unsettled = (reason: string) => problem("invalid-location", `The location is not valid: ${field} ${reason}.`, { invalidParams: [{ name: field, reason }] });
    if (placed.kind === "ambiguous") throw unsettled(`spans ${placed.body.candidate_counties.length} counties: send the street address`);
    if (placed.body.transit_district?.status === "unknown" && evaluateCounty(table, table.byFips.get(placed.body.fips)!, date).district !== null) {
      throw unsettled("lies in a county a transit district splits: send the street address");
    }
  }

  async #location(organizationId: string, id: string | undefined, field: string): Promise<{ id: string; place: Place } | null> {
    if (id === undefined) return null;
    const location = await findLocation(this.#options.db, organizationId, id);
    if (!location) throw invalidSale(field, "is not one of this organization's locations (GET /api/v1/locations)");
    return location;
  }

  async #certificate(organizationId: string, customerId: string | undefined, date: IsoDate) {
    if (customerId === undefined) return null;
    // Valid on the sale's date: its expiry date is the last day it covers.
    const row = await this.#options.db
      .selectFrom("certificates")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .where("customer_id", "=", customerId)
      .where("expires_on", ">=", date)
      .orderBy("expires_on", "desc")
      .orderBy("id")
      .executeTakeFirst();
    return row ?? null;
  }

  /**
   * The tax on `sale` for the organization. `basis`: the rounding basis to use instead of the
   * organization's setting (a replay computes on the basis its record used).
   */
  async calculate(organizationId: string, sale: SaleRequest, requestId: string, basis?: RoundingBasis): Promise<Calculation> {
    const table = this.#options.table();
    const date = sale.date ?? dateInOhio(this.#options.now());
    if (date < table.historyStart) {
      throw problem("date-out-of-range", `Rates are held from ${table.historyStart} on; the sale's date ${date} is earlier.`, { invalidParams: [{ name: "date", reason: `must be ${table.historyStart} or later` }] });
    }
    const pickup = await this.#location(organizationId, sale.pickup_location_id, "pickup_location_id");
    const order = await this.#location(organizationId, sale.order_location_id, "order_location_id");
    const sourcing = chooseSourcing({ pickup: pickup !== null, orderLocation: order !== null, shipTo: sale.ship_to !== undefined });
    if ("missing" in sourcing) throw invalidSale("ship_to", "is needed: send where the buyer receives the goods, or pickup_location_id");

    let placed;
    let locationId: string | null = null;
    if (sourcing.rule === "pickup") {
      placed = await this.#resolve(pickup!.place, date, "pickup_location_id", requestId);
      locationId = pickup!.id;
    } else if (sourcing.rule === "origin") {
      // The buyer must receive the goods in Ohio for (B)(1): ship_to resolving in Ohio (any county of a split ZIP will do) says so.
      await this.#resolve(sale.ship_to!, date, "ship_to", requestId);
      placed = await this.#resolve(order!.place, date, "order_location_id", requestId);
      locationId = order!.id;
    } else {
      placed = await this.#resolve(sale.ship_to!, date, "ship_to", requestId);
    }
    if (placed.kind === "ambiguous") {
      return {
        settled: false,
        answer: {
          settled: false,
          date,
          message: `${placed.body.message} No tax is computed until the place is settled.`,
          candidates: placed.body.candidate_counties.map((c) => ({ county: c.county, fips: c.fips, transit_district: null, combined_rate: formatRate(evaluateCounty(table, table.byFips.get(c.fips)!, date).combined) })),
          request_id: requestId,
        },
      };
    }
    const record = placed.body;
    const county = table.byFips.get(record.fips)!;
    const status: TransitStatus = record.transit_district?.status ?? "unknown";
    const evaluation = evaluateCounty(table, county, date, status);
    if (evaluation.district !== null && status === "unknown") {
      const outside = evaluateCounty(table, county, date, "outside");
      const inside = evaluateCounty(table, county, date, "inside");
      return {
        settled: false,
        answer: {
          settled: false,
          date,
          message: `Only part of ${county.name} County is inside the ${evaluation.district.district.authority} district (${evaluation.district.district.area}). Send the street address to settle which rate applies; no tax is computed until then.`,
          candidates: [
            { county: county.name, fips: county.fips, transit_district: "inside", combined_rate: formatRate(inside.combined) },
            { county: county.name, fips: county.fips, transit_district: "outside", combined_rate: formatRate(outside.combined) },
          ],
          request_id: requestId,
        },
      };
    }
    const rates = this.#rates(table, evaluation.county.fips, county.name, date, evaluation);
    const certificate = await this.#certificate(organizationId, sale.customer_id, date);
    const roundingBasis = basis ?? (await this.#settings(organizationId)).roundingBasis;
    const lines: SaleLine[] = sale.lines.map((line) => ({
      id: line.id,
      gross: line.amount !== undefined ? parseMoney(line.amount)! : parseMoney(line.unit_price!)! * (line.quantity ?? 1),
      discount: line.discount === undefined ? 0 : parseMoney(line.discount)!,
      exemptReason: this.#exemptReason(line, certificate),
    }));
    const delivery = (sale.shipping === undefined ? 0 : parseMoney(sale.shipping)!) + (sale.handling === undefined ? 0 : parseMoney(sale.handling)!);
    const computation = computeTax({ lines, delivery, rates, basis: roundingBasis });
    const freshness = await this.#options.freshness();
    const answer: TaxAnswer = {
      settled: true,
      date,
      currency: "USD",
      sourcing: { ...(sourcing as SourcingChoice), location_id: locationId },
      location: {
        county: county.name,
        fips: county.fips,
        transit_district: evaluation.district === null ? null : { authority: evaluation.district.district.authority, status: status === "inside" ? "inside" : "outside" },
        resolved_by: record.resolved_by,
        boundary_record: record.boundary_record ?? null,
      },
      rounding: { basis: roundingBasis, rule: ROUNDING_RULE },
      exemption: certificate && { certificate_id: certificate.id, customer_id: certificate.customer_id, exempt_reason: certificate.exempt_reason, expires_on: certificate.expires_on },
      lines: computation.lines.map((line, i) => ({
        id: line.id,
        quantity: sale.lines[i]!.quantity ?? 1,
        unit_price: sale.lines[i]!.unit_price === undefined ? null : formatCents(parseMoney(sale.lines[i]!.unit_price!)!),
        gross: formatCents(line.gross),
        discount: formatCents(line.discount),
        net: formatCents(line.net),
        exempt: formatCents(line.exempt),
        taxable: formatCents(line.taxable),
        exempt_reason: line.exemptReason,
        taxes: line.taxes && line.taxes.map(jurisdictionRecord),
      })),
      delivery: {
        amount: formatCents(computation.delivery.amount),
        taxable: formatCents(computation.delivery.taxable),
        exempt: formatCents(computation.delivery.exempt),
        taxes: computation.delivery.taxes && computation.delivery.taxes.map(jurisdictionRecord),
      },
      jurisdictions: computation.jurisdictions.map(jurisdictionRecord),
      totals: {
        gross: formatCents(computation.gross),
        exempt: formatCents(computation.exempt),
        taxable: formatCents(computation.taxable),
        tax: formatCents(computation.tax),
        unrounded: formatExact(computation.exact),
      },
      computed_from: {
        rate_data_version: this.#options.rateDataVersion(),
        boundary_version: record.boundary_record?.version ?? null,
        resolved_by: record.resolved_by,
        last_reconciled: freshness.lastReconciled,
      },
      request_id: requestId,
    };
    return { settled: true, answer, computation };
  }

  #exemptReason(line: SaleRequest["lines"][number], certificate: { id: string; exempt_reason: string } | null): string | null {
    if (line.exempt === true) return line.exempt_reason ?? "exempt, as the merchant marked the line";
    const category = line.category === undefined ? undefined : PRODUCT_CATEGORIES[line.category];
    if (category !== undefined && !category.taxable) return category.basis;
    if (certificate !== null) return `exemption certificate ${certificate.id}: ${certificate.exempt_reason}`;
    return null;
  }

  /** The state's, the county's and the transit authority's rates at the place, each its own jurisdiction. */
  #rates(table: RateTable, fips: string, countyName: string, date: IsoDate, evaluation: ReturnType<typeof evaluateCounty>): JurisdictionRate[] {
    const inside = evaluation.district !== null && evaluation.district.status === "inside";
    const countywide = (table.periods.get(fips) ?? []).find(
      (p) => p.component === "transit" && (p.effectiveFrom === null || p.effectiveFrom <= date) && (p.effectiveTo === null || p.effectiveTo > date),
    );
    const transitName = evaluation.components.transit === 0 ? "none" : inside ? evaluation.district!.district.authority : (countywide?.authority ?? "transit authority");
    return [
      { jurisdiction: "state", name: "Ohio", rate: evaluation.components.state },
      { jurisdiction: "county", name: `${countyName} County`, rate: evaluation.components.county },
      { jurisdiction: "transit", name: transitName, rate: evaluation.components.transit },
    ];
  }
}
