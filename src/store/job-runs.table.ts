/** Row shape of the table added by migration 2026-11-21-040 (scheduled jobs taken across instances). */
import type { Selectable } from "kysely";

export type JobRunStatus = "running" | "succeeded" | "failed";

export interface JobRunsTable {
  name: string;
  /** The occurrence's scheduled instant (ISO, UTC): the same on every instance, whatever its timer's lag. */
  scheduled_for: string;
  /** Which instance took it (the delivery actor's `inst_…` id). */
  instance: string;
  status: JobRunStatus;
  started_at: string;
  finished_at: string | null;
  error: string | null;
}

export type JobRun = Selectable<JobRunsTable>;
