/**
 * When to try a failed delivery again. The default follows the Standard Webhooks example
 * schedule: after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, ten attempts spread over
 * about three days (3 d 3 h 35 min 5 s before jitter), like Stripe's three days of retries.
 */

export const DEFAULT_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,14h,20h,24h";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "5s,5m,2h" or "50ms,100ms" → milliseconds; throws on anything else. */
export function parseRetrySchedule(text: string): number[] {
  return text.split(",").map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`"${part.trim()}" is not a duration such as 50ms, 5s, 30m, 2h or 1d`);
    return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
  });
}

/** ±20 % jitter, so endpoints that failed together do not all retry in the same instant. */
export function withJitter(delayMs: number, random: () => number): number {
  return Math.round(delayMs * (0.8 + 0.4 * random()));
}

/** Longest wait a receiver's Retry-After can ask for: one day. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** Reads Retry-After (delay-seconds or an HTTP date) as milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(at - now.getTime(), 0), MAX_RETRY_AFTER_MS);
}
