/**
 * What a running batch job waits for, as GET /api/v1/batches/{id} shows it (`waiting_for`) and the
 * job row stores it (batch_jobs.waiting_for): today one thing, a failed Census batch request about to
 * be tried again, so a job at `done: 0` during an outage says why instead of looking stuck.
 */
import { errorFields } from "../error-fields.ts";
import type { BatchRetry } from "../geo/census-batch-geocoder.ts";
import { clearJobsWaitingFor, setJobsWaitingFor } from "./batch-jobs.repository.ts";
import type { Db } from "../store/database.ts";
import type { GeocoderWaits } from "../lookup/lookup-service.ts";

export interface WaitingFor {
  reason: "geocoder-retry";
  detail: string;
  /** When the request is tried again; once past, the retry is in flight. */
  retry_at: string;
}

export function geocoderRetryWait(retry: BatchRetry): WaitingFor {
  const at = new Date(retry.at).toISOString();
  return {
    reason: "geocoder-retry",
    detail:
      `Waiting for the Census geocoder (${retry.reason}): retry ${retry.retry} of ${retry.retries} at ${at}. ` +
      "The rows the state's boundary file could not place wait for it; those it still cannot place after the last retry are answered from their ZIP, or fail as geocoder-unavailable.",
    retry_at: at,
  };
}

/** The stored text as the job view shows it; null when nothing is waited for. */
export function readWaitingFor(stored: string | null): WaitingFor | null {
  return stored === null ? null : (JSON.parse(stored) as WaitingFor);
}

/**
 * The waits of one geocoding step of stored jobs, written on their rows as they come (`onRetry`) and
 * cleared once the step is over (`clear`), in order. Only a step that waited writes at all, so a job
 * whose geocoder answers costs no extra write. A write that fails is logged: the job's work goes on.
 */
export class JobWaits implements GeocoderWaits {
  readonly #db: Db;
  readonly #jobIds: readonly string[];
  readonly #log: (entry: Record<string, unknown>) => void;
  #writes: Promise<void> = Promise.resolve();
  #written: string | null = null;

  constructor(db: Db, jobIds: readonly string[], log: (entry: Record<string, unknown>) => void) {
    this.#db = db;
    this.#jobIds = jobIds;
    this.#log = log;
  }

  readonly onRetry = (retry: BatchRetry): void => {
    const text = JSON.stringify(geocoderRetryWait(retry));
    this.#written = text;
    this.#then(() => setJobsWaitingFor(this.#db, this.#jobIds, text));
  };

  /** Clears the wait this step wrote, if any; resolves once every write of the step is done. */
  clear(): Promise<void> {
    const text = this.#written;
    this.#written = null;
    if (text !== null) this.#then(() => clearJobsWaitingFor(this.#db, this.#jobIds, text));
    return this.#writes;
  }

  #then(write: () => Promise<void>): void {
    this.#writes = this.#writes.then(write).catch((error: unknown) => this.#log({ level: "warn", msg: "a batch job's waiting_for could not be written", jobs: this.#jobIds, ...errorFields(error) }));
  }
}
