/** Retry timing for webhook deliveries; the schedule itself is configuration (src/config.ts: DEFAULT_RETRY_SCHEDULE, parseRetrySchedule). */

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
