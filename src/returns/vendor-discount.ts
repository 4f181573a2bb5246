/**
 * The discount Ohio allows a vendor whose return and full payment arrive by the due date: 0.75 of 1 %
 * of the tax liability on line 6 of the UST 1 (R.C. 5739.12; the Department of Taxation's FAQ "What is
 * the discount rate for sales tax returns filed timely?"). A dated figure, as rates are: H.B. 66 held it
 * at 0.9 % until June 30, 2007, and a later act may change it again (docs/guides/tax-and-returns.md, "The return").
 */
import type { IsoDate } from "../rates/calendar.ts";

export interface VendorDiscount {
  /** Basis points of the tax liability: 75 is 0.75 %. */
  basisPoints: number;
  /** The first due date it applies to. */
  effectiveFrom: IsoDate;
  source: string;
}

/** Newest first. Buckeye's rate history starts in 2018, so no period it answers needs an older figure. */
export const VENDOR_DISCOUNTS: readonly VendorDiscount[] = [
  {
    basisPoints: 75,
    effectiveFrom: "2007-07-01",
    source: "R.C. 5739.12; Ohio Department of Taxation FAQ, \"What is the discount rate for sales tax returns filed timely?\" (0.0075 of the line 6 tax liability)",
  },
];

/** The discount in force for a return due on `dueDate`. */
export function discountFor(dueDate: IsoDate): VendorDiscount {
  const found = VENDOR_DISCOUNTS.find((discount) => discount.effectiveFrom <= dueDate);
  if (!found) throw new RangeError(`no vendor discount recorded for a return due ${dueDate}`);
  return found;
}

/**
 * The discount in cents on a tax liability in cents, rounded to the nearest cent (a half cent up).
 * None on a liability of zero or less: a period whose refunds exceed its sales owes nothing to discount.
 */
export function discountCents(taxLiabilityCents: number, basisPoints: number): number {
  if (taxLiabilityCents <= 0) return 0;
  const scaled = BigInt(taxLiabilityCents) * BigInt(basisPoints);
  return Number((scaled + 5_000n) / 10_000n);
}
