/**
 * Where a sale is taxed, by Ohio's sourcing statute, R.C. 5739.033 (docs/guides/tax-and-returns.md,
 * "Where a sale is taxed"). Pure: it decides from which places the sale names; the places are resolved
 * elsewhere.
 *
 * - (C)(1): goods the buyer receives at the vendor's place of business are sourced there (a pickup);
 * - (B)(1): a vendor that receives the order in Ohio, for goods the buyer receives in Ohio (delivered, so
 *   located under (C)(2) to (4)), sources the sale to where it received the order, when its records keep
 *   that place, as the sale's `order_location_id` does;
 * - (C)(2): otherwise, where the buyer receives the goods (`ship_to`).
 */
export type SourcingRule = "pickup" | "origin" | "destination";

export interface SourcingChoice {
  rule: SourcingRule;
  statute: string;
  reason: string;
}

export interface SalePlaces {
  pickup: boolean;
  orderLocation: boolean;
  shipTo: boolean;
}

export function chooseSourcing(places: SalePlaces): SourcingChoice | { missing: string } {
  if (places.pickup) {
    return {
      rule: "pickup",
      statute: "R.C. 5739.033(C)(1)",
      reason: "The buyer receives the goods at the organization's place of business (pickup_location_id), so the sale is sourced there.",
    };
  }
  if (!places.shipTo) return { missing: "ship_to" };
  if (places.orderLocation) {
    return {
      rule: "origin",
      statute: "R.C. 5739.033(B)(1)",
      reason:
        "The organization received the order at its Ohio location (order_location_id) and the buyer receives the goods in Ohio (ship_to), so the sale is sourced to where the order was received.",
    };
  }
  return {
    rule: "destination",
    statute: "R.C. 5739.033(C)(2)",
    reason: "No Ohio location of the organization received the order (no order_location_id), so the sale is sourced to where the buyer receives the goods (ship_to).",
  };
}
