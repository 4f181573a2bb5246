/**
 * Rates are held as integers in millionths (0.0575 → 57500) so that sums are exact;
 * they become decimals only when a response is written.
 */
export type Millionths = number;

const DECIMAL = /^(\d+)(?:\.(\d{1,6}))?$|^\.(\d{1,6})$/;

/** Parses a decimal rate string such as "0.0125" or ".01500" without going through a float. */
export function parseRate(text: string): Millionths {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`not a decimal rate: "${text}"`);
  const whole = match[1] ?? "0";
  const fraction = (match[2] ?? match[3] ?? "").padEnd(6, "0");
  return Number(whole) * 1_000_000 + Number(fraction);
}

/**
 * The decimal for the wire. Division of two integers is correctly rounded in IEEE 754, so
 * 70000 / 1e6 is the double nearest 0.07 and prints as 0.07, never 0.07000000000000001.
 */
export function toDecimal(rate: Millionths): number {
  return rate / 1_000_000;
}

/** "0.0125" style, four places at least, for tables and logs. */
export function formatRate(rate: Millionths): string {
  const whole = Math.trunc(rate / 1_000_000);
  const fraction = String(rate % 1_000_000).padStart(6, "0").replace(/0{1,2}$/, "");
  return `${whole}.${fraction.length < 4 ? fraction.padEnd(4, "0") : fraction}`;
}
