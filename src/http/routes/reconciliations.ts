/**
 * GET /api/v1/reconciliations: the reconciliation log (docs/guides/webhooks-and-jobs.md), newest first. Each run says
 * which file it read, what it recorded, which rates disagreed with ours, or why it failed.
 */
import type { H3Event } from "h3";
import { z } from "zod";
import { listReconciliations } from "../../store/reconciliations.repository.ts";
import type { ApiContext } from "../context.ts";
import { readQuery } from "../query.ts";
import type { ReconciliationRecord } from "../answer-schemas.ts";

export const RECONCILIATIONS_QUERY = {
  limit: z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .refine((n) => Number(n) >= 1 && Number(n) <= 100, "must be between 1 and 100")
    .optional(),
};

export function getReconciliations(ctx: ApiContext) {
  return async (event: H3Event) => {
    const query = readQuery(event, RECONCILIATIONS_QUERY);
    const rows = await listReconciliations(ctx.db, Number(query.limit ?? 20));
    return {
      total: rows.length,
      reconciliations: rows.map((row): ReconciliationRecord => ({
        id: row.id,
        status: row.status,
        source: row.source,
        file_name: row.file_name,
        reconciled_on: row.reconciled_on,
        rows: row.rows,
        periods_recorded: row.periods_recorded,
        events_emitted: row.events_emitted,
        discrepancies: JSON.parse(row.discrepancies) as ReconciliationRecord["discrepancies"],
        error: row.error,
        started_at: row.started_at,
        finished_at: row.finished_at,
      })),
    };
  };
}
