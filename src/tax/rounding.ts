/**
 * The state's rounding rule, exactly (docs/guides/tax-and-returns.md, "Rounding"): R.C. 5739.025 and the
 * Streamlined Sales and Use Tax Agreement's section 324 carry the computation to the third decimal place
 * of a dollar and round to a whole cent, up to the next cent whenever that third decimal is more than four.
 *
 * An amount in cents times a rate in millionths is the exact tax in hundred-millionths of a dollar; it is
 * multiplied as a BigInt, so no sale is large enough to lose a digit.
 */
import type { Millionths } from "../rates/millionths.ts";
import type { Cents } from "./money.ts";

/** The exact tax of `cents` at `rate`, in hundred-millionths of a dollar (1e-8). */
export function exactTax(cents: Cents, rate: Millionths): bigint {
  return BigInt(cents) * BigInt(rate);
}

/** Carried to the third decimal (tenths of a cent, further digits dropped), then a cent up when that decimal is 5 to 9. */
export function roundToCent(exact: bigint): Cents {
  if (exact < 0n) return -roundToCent(-exact);
  const tenthsOfCent = exact / 100_000n;
  return Number(tenthsOfCent / 10n + (tenthsOfCent % 10n > 4n ? 1n : 0n));
}

/** The tax of `cents` at `rate`, rounded to the cent by the state's rule. */
export function taxAt(cents: Cents, rate: Millionths): Cents {
  return roundToCent(exactTax(cents, rate));
}

/** An exact tax as dollars, six decimals at least and every digit kept ("0.044850"): what the answer shows beside the rounded cent. */
export function formatExact(exact: bigint): string {
  const sign = exact < 0n ? "-" : "";
  const magnitude = exact < 0n ? -exact : exact;
  const fraction = String(magnitude % 100_000_000n).padStart(8, "0").replace(/0{1,2}$/, "");
  return `${sign}${magnitude / 100_000_000n}.${fraction}`;
}
