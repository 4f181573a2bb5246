/** The webhook registration as the API shows it; the secret only when just issued. */
import { z } from "zod";
import type { Webhook } from "../store/webhooks.tables.ts";

export const webhookRecordSchema = z
  .strictObject({
    id: z.string().regex(/^wh_/),
    url: z.string(),
    secret: z.string().regex(/^whsec_[0-9a-f]{64}$/).optional().describe("Only in the answers that issue it: registration and rotation"),
    events: z.array(z.string()),
    status: z.enum(["active", "disabled"]),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    disabled_reason: z.string().optional(),
    previous_secret_expires_at: z.iso.datetime().optional().describe("While a rotated-out secret still signs alongside the new one"),
  })
  .describe("A webhook endpoint: where events go, which ones, and its state (the signing secret is shown only when created or rotated)");
export type WebhookRecord = z.infer<typeof webhookRecordSchema>;

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
