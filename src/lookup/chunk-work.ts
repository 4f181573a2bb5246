/**
 * What the batch lane's chunk tasks take and give back (the thread side is batch-tasks.ts): the lookup
 * service sends inline lists and the job runner (src/batch/job-runner.ts) a job's claimed chunks, and
 * both read these types from here rather than from the thread-side task file.
 */
import type { BatchAddress, BatchGeocode } from "../geo/census-batch-geocoder.ts";
import type { GeocodeOutcome } from "../geo/geocoder.ts";
import type { IsoDate } from "../rates/calendar.ts";
import type { RecordContext } from "../rates/records.ts";
import type { RowResult } from "./item-result.ts";
import type { ResolverData } from "./resolver-inputs.ts";

export interface BatchWorkerData {
  /** The store the state's boundary file is read from; null when the caller has none. */
  databaseUrl: string | null;
  /** The shipped rate table and ZIP index, copied into the thread once. */
  shipped: ResolverData;
}

/** A claimed chunk of a job, held by `owner`. */
export interface ChunkLease {
  jobId: string;
  seq: number;
  owner: string;
}

/**
 * One chunk to resolve, numbered from `firstRow`: an inline list's rows as JSON text (`input`), or a
 * claimed chunk of a job (`lease`), whose rows the thread reads from the store and whose results it
 * stores there, so they never pass through the answering thread.
 */
export type ChunkWork = { firstRow: number; today: IsoDate; context: RecordContext } & ({ input: string; lease?: undefined } | { lease: ChunkLease; input?: undefined });

/**
 * A chunk's counts, and its rows (JSON text of RowResult[]) when it was not stored here; `stored`
 * says whether a leased chunk's results were written (false: its lease was lost or its job deleted, nothing written).
 */
export interface ChunkDone {
  output?: string;
  stored?: boolean;
  done: number;
  failed: number;
}

export type BatchStep = { kind: "done"; chunks: ChunkDone[] } | { kind: "geocode"; rows: BatchAddress[]; state: string };

/** What the Census batch endpoint answered for the rows of a `geocode` step; `down` when it failed. */
export interface Geocoded {
  answers: Array<[string, BatchGeocode]>;
  down: Extract<GeocodeOutcome, { kind: "unavailable" }> | null;
}

/**
 * A chunk's results to store under its lease, with its counts: the rows themselves, which the store
 * serialises as it writes each chunk, so a group's results never exist as text all at once.
 */
export interface ChunkResults {
  jobId: string;
  seq: number;
  /** A lookup job's RowResults, or another kind of job's rows (an orders job's, src/batch/order-results.ts), each numbered and with its id. */
  rows: ReadonlyArray<Pick<RowResult, "row" | "id">>;
  counts: { done: number; failed: number };
}
