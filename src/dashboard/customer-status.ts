/**
 * The service's state said as a customer needs it: what it means for the answers they get and
 * whether they must do anything. The operator's terms (reconciliation, TIGER/Line vintages, the
 * state's boundary file) stay in the details one click away. Read by the dashboard's data line
 * and by the status page, so the two say the same thing. Pure.
 */
import type { DataStatus } from "../freshness/data-status.ts";
import type { Readiness } from "../freshness/readiness.ts";

export type StatusTone = "green" | "amber" | "red";

export interface Verdict {
  tone: StatusTone;
  /** A few words, for a badge. */
  label: string;
  /** What it means for the customer's answers, and whether they must act. */
  meaning: string;
}

/** "Nov 21, 2026" from an ISO date, read in UTC so the day never shifts. */
export function longDate(iso: string): string {
  return new Date(`${iso.slice(0, 10)}T12:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
}

/** The rates: current, or overdue for the quarterly check against the state's rate file. */
export function ratesVerdict(rates: { stale: boolean; confirmedThrough: string; lastReconciled: string; ageDays: number; today: string }): Verdict {
  const through = longDate(rates.confirmedThrough);
  const later = rates.confirmedThrough < rates.today ? ` Answers for dates after ${through} are marked beyond_confirmed until the state confirms them.` : "";
  if (!rates.stale) {
    return { tone: "green", label: "Rates up to date", meaning: `Rates are confirmed against the State of Ohio's rate file through ${through}.${later} Nothing for you to do.` };
  }
  return {
    tone: "amber",
    label: "Rate check overdue",
    meaning:
      `Rates are confirmed through ${through}, but this service last checked the state's rate file ${rates.ageDays} days ago (on ${longDate(rates.lastReconciled)}); the state can change rates each quarter. ` +
      `Answers up to ${through} are correct as confirmed; for later dates they are marked beyond_confirmed and could miss a change announced since. Your integration needs no change; the service's operator needs to run the quarterly update.`,
  };
}

export function ratesVerdictOf(status: DataStatus): Verdict {
  return ratesVerdict({
    stale: status.rates.stale,
    confirmedThrough: status.rates.confirmed_through.date,
    lastReconciled: status.rates.last_reconciled.date,
    ageDays: status.rates.last_reconciled.age_days,
    today: status.today,
  });
}

export interface StatusLine {
  name: string;
  verdict: Verdict;
}

/** Each kind of lookup, and the data behind them, as the status page lists them. */
export function statusLines(r: Readiness, today: string): StatusLine[] {
  const basic: Verdict =
    r.database.ok && r.rates.complete
      ? { tone: "green", label: "Working", meaning: "Rates by county and by ZIP code, single and in batches, are answered." }
      : { tone: "red", label: "Not available", meaning: r.database.ok ? "Rate data is incomplete on this service, so lookups may fail. Try again later." : "The service cannot reach its database: API keys cannot be checked, so requests fail. Try again in a few minutes." };
  const geo: Verdict =
    r.boundaries.state === "ready"
      ? { tone: "green", label: "Working", meaning: "Street addresses and latitude/longitude points are placed in their county, city and transit district." }
      : r.boundaries.state === "loading"
        ? { tone: "amber", label: "Starting", meaning: "The service is loading its boundary maps; address and point lookups answer within a few moments. County and ZIP lookups already work." }
        : { tone: "red", label: "Not available", meaning: "This service has no boundary maps loaded, so address and point lookups answer 503 (boundaries-unavailable). County and ZIP lookups work. The operator must load the maps." };
  const account: Verdict = r.database.ok
    ? { tone: "green", label: "Working", meaning: "Sign-in, API keys, usage and webhook deliveries." }
    : { tone: "red", label: "Not available", meaning: "Sign-in, API keys and webhook deliveries wait for the database; queued webhook events are kept and sent once it is back." };
  const rec = r.reconciliation;
  return [
    { name: "Rate lookups by county and ZIP", verdict: basic },
    { name: "Address and point lookups", verdict: geo },
    { name: "Rate data", verdict: ratesVerdict({ stale: rec.stale, confirmedThrough: rec.confirmedThrough, lastReconciled: rec.lastReconciled, ageDays: rec.ageDays, today }) },
    { name: "Dashboard and webhooks", verdict: account },
  ];
}

/** The page's headline: the worst line decides. */
export function overall(lines: StatusLine[]): Verdict {
  if (lines.some((l) => l.verdict.tone === "red")) return { tone: "red", label: "Partly unavailable", meaning: "Some requests cannot be answered right now; see below which." };
  if (lines.some((l) => l.verdict.tone === "amber")) return { tone: "amber", label: "Working, with a notice", meaning: "Every request is answered; read the notice below." };
  return { tone: "green", label: "All systems working", meaning: "Every kind of request is answered, from current rate data." };
}
