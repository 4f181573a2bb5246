/**
 * The tax on one sale, from its lines and the rates of the place it is sourced to. Pure: no I/O, no
 * clock; the rates come in, the amounts go out (docs/guides/tax-and-returns.md holds every rule and its
 * citation, and works examples through this function cent by cent).
 *
 * - Each jurisdiction separately, the tax collected rounded once: the state's rate-table instructions say
 *   to compute each jurisdiction's tax (state, county, transit authority) on its own, and R.C. 5739.025(E)
 *   says the tax on a sale is the price times the aggregate rate, carried to three decimals and rounded.
 *   Computed exactly, the jurisdictions' taxes add up to the price times the aggregate rate, so both hold:
 *   the tax collected is their exact sum rounded by the state's rule (rounding.ts), and each jurisdiction
 *   is given its own amount rounded by the same rule, a cent moved between them (largest remainder) where
 *   their rounded amounts would not add up to what is collected.
 * - Item or invoice basis (the organization's setting): on an item basis each taxable line, and the
 *   taxable part of the delivery charges, is rounded on its own; on an invoice basis the taxable total is.
 * - Delivery charges are part of the price (R.C. 5739.01(H)(1)), so they are taxable as far as what is
 *   delivered is: a sale with exempt and taxable lines taxes the share of the charges the taxable lines'
 *   price bears.
 */
import type { Millionths } from "../rates/millionths.ts";
import type { Cents } from "./money.ts";
import { exactTax, roundToCent } from "./rounding.ts";

export type RoundingBasis = "item" | "invoice";
export type Jurisdiction = "state" | "county" | "transit";

export interface JurisdictionRate {
  jurisdiction: Jurisdiction;
  /** "Ohio", "Delaware County", "COTA". */
  name: string;
  rate: Millionths;
}

export interface SaleLine {
  id: string;
  /** Quantity times unit price, or the line's amount, before its discount. */
  gross: Cents;
  discount: Cents;
  /** Why the line is exempt (a certificate, a category's statute, the merchant's flag); null when taxable. */
  exemptReason: string | null;
}

export interface TaxInput {
  lines: readonly SaleLine[];
  /** Shipping and handling together: the delivery charges of R.C. 5739.01(H)(1). */
  delivery: Cents;
  rates: readonly JurisdictionRate[];
  basis: RoundingBasis;
}

export interface JurisdictionTax {
  jurisdiction: Jurisdiction;
  name: string;
  rate: Millionths;
  taxable: Cents;
  /** The tax before rounding, in hundred-millionths of a dollar. */
  exact: bigint;
  tax: Cents;
}

export interface LineTax {
  id: string;
  gross: Cents;
  discount: Cents;
  /** gross − discount: the line's price. */
  net: Cents;
  exempt: Cents;
  taxable: Cents;
  exemptReason: string | null;
  /** On an item basis, the line's own rounded tax per jurisdiction; on an invoice basis, null. */
  taxes: JurisdictionTax[] | null;
}

export interface DeliveryTax {
  amount: Cents;
  taxable: Cents;
  exempt: Cents;
  taxes: JurisdictionTax[] | null;
}

export interface TaxComputation {
  basis: RoundingBasis;
  lines: LineTax[];
  delivery: DeliveryTax;
  gross: Cents;
  exempt: Cents;
  taxable: Cents;
  /** Per jurisdiction: the taxable amount, the exact tax and the rounded tax (on an item basis, the sum of the items' rounded taxes). */
  jurisdictions: JurisdictionTax[];
  /** What is collected: the statute's rounding of the exact tax (per item on an item basis), which the jurisdictions' amounts add up to. */
  tax: Cents;
  /** The whole sale's tax before any rounding, at the jurisdictions' rates together, in hundred-millionths of a dollar. */
  exact: bigint;
  /** How many amounts were rounded: each moves the total by at most half a cent, and a jurisdiction's amount by less than a cent. */
  roundings: number;
}

/**
 * One rounding: the taxes of each jurisdiction on `taxable`, each rounded by the state's rule, then
 * brought to add up to the rounding of their exact sum (R.C. 5739.025(E)'s tax on the aggregate rate):
 * a cent short goes to the jurisdiction whose rounding dropped the most, a cent over comes off the one
 * whose rounding added the most. Each moves at most one cent, and the rounded sum is at most a cent per
 * jurisdiction off, so no amount is ever taken below zero.
 */
