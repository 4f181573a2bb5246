/**
 * `buckeye batch`'s parts, so the CLI composes nothing of its own: the lookup service as the service
 * builds it (address-lookups.ts), without a job store, and for each file a memory queue
 * (memory-job-queue.ts) consumed by the same runner as the API's jobs, with the same loops.
 */
import type { BoundaryIndex } from "../boundaries/boundary-index.interface.ts";
import type { LookupService } from "../lookup/lookup-service.ts";
import { createLookupService, createRunner, type BatchConfig, type LookupSources } from "./address-lookups.ts";
import { MemoryJobQueue, type MemoryJob } from "./memory-job-queue.ts";

export interface LocalBatch {
  lookups: LookupService;
  /** Resolves every chunk of `job`, each written in input order; settles once the last is written. */
  run(job: MemoryJob): Promise<void>;
  close(): Promise<void>;
}

export function openLocalBatch(config: BatchConfig, sources: LookupSources, boundaries: BoundaryIndex | null, log: (entry: Record<string, unknown>) => void): LocalBatch {
  const lookups = createLookupService(config, null, sources, boundaries, log);
  return {
    lookups,
    async run(job) {
      const queue = new MemoryJobQueue(job);
      const runner = createRunner(config, queue, lookups, sources, log);
      runner.start();
      try {
        await queue.done;
      } finally {
        await runner.stop();
      }
    },
    close: () => lookups.close(),
  };
}
