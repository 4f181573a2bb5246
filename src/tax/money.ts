/**
 * Money as integer cents, never a binary float: amounts arrive and leave as decimal strings with two
 * places ("19.99"), as payment APIs write them, and every sum in between is of whole cents.
 */
export type Cents = number;

/** Up to two decimal places; at most 99,999,999.99, so a thousand lines' cents stay exact integers. */
const MONEY = /^(\d{1,8})(?:\.(\d{1,2}))?$/;

/** "19.99" → 1999, "5" → 500, "0.5" → 50; null for anything else (a third decimal place, a sign, a number). */
export function parseMoney(text: string): Cents | null {
  const match = MONEY.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** 1999 → "19.99", -50 → "-0.50". */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.abs(cents);
  return `${sign}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, "0")}`;
}
