/**
 * What a refund takes back of a recorded sale. Pure. A refund names the lines (and the delivery charges)
 * it returns money for; the tax it takes back is computed at the sale's own rates and rounding basis, as
 * the sale's was, and never more than is left of any jurisdiction's tax. A refund that leaves nothing of
 * the sale takes back exactly what is left, cent for cent, so a sale refunded in parts and then in full
 * always comes to zero in the ledger (docs/guides/tax-and-returns.md, "Refunds and voids").
 */
import { computeTax, type Jurisdiction, type JurisdictionRate, type RoundingBasis, type SaleLine } from "./compute-tax.ts";
import type { Cents } from "./money.ts";

/** A record's figures as the ledger keeps them (a sale's positive, a refund's negative). */
export interface LedgerFigures {
  gross: Cents;
  exempt: Cents;
  taxable: Cents;
  tax: Cents;
  state: Cents;
  county: Cents;
  transit: Cents;
}

export const ZERO_FIGURES: LedgerFigures = { gross: 0, exempt: 0, taxable: 0, tax: 0, state: 0, county: 0, transit: 0 };

export function addFigures(a: LedgerFigures, b: LedgerFigures): LedgerFigures {
  return {
    gross: a.gross + b.gross,
    exempt: a.exempt + b.exempt,
    taxable: a.taxable + b.taxable,
    tax: a.tax + b.tax,
    state: a.state + b.state,
    county: a.county + b.county,
    transit: a.transit + b.transit,
  };
}

export function negateFigures(f: LedgerFigures): LedgerFigures {
  return { gross: -f.gross, exempt: -f.exempt, taxable: -f.taxable, tax: -f.tax, state: -f.state, county: -f.county, transit: -f.transit };
}

/** What a sale's lines and delivery charges were, as recorded. */
export interface RecordedSale {
  lines: ReadonlyArray<{ id: string; net: Cents; exemptReason: string | null }>;
  delivery: { amount: Cents; taxable: Cents };
  rates: readonly JurisdictionRate[];
  basis: RoundingBasis;
}

/** What is left of it after earlier refunds. */
export interface SaleRemainder {
  lines: ReadonlyMap<string, Cents>;
  delivery: Cents;
  figures: LedgerFigures;
}

export interface RefundRequest {
  lines: ReadonlyArray<{ id: string; amount: Cents }>;
  delivery: Cents;
}

export type RefundOutcome =
  | { ok: true; figures: LedgerFigures; exhausts: boolean }
  | { ok: false; field: string; reason: string };

/** A void, or a refund of all that is left: every line and the delivery charges, whole. */
export function everythingLeft(remainder: SaleRemainder): RefundRequest {
  return { lines: [...remainder.lines].filter(([, amount]) => amount > 0).map(([id, amount]) => ({ id, amount })), delivery: remainder.delivery };
}

function byJurisdiction(jurisdictions: ReadonlyArray<{ jurisdiction: Jurisdiction; tax: Cents }>, which: Jurisdiction): Cents {
  return jurisdictions.find((j) => j.jurisdiction === which)?.tax ?? 0;
}

export function refundFigures(sale: RecordedSale, remainder: SaleRemainder, refund: RefundRequest): RefundOutcome {
  const seen = new Set<string>();
  for (const [i, line] of refund.lines.entries()) {
    const left = remainder.lines.get(line.id);
    if (left === undefined) return { ok: false, field: `lines[${i}].id`, reason: `the sale has no line ${line.id}` };
    if (seen.has(line.id)) return { ok: false, field: `lines[${i}].id`, reason: `line ${line.id} is named twice` };
    seen.add(line.id);
    if (line.amount > left) return { ok: false, field: `lines[${i}].amount`, reason: `is more than the ${(left / 100).toFixed(2)} left of line ${line.id}` };
  }
  if (refund.delivery > remainder.delivery) return { ok: false, field: "delivery", reason: `is more than the ${(remainder.delivery / 100).toFixed(2)} of delivery charges left` };
  if (refund.lines.every((line) => line.amount === 0) && refund.delivery === 0) return { ok: false, field: "lines", reason: "must refund some amount" };

  const refunded = new Map(refund.lines.map((line) => [line.id, line.amount]));
  const exhausts = [...remainder.lines].every(([id, left]) => left === (refunded.get(id) ?? 0)) && refund.delivery === remainder.delivery;
  if (exhausts) return { ok: true, figures: remainder.figures, exhausts };

  const deliveryTaxable = sale.delivery.amount === 0 ? 0 : Number((BigInt(refund.delivery) * BigInt(sale.delivery.taxable) * 2n + BigInt(sale.delivery.amount)) / (2n * BigInt(sale.delivery.amount)));
  const exemptReasons = new Map(sale.lines.map((line) => [line.id, line.exemptReason]));
  const lines: SaleLine[] = [
    ...refund.lines.map((line) => ({ id: line.id, gross: line.amount, discount: 0, exemptReason: exemptReasons.get(line.id) ?? null })),
    { id: "delivery (taxable part)", gross: deliveryTaxable, discount: 0, exemptReason: null },
    { id: "delivery (exempt part)", gross: refund.delivery - deliveryTaxable, discount: 0, exemptReason: "delivery of exempt items" },
  ];
  const computed = computeTax({ lines, delivery: 0, rates: sale.rates, basis: sale.basis });
  const left = remainder.figures;
  const state = Math.min(byJurisdiction(computed.jurisdictions, "state"), left.state);
  const county = Math.min(byJurisdiction(computed.jurisdictions, "county"), left.county);
  const transit = Math.min(byJurisdiction(computed.jurisdictions, "transit"), left.transit);
  const taxable = Math.min(computed.taxable, left.taxable);
  const gross = Math.min(computed.gross, left.gross);
  return { ok: true, exhausts, figures: { gross, exempt: gross - taxable, taxable, tax: state + county + transit, state, county, transit } };
}
