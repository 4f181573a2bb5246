/** Money on a return: integer cents in, two-decimal strings out, as payment APIs write them; never a binary float. */

/** `123456` → `"1234.56"`, `-5` → `"-0.05"`. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const magnitude = Math.abs(cents);
  return `${sign}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, "0")}`;
}
