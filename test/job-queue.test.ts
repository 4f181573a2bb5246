/**
 * The job queue's two sides without a store or HTTP (src/batch/job-queue.ts): the memory backend
 * `buckeye batch` runs on writes each chunk once, in input order, whatever order the chunks complete
 * in; and the runner, its one consumer, logs a failed lease extension once, with its cause.
 */
import { describe, expect, it } from "vitest";
import { BatchJobRunner } from "../src/batch/job-runner.ts";
import type { ClaimedChunk, JobQueue } from "../src/batch/job-queue.ts";
import { MemoryJobQueue } from "../src/batch/memory-job-queue.ts";
import type { RowResult } from "../src/lookup/item-result.ts";

const rows = (firstRow: number, count: number): RowResult[] =>
  Array.from({ length: count }, (_, i) => ({ row: firstRow + i, id: `r${firstRow + i}`, result: { kind: "failure", slug: "bad-request", detail: "planted", param: null } }));

describe("the memory job queue", () => {
  it("writes each chunk once and in input order, though the chunks complete out of order", async () => {
    const chunks = [0, 1, 2].map((seq) => ({ firstRow: 1 + seq * 2, rowCount: 2, input: "[]" }));
    const written: number[] = [];
    const queue = new MemoryJobQueue({
      chunks,
      today: "2026-01-01",
      requestId: "req_test",
      // A slow writer: a completion that arrives meanwhile must not write a chunk again.
      write: async (_rows, seq) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        written.push(seq);
      },
    });
    const claimed = [...(await queue.claim()), ...(await queue.claim()), ...(await queue.claim())];
    expect(claimed.map((chunk) => chunk.seq)).toEqual([0, 1, 2]);
    expect(await queue.claim()).toEqual([]);
    expect(await queue.anyClaimable()).toBe(false);
    const done = (chunk: ClaimedChunk) => [{ output: JSON.stringify(rows(chunk.firstRow, 2)), done: 2, failed: 2 }];
    await Promise.all([queue.complete([claimed[2]!], done(claimed[2]!)), queue.complete([claimed[0]!], done(claimed[0]!)), queue.complete([claimed[1]!], done(claimed[1]!))]);
    await queue.done;
    expect(written).toEqual([0, 1, 2]);
  });

  it("rejects `done` with the first failure", async () => {
    const queue = new MemoryJobQueue({ chunks: [{ firstRow: 1, rowCount: 1, input: "[]" }], today: "2026-01-01", requestId: "req_test", write: async () => {} });
    const [chunk] = await queue.claim();
    queue.fail([chunk!], new Error("the batch lane is gone"));
    await expect(queue.done).rejects.toThrow("the batch lane is gone");
  });
});

describe("the job runner", () => {
  it("logs a failed lease extension once, with its cause, and still completes the group", async () => {
    const chunk: ClaimedChunk = { jobId: "bat_test", seq: 0, firstRow: 1, rowCount: 1, attempts: 1, today: "2026-01-01", requestId: "req_test" };
    let claimed = false;
    let extensions = 0;
    const completed: ClaimedChunk[][] = [];
    const queue: JobQueue = {
      anyClaimable: async () => !claimed,
      claim: async () => {
        if (claimed) return [];
        claimed = true;
        return [chunk];
      },
      work: () => ({ input: "[]" }),
      extend: async () => {
        extensions++;
        throw new Error("disk I/O error", { cause: Object.assign(new Error("SQLITE_IOERR"), { code: "SQLITE_IOERR" }) });
      },
      waits: () => undefined,
      complete: async (group) => {
        completed.push([...group]);
      },
      fail: () => {},
      abandon: async () => false,
    };
    const logs: Array<Record<string, unknown>> = [];
    const runner = new BatchJobRunner({
      queue,
      // Resolving takes long enough for two heartbeats (one a second at this lease).
      lookups: { resolveChunks: () => new Promise((resolve) => setTimeout(() => resolve([{ output: "[]", done: 0, failed: 0 }]), 2300)) },
      leaseMs: 1500,
      pollMs: 50,
      loops: 1,
      groupRows: 10,
      runningPerOrganization: 1,
      maxAttempts: 3,
      freshness: () => ({ lastReconciled: "2026-01-01", confirmedThrough: "2026-01-01" }),
      log: (entry) => logs.push(entry),
    });
    runner.start();
    try {
      await expect.poll(() => completed.length, { timeout: 5000 }).toBe(1);
    } finally {
      await runner.stop();
    }
    expect(extensions).toBeGreaterThanOrEqual(2);
    const failures = logs.filter((entry) => String(entry.msg).includes("lease could not be extended"));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: "warn", job: "bat_test", chunk: 0, code: "SQLITE_IOERR" });
    expect(String(failures[0]!.error)).toContain("disk I/O error");
  });
});
