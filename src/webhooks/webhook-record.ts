/** The webhook registration as the API shows it (spec §2.7); the secret only when just issued. */
import type { Webhook } from "../store/webhooks-and-jobs.tables.ts";

export interface WebhookRecord {
  id: string;
  url: string;
  secret?: string;
  events: string[];
  status: Webhook["status"];
  created_at: string;
  updated_at: string;
  disabled_reason?: string;
  /** While a rotated-out secret still signs alongside the new one. */
  previous_secret_expires_at?: string;
}

export function toWebhookRecord(row: Webhook, now: Date, options: { withSecret?: boolean } = {}): WebhookRecord {
  const rotating = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now.toISOString();
  return {
    id: row.id,
    url: row.url,
    ...(options.withSecret && { secret: row.secret }),
    events: JSON.parse(row.events) as string[],
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.status === "disabled" && row.disabled_reason && { disabled_reason: row.disabled_reason }),
    ...(rotating && { previous_secret_expires_at: row.previous_secret_expires_at! }),
  };
}
