/**
 * The per-organization batch metrics' label rule (src/batch/organization-shares.ts): however many
 * organizations have work, a scrape names at most TOP_ORGANIZATIONS of them, by id, and sums the rest
 * under `other`. test/metrics.test.ts checks the same series through a real Prometheus.
 */
import { describe, expect, it } from "vitest";
import { organizationShares, TOP_ORGANIZATIONS } from "../src/batch/organization-shares.ts";
import type { OrganizationJobs } from "../src/store/metrics.repository.ts";

const job = (organizationId: string, state: OrganizationJobs["state"], rows: number, done = 0, jobs = 1): OrganizationJobs => ({ organizationId, state, jobs, rows, done });

describe("organizations are labelled by id for the top ones by rows in queued and running jobs, the rest as other", () => {
  it("with more organizations than the top, exactly TOP_ORGANIZATIONS + 1 labels come out, the largest by rows each on its own, and the rest summed", () => {
    const rows = Array.from({ length: 25 }, (_, i) => job(`org_${String(i).padStart(2, "0")}`, i % 2 === 0 ? "queued" : "running", (i + 1) * 100, i));
    const shares = organizationShares(rows);
    expect(TOP_ORGANIZATIONS).toBe(10);
    expect(shares).toHaveLength(TOP_ORGANIZATIONS + 1);
    expect(shares.slice(0, TOP_ORGANIZATIONS).map((s) => s.organization)).toEqual(Array.from({ length: 10 }, (_, i) => `org_${24 - i}`));
    const other = shares.at(-1)!;
    expect(other.organization).toBe("other");
    // org_00 … org_14: rows (i+1)·100, done i; even ones queued, odd ones running.
    const rest = rows.slice(0, 15);
    expect(other).toEqual({
      organization: "other",
      jobs: { queued: rest.filter((r) => r.state === "queued").length, running: rest.filter((r) => r.state === "running").length },
      rowsDone: rest.reduce((n, r) => n + r.done, 0),
      rowsLeft: rest.reduce((n, r) => n + r.rows - r.done, 0),
    });
    const all = (pick: (s: (typeof shares)[number]) => number) => shares.reduce((n, s) => n + pick(s), 0);
    expect(all((s) => s.jobs.queued + s.jobs.running)).toBe(rows.length);
    expect(all((s) => s.rowsDone + s.rowsLeft)).toBe(rows.reduce((n, r) => n + r.rows, 0));
  });

  it("an organization's queued and running jobs are ranked together by their rows, and equal rows go to the lower id", () => {
    const shares = organizationShares([job("org_b", "queued", 50), job("org_b", "running", 60, 10, 2), job("org_a", "running", 110), job("org_c", "queued", 100)], 2);
    expect(shares).toEqual([
      { organization: "org_a", jobs: { queued: 0, running: 1 }, rowsDone: 0, rowsLeft: 110 },
      { organization: "org_b", jobs: { queued: 1, running: 2 }, rowsDone: 10, rowsLeft: 100 },
      { organization: "other", jobs: { queued: 1, running: 0 }, rowsDone: 0, rowsLeft: 100 },
    ]);
  });

  it("with no queued or running job, only other remains, at 0", () => {
    expect(organizationShares([])).toEqual([{ organization: "other", jobs: { queued: 0, running: 0 }, rowsDone: 0, rowsLeft: 0 }]);
  });
});
