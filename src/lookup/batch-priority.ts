/**
 * How much nicer batch work runs than the thread that answers requests: the batch lane's threads
 * (workers/batch-lane.ts lowers each first thing, before its modules load) and, from the lane's start,
 * V8's helper threads.
 *
 * V8's helper threads (named "V8Worker"; `--v8-pool-size` of them) do the garbage collectors'
 * parallel and concurrent work for every thread's heap, and the batch lane's heap is the one that
 * allocates the most: a resolving thread is collected several times a second. At the service's own
 * priority those helpers took the cores from the answering thread while a job ran, although the
 * batch thread itself runs nicer (single lookups during one or three 100,000-row jobs: p99 2.4–8.8×
 * idle, and 1.6–2.8× with the helpers as nice as the batch lane; docs/operations/benchmarks.md). So
 * once the batch lane starts they run as nice as it does. The answering thread's own collections
 * lose little: they are rare between requests, and what a helper leaves undone the thread does
 * itself. Linux only (setpriority on a thread id sets that thread alone); elsewhere, or where the call
 * is refused, nothing changes. Node names the helpers "V8Worker" from Node 24; Node 22 leaves them the
 * process's name, which other threads (libuv's, the lanes') carry too, so there they keep the service's
 * priority rather than lower a thread that answers.
 */
import { readdirSync, readFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/** How much nicer a batch lane thread is than the thread that started it: the answering thread and the interactive lane win the CPU from it. */
export const BATCH_NICER_BY = 10;

const HELPER_THREAD_NAME = "V8Worker";

/**
 * Lowers the calling thread's CPU priority by BATCH_NICER_BY. On Linux `setpriority(PRIO_PROCESS, 0)`,
 * which os.setPriority() calls, applies to the calling thread alone, so a batch thread gives way
 * whenever a request is waiting for a core, and takes every cycle left over (the machine is otherwise
 * idle, the job runs at full speed). Elsewhere it would lower the whole process, so it is done on Linux
 * only; where the call is refused (a sandbox) the thread simply keeps its priority.
 */
export function yieldThisThread(): void {
  if (process.platform !== "linux") return;
  try {
    // Relative to the nice value the thread inherited, so a service started under `nice` keeps the order
    // (an absolute 10 would, for a process at 19 run by root, put the batch lane above the answering thread).
    setPriority(Math.min(19, getPriority() + BATCH_NICER_BY));
  } catch {
    // Not permitted here: the thread runs at the process's priority, as before.
  }
}

/** Lowers V8's helper threads BATCH_NICER_BY below the calling thread's priority; how many were lowered. */
export function yieldCollectorThreads(): number {
  if (process.platform !== "linux") return 0;
  let lowered = 0;
  try {
    const priority = Math.min(19, getPriority() + BATCH_NICER_BY);
    for (const tid of readdirSync("/proc/self/task")) {
      if (readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() !== HELPER_THREAD_NAME) continue;
      setPriority(Number(tid), priority);
      lowered++;
    }
  } catch {
    // Not permitted, or /proc unreadable here: the helpers keep the process's priority, as before.
  }
  return lowered;
}
