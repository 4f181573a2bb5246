/**
 * The webhook events and the data each carries (docs/guides/webhooks-and-jobs.md). Data shapes
 * are the contract with receivers: add fields, never rename or remove them.
 */
import type { IsoDate } from "../rates/calendar.ts";

/** Events a webhook may subscribe to, or "*" for all of them. */
export const SUBSCRIBABLE_EVENTS = ["rate.changed", "rate.announced", "certificate.expiring", "filing.due"] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];
/** webhook.test is sent only on request, to one webhook, whatever it subscribes to. */
export type EventType = SubscribableEvent | "webhook.test";

/** A change of a county's rate, as rate.changed and rate.announced describe it. */
export interface RateChangeData {
  county: string;
  county_slug: string;
  fips: string;
  /** Combined countywide rate the day before the change. */
  old_rate: number;
  /** Combined countywide rate from effective_date. */
  new_rate: number;
  effective_date: IsoDate;
  /** Days between announced_date and effective_date. */
  lead_days: number;
  /** Days from the day the event was sent to effective_date (0 for rate.changed). */
  days_until: number;
  /** Present for counties a transit district splits: the rate inside it, before and after. */
  transit_district?: { authority: string; old_rate_inside: number; new_rate_inside: number };
}

export interface RateAnnouncedData extends RateChangeData {
  announced_date: IsoDate;
}

export interface FilingDueData {
  filing_frequency: "monthly" | "semiannual";
  /** The period as the returns API names it: `2026-11`, or `2026-H2` for a semiannual filer. */
  period: string;
  period_start: IsoDate;
  period_end: IsoDate;
  due_date: IsoDate;
  days_until: number;
  /** Where the period's UST 1 worksheet is: the API's path (JSON, or CSV; a key reads its own ledger) and the dashboard's page. */
  worksheet: { api_path: string; dashboard_path: string };
}

export interface CertificateExpiringData {
  certificate_id: string;
  customer_id: string;
  customer_name: string;
  exempt_reason: string;
  expires_on: IsoDate;
  days_until: number;
}

export interface WebhookTestData {
  webhook_id: string;
  message: string;
}

export interface EventDataByType {
  "rate.changed": RateChangeData;
  "rate.announced": RateAnnouncedData;
  "filing.due": FilingDueData;
  "certificate.expiring": CertificateExpiringData;
  "webhook.test": WebhookTestData;
}

/** The envelope every event is delivered in. */
export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  created_at: string;
  data: EventDataByType[T];
}

/** True when a webhook subscribed to `events` receives an event of this type. */
export function isSubscribed(events: readonly string[], type: EventType): boolean {
  return events.includes("*") || events.includes(type);
}
