/**
 * The retention job: deletes what the RETAIN_* settings no longer keep (docs/guides/webhooks-and-jobs.md,
 * "Retention"), a few rows per transaction with a pause after each for other writers
 * (store/paced-steps.ts), so a sweep of a large backlog never holds SQLite's write lock for long nor
 * starves a writer waiting for it, and says what it deleted.
 *
 * - batch jobs completed more than RETAIN_BATCH_JOBS_DAYS ago (or the days an operator set for
 *   their organization, docs/operations/organization-limits.md), with their chunks (inputs and
 *   results), and jobs deleted by their organization whose rows a stopped process left behind;
 * - deliveries delivered, failed or cancelled more than RETAIN_EVENTS_DAYS ago, with their attempts
 *   (a pending delivery is never deleted), then events that old with no delivery left;
 * - per-key usage counts of days more than RETAIN_USAGE_DAYS ago.
 */
import type { RetentionConfig } from "../config.ts";
import { addDays, dateInOhio, type IsoDate } from "../rates/calendar.ts";
import { listDeletedJobs, markExpiredJobsDeleted, purgeDeletedJob, type RetentionScope } from "../batch/batch-jobs.repository.ts";
import { listOrganizationLimits } from "../store/organization-limits.repository.ts";
import type { Db } from "../store/database.ts";
import { pacedSteps } from "../store/paced-steps.ts";
import { deleteFinishedDeliveries, deleteOldEvents, deleteOldUsage } from "../store/retention.repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An event a scheduled job published under a dedupe key is kept at least this long, whatever
 * RETAIN_EVENTS_DAYS says: its row is what stops the job from publishing it again, and every such
 * job looks back far less than a year (reminders 30 days, filing periods six months).
 */
const KEYED_EVENT_DAYS = 400;

/** Rows per transaction: a few milliseconds of writing each; each step is followed by a pause for other writers (store/paced-steps.ts). */
export const RETENTION_ROWS_PER_TRANSACTION = 500;
/** Jobs marked deleted per pass of the sweep. */
const JOBS_PER_PASS = 50;

export interface RetentionReport {
  batch_jobs: number;
  batch_chunks: number;
  deliveries: number;
  delivery_attempts: number;
  events: number;
  usage_counts: number;
  /** What was kept: batch jobs completed, deliveries finished and events created from these instants; usage from this day. */
  kept_from: { batch_jobs: string; events: string; usage: IsoDate };
}

export async function sweepRetention(db: Db, retention: RetentionConfig, at: Date): Promise<RetentionReport> {
  const jobsBefore = new Date(at.getTime() - retention.batchJobsDays * DAY_MS);
  const eventsBefore = new Date(at.getTime() - retention.eventsDays * DAY_MS);
  const keyedBefore = new Date(at.getTime() - Math.max(retention.eventsDays, KEYED_EVENT_DAYS) * DAY_MS);
  const usageFrom = addDays(dateInOhio(at), -retention.usageDays);
  const report: RetentionReport = {
    batch_jobs: 0,
    batch_chunks: 0,
    deliveries: 0,
    delivery_attempts: 0,
    events: 0,
    usage_counts: 0,
    kept_from: { batch_jobs: jobsBefore.toISOString(), events: eventsBefore.toISOString(), usage: usageFrom },
  };

  // Organizations with days of their own are swept by them, every other one by the setting.
  const ownDays = [...(await listOrganizationLimits(db))].flatMap(([id, limits]) => (limits.retentionDays === null ? [] : [[id, limits.retentionDays] as const]));
  const passes: Array<{ before: Date; scope: RetentionScope }> = [
    { before: jobsBefore, scope: { except: ownDays.map(([id]) => id) } },
    ...ownDays.map(([organizationId, days]) => ({ before: new Date(at.getTime() - days * DAY_MS), scope: { organizationId } })),
  ];
  for (;;) {
    let marked = 0;
    for (const { before, scope } of passes) marked += await markExpiredJobsDeleted(db, before, at, JOBS_PER_PASS, scope);
    // Jobs marked now, and any an organization deleted whose rows a stopped process (or a purge still under way) left.
    const deleted = await listDeletedJobs(db, JOBS_PER_PASS);
    for (const id of deleted) {
      report.batch_chunks += await purgeDeletedJob(db, id);
      report.batch_jobs++;
    }
    if (marked === 0 && deleted.length < JOBS_PER_PASS) break;
  }

  await pacedSteps(async () => {
    const gone = await deleteFinishedDeliveries(db, eventsBefore, RETENTION_ROWS_PER_TRANSACTION);
    report.deliveries += gone.deliveries;
    report.delivery_attempts += gone.attempts;
    return { done: gone.deliveries, full: gone.deliveries === RETENTION_ROWS_PER_TRANSACTION };
  });
  report.events = await pacedSteps(async () => {
    const gone = await deleteOldEvents(db, eventsBefore, keyedBefore, RETENTION_ROWS_PER_TRANSACTION);
    return { done: gone, full: gone === RETENTION_ROWS_PER_TRANSACTION };
  });
  report.usage_counts = await pacedSteps(async () => {
    const gone = await deleteOldUsage(db, usageFrom, RETENTION_ROWS_PER_TRANSACTION);
    return { done: gone, full: gone === RETENTION_ROWS_PER_TRANSACTION };
  });
  return report;
}
