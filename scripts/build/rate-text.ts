/**
 * Rates are handled as integer millionths (0.0125 -> 12500) so that sums such as
 * state + county + transit are exact; the sources write them with exactly four decimals.
 */
export function rateMillionths(text: string, context: string): number {
  const match = /^0\.(\d{4})$/.exec(text);
  if (match?.[1] === undefined) throw new Error(`${context}: rate "${text}" is not a four-decimal fraction like 0.0125`);
  return Number(match[1]) * 100;
}

/** Formats millionths back into the sources' four-decimal form, for messages. */
export function formatMillionths(millionths: number): string {
  const tenThousandths = Math.round(millionths / 100);
  return `${Math.floor(tenThousandths / 10000)}.${String(tenThousandths % 10000).padStart(4, "0")}`;
}