function taxesOn(taxable: Cents, rates: readonly JurisdictionRate[]): JurisdictionTax[] {
  const taxes = rates.map(({ jurisdiction, name, rate }) => {
    const exact = exactTax(taxable, rate);
    return { jurisdiction, name, rate, taxable, exact, tax: roundToCent(exact) };
  });
  const total = roundToCent(taxes.reduce((sum, t) => sum + t.exact, 0n));
  let gap = total - taxes.reduce((sum, t) => sum + t.tax, 0);
  // What each rounding dropped (positive) or added (negative), in hundred-millionths of a dollar; ties keep the order state, county, transit.
  const dropped = (t: JurisdictionTax) => t.exact - BigInt(t.tax) * 1_000_000n;
  const order = taxes.map((t, i) => ({ t, i })).sort((a, b) => (dropped(b.t) > dropped(a.t) ? 1 : dropped(b.t) < dropped(a.t) ? -1 : a.i - b.i));
  for (let k = 0; gap > 0; k++, gap--) order[k]!.t.tax += 1;
  for (let k = order.length - 1; gap < 0; k--, gap++) order[k]!.t.tax -= 1;
  return taxes;
}

/** The taxable part of the delivery charges: their share of the price that the taxable lines bear, to the nearest cent (a half cent up). */
function taxableDelivery(delivery: Cents, lines: readonly LineTax[]): Cents {
  const net = lines.reduce((sum, line) => sum + line.net, 0);
  const taxable = lines.reduce((sum, line) => sum + line.taxable, 0);
  if (net === 0) return lines.every((line) => line.exemptReason !== null) ? 0 : delivery;
  const share = (BigInt(delivery) * BigInt(taxable) * 2n + BigInt(net)) / (2n * BigInt(net));
  return Number(share);
}

export function computeTax(input: TaxInput): TaxComputation {
  const { rates, basis } = input;
  const itemBasis = basis === "item";
  const lines: LineTax[] = input.lines.map((line) => {
    const net = line.gross - line.discount;
    const taxable = line.exemptReason === null ? net : 0;
    return {
      id: line.id,
      gross: line.gross,
      discount: line.discount,
      net,
      exempt: net - taxable,
      taxable,
      exemptReason: line.exemptReason,
      taxes: itemBasis && taxable > 0 ? taxesOn(taxable, rates) : itemBasis ? [] : null,
    };
  });
  const deliveryTaxable = taxableDelivery(input.delivery, lines);
  const delivery: DeliveryTax = {
    amount: input.delivery,
    taxable: deliveryTaxable,
    exempt: input.delivery - deliveryTaxable,
    taxes: itemBasis && deliveryTaxable > 0 ? taxesOn(deliveryTaxable, rates) : itemBasis ? [] : null,
  };
  const gross = lines.reduce((sum, line) => sum + line.net, 0) + delivery.amount;
  const taxable = lines.reduce((sum, line) => sum + line.taxable, 0) + delivery.taxable;

  let jurisdictions: JurisdictionTax[];
  let roundings: number;
  if (itemBasis) {
    const items = [...lines.map((line) => line.taxes!), delivery.taxes!].filter((taxes) => taxes.length > 0);
    roundings = items.length;
    jurisdictions = rates.map(({ jurisdiction, name, rate }, j) => ({
      jurisdiction,
      name,
      rate,
      taxable,
      exact: exactTax(taxable, rate),
      tax: items.reduce((sum, taxes) => sum + taxes[j]!.tax, 0),
    }));
  } else {
    roundings = taxable > 0 ? 1 : 0;
    jurisdictions = taxesOn(taxable, rates);
  }
  return {
    basis,
    lines,
    delivery,
    gross,
    exempt: gross - taxable,
    taxable,
    jurisdictions,
    tax: jurisdictions.reduce((sum, j) => sum + j.tax, 0),
    exact: jurisdictions.reduce((sum, j) => sum + j.exact, 0n),
    roundings,
  };
}
