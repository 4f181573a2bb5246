/**
 * The usage page's outcome classes in a customer's words, and the sums the page shows of them: pure
 * functions of the stored counts (src/store/usage.repository.ts). What is counted as what:
 * docs/guides/dashboard.md, "Usage counting".
 */
import type { Outcomes, StoredUsage } from "../store/usage.repository.ts";

/** One key's (or several keys') requests on one day or over a span. */
export type Tally = Outcomes & Pick<StoredUsage, "total" | "unclassified">;

export const emptyTally = (): Tally => ({ total: 0, answered: 0, clientErrors: 0, rateLimited: 0, serverErrors: 0, unclassified: 0 });

function addTally(into: Tally, from: Tally): Tally {
  into.total += from.total;
  into.answered += from.answered;
  into.clientErrors += from.clientErrors;
  into.rateLimited += from.rateLimited;
  into.serverErrors += from.serverErrors;
  into.unclassified += from.unclassified;
  return into;
}

export const sumTallies = (tallies: readonly Tally[]): Tally => tallies.reduce(addTally, emptyTally());

export interface OutcomeColumn {
  field: keyof Outcomes | "unclassified";
  /** The column heading. */
  label: string;
  /** The same, counted: "1 client error", "3 client errors". */
  counted: (n: number) => string;
  /** What a customer should know of these requests. */
  meaning: string;
}

const n = (value: number) => value.toLocaleString("en-US");

export const OUTCOMES: readonly OutcomeColumn[] = [
  { field: "answered", label: "Answered (2xx)", counted: (c) => `${n(c)} answered`, meaning: "The API answered the request." },
  {
    field: "clientErrors",
    label: "Client errors (4xx)",
    counted: (c) => `${n(c)} client error${c === 1 ? "" : "s"}`,
    meaning: "Refused as sent: a missing or invalid parameter, an unknown id, a body too large. Sent again unchanged, it gets the same answer; the problem's detail says what to fix.",
  },
  {
    field: "rateLimited",
    label: "Throttled (429)",
    counted: (c) => `${n(c)} throttled`,
    meaning: "Over a rate limit (see Rate limit below) or a cap on work in flight. Wait the Retry-After seconds and send it again.",
  },
  {
    field: "serverErrors",
    label: "Server errors (5xx)",
    counted: (c) => `${n(c)} server error${c === 1 ? "" : "s"}`,
    meaning: "Buckeye, or a source it needs (the Census geocoder), could not answer. Send it again later.",
  },
];

/** Requests counted before outcomes were recorded: shown only while such days are in the window. */
export const UNCLASSIFIED: OutcomeColumn = {
  field: "unclassified",
  label: "Outcome not recorded",
  counted: (c) => `${n(c)} with no outcome recorded`,
  meaning: "Counted before this server recorded outcomes: answered requests, client and server errors together (throttled ones were not counted then).",
};

/** The outcome columns a set of tallies needs: the four classes, and the unrecorded one when any has some. */
export function outcomeColumns(tallies: readonly Tally[]): readonly OutcomeColumn[] {
  return tallies.some((t) => t.unclassified > 0) ? [...OUTCOMES, UNCLASSIFIED] : OUTCOMES;
}

/** "23 requests: 20 answered, 1 client error, 1 throttled, 1 server error" */
export function outcomeSummary(tally: Tally, columns: readonly OutcomeColumn[]): string {
  return `${n(tally.total)} request${tally.total === 1 ? "" : "s"}: ${columns.map((c) => c.counted(tally[c.field])).join(", ")}`;
}
