/**
 * Batch work per organization as the metrics label it (docs/operations/metrics.md, "Per organization"):
 * organizations grow without limit, so only the TOP_ORGANIZATIONS with the most rows in queued and
 * running jobs get a series of their own, labelled by their id; every other one is summed under
 * `other`. So a scrape has at most TOP_ORGANIZATIONS + 1 organization labels however many there are.
 */
import type { OrganizationJobs } from "../store/metrics.repository.ts";

/** Organizations with series of their own: the ones an operator looks for when jobs wait. */
export const TOP_ORGANIZATIONS = 10;

/** The label every organization outside the top ones is summed under; never an organization id (those start `org_`). */
export const OTHER_ORGANIZATIONS = "other";

export type JobState = OrganizationJobs["state"];
export const UNFINISHED_STATES: readonly JobState[] = ["queued", "running"];

export interface OrganizationShare {
  organization: string;
  jobs: Record<JobState, number>;
  /** Rows of its queued and running jobs resolved so far, and still to resolve. */
  rowsDone: number;
  rowsLeft: number;
}

const empty = (organization: string): OrganizationShare => ({ organization, jobs: { queued: 0, running: 0 }, rowsDone: 0, rowsLeft: 0 });

function add(share: OrganizationShare, row: OrganizationJobs): void {
  share.jobs[row.state] += row.jobs;
  share.rowsDone += row.done;
  share.rowsLeft += row.rows - row.done;
}

/**
 * The `top` organizations by rows in queued and running jobs (ties: the lower id, so a scrape's
 * choice does not flicker), each on its own, and `other` for the rest, always present (at 0 when none).
 */
export function organizationShares(rows: readonly OrganizationJobs[], top = TOP_ORGANIZATIONS): OrganizationShare[] {
  const byOrganization = new Map<string, OrganizationShare & { rows: number }>();
  for (const row of rows) {
    const share = byOrganization.get(row.organizationId) ?? { ...empty(row.organizationId), rows: 0 };
    add(share, row);
    share.rows += row.rows;
    byOrganization.set(row.organizationId, share);
  }
  const ranked = [...byOrganization.values()].sort((a, b) => b.rows - a.rows || (a.organization < b.organization ? -1 : 1));
  const other = empty(OTHER_ORGANIZATIONS);
  for (const share of ranked.slice(top)) {
    for (const state of UNFINISHED_STATES) other.jobs[state] += share.jobs[state];
    other.rowsDone += share.rowsDone;
    other.rowsLeft += share.rowsLeft;
  }
  return [...ranked.slice(0, top).map(({ rows: _rows, ...share }) => share), other];
}
