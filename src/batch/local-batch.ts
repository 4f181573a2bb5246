/**
 * `buckeye batch`'s parts, so the CLI composes nothing of its own: the lookup service as the service
 * builds it (address-lookups.ts), without a job store; a file read in the batch lane and cut into
 * chunks as large as one Census batch request (the rows the boundary file cannot settle cost one
 * upstream request per chunk); and for each file a memory queue
 * (memory-job-queue.ts) consumed by the same runner as the API's jobs, with the same loops.
 */
import type { BoundaryIndex } from "../boundaries/boundary-index.interface.ts";
import type { ColumnChoice } from "../lookup/export-headers.ts";
import type { LookupService } from "../lookup/lookup-service.ts";
import type { BatchFileReading } from "./read-batch-file.ts";
import type { BatchFileFormat } from "../store/batch-jobs.table.ts";
import { createLookupService, createRunner, type BatchConfig, type LookupSources } from "./address-lookups.ts";
import { runJobTask } from "./job-tasks.ts";
import { MemoryJobQueue, type MemoryJob } from "./memory-job-queue.ts";

export interface LocalBatch {
  lookups: LookupService;
  /** Reads a whole file in the batch lane and cuts it into chunks of at most a Census batch request's rows, with no cap on its rows. */
  read(bytes: Uint8Array, format: BatchFileFormat, choice?: ColumnChoice): Promise<BatchFileReading>;
  /** Resolves every chunk of `job`, each written in input order; settles once the last is written. */
  run(job: MemoryJob): Promise<void>;
  close(): Promise<void>;
}

export function openLocalBatch(config: BatchConfig, sources: LookupSources, boundaries: BoundaryIndex | null, log: (entry: Record<string, unknown>) => void): LocalBatch {
  const lookups = createLookupService(config, sources, boundaries, log);
  return {
    lookups,
    read: (bytes, format, choice) => runJobTask(lookups.pool, "readBatchFile", { bytes, format, maxRows: Number.MAX_SAFE_INTEGER, chunkRows: config.geocoder.batch.rowsPerRequest, ...(choice && { choice }) }),
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
