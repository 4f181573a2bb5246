/**
 * The queue of batch job chunks, as the job runner (job-runner.ts), its one consumer, sees it: claim
 * a group of chunks under a lease, keep the lease alive, have the chunks resolved, complete them, or
 * give up one claimed too often. Two backends: the store's (stored-job-queue.ts), which the API's
 * jobs wait in and which several instances share, and one in memory (memory-job-queue.ts), which
 * `buckeye batch` runs a local file on. Chunks enter the stored queue through the job service
 * (job-service.ts `submitJob`), and the memory queue when it is made.
 */
import type { ChunkDone, ChunkLease } from "../lookup/chunk-work.ts";
import type { GeocoderWaits } from "../lookup/lookup-service.ts";
import type { ClaimedChunk } from "./batch-jobs.repository.ts";

export type { ClaimedChunk };

export interface ClaimLimits {
  leaseMs: number;
  /** Rows claimed and resolved together. */
  groupRows: number;
  /** Jobs one organization may have running at once; its others wait, queued. */
  runningPerOrganization: number;
}

export interface JobQueue {
  /** Whether a claim may find anything now, asked before claiming: cheap, and takes no lock. */
  anyClaimable(): Promise<boolean>;
  /** Chunks worth up to `groupRows` rows, leased to `owner`; none when nothing is claimable. */
  claim(owner: string, limits: ClaimLimits, signal?: AbortSignal): Promise<ClaimedChunk[]>;
  /** What the lookup service resolves for a claimed chunk: its rows, or its lease, under which the batch lane reads and stores them. */
  work(chunk: ClaimedChunk, owner: string): { lease: ChunkLease } | { input: string };
  /**
   * Renews `chunk`'s lease for another `leaseMs`: false when `owner` no longer holds it or its job
   * was deleted, null when the renewal was skipped and the next one will try (see the store's backend).
   */
  extend(chunk: ClaimedChunk, owner: string, leaseMs: number): Promise<boolean | null>;
  /** The group's chunks resolved, in order, with what the lookup service gave back for each. */
  complete(group: readonly ClaimedChunk[], done: readonly ChunkDone[]): Promise<void>;
  /** Who is told while the group's geocoding waits on a failed request to be tried again (a stored job's rows say so); none: nobody. */
  waits(group: readonly ClaimedChunk[]): GeocoderWaits | undefined;
  /** The group could not be resolved: `error` says why. */
  fail(group: readonly ClaimedChunk[], error: unknown): void;
  /** A chunk claimed more than the runner's attempts allow, its rows stored as failures without being resolved; whether it was stored. */
  abandon(chunk: ClaimedChunk, owner: string): Promise<boolean>;
}
