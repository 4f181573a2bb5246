/**
 * Whether an organization may store one more batch job (BATCH_JOBS_IN_FLIGHT_PER_ORG and
 * BATCH_JOBS_STORED_PER_ORG), as a rule on its counts. It is asked twice: by the answering thread
 * before an upload is read, its counts including the uploads this process is receiving for the
 * organization (src/batch/upload-reservations.ts), so a refused one costs no reading, and by the batch thread inside the
 * transaction that stores the job, under the organization's lock, so uploads sent at once cannot
 * all pass the first check and overshoot the caps together.
 */

/** Jobs one organization may have queued or running, and stored at all (completed ones count until deleted). */
export interface JobCaps {
  inFlightPerOrganization: number;
  storedPerOrganization: number;
}

/** Why a job is not accepted; `retryAfterSeconds` when waiting is the remedy. */
export type JobRefusal = {
  ok: false;
  slug: "bad-request" | "batch-too-large" | "batch-jobs-in-flight" | "batch-jobs-stored" | "batch-uploads-in-flight" | "batch-uploads-busy" | "batch-downloads-in-flight";
  detail: string;
  retryAfterSeconds?: number;
};

/**
 * Retry-After of a job refused for the organization's jobs in flight: about how long a chunk group
 * takes, after which a job of theirs may have completed. Polling a job says exactly when it did.
 */
const JOBS_IN_FLIGHT_RETRY_SECONDS = 30;

/**
 * Null, or the refusal. A full queue comes first (429 batch-jobs-in-flight: one of its jobs completing
 * helps, and the jobs it holds are the ones still changing), then a full store (409 batch-jobs-stored: only
 * deleting jobs helps, waiting does not). When both are full, the store may be full only for the moment:
 * uploads sent at once each count as a job until the batch lane stores or refuses them, so a client told
 * 409 then would delete jobs it still wants; told 429, it retries and learns of the store then.
 */
export function jobCapRefusal(counts: { inFlight: number; stored: number; uploading?: number }, caps: JobCaps): JobRefusal | null {
  const uploading = counts.uploading ? ` (${counts.uploading} of them still being uploaded)` : "";
  if (counts.inFlight >= caps.inFlightPerOrganization) {
    return {
      ok: false,
      slug: "batch-jobs-in-flight",
      detail: `This organization has ${counts.inFlight} batch jobs queued or running${uploading}; the limit is ${caps.inFlightPerOrganization}. Submit again once one completes.`,
      retryAfterSeconds: JOBS_IN_FLIGHT_RETRY_SECONDS,
    };
  }
  if (counts.stored >= caps.storedPerOrganization) {
    return {
      ok: false,
      slug: "batch-jobs-stored",
      detail: `This organization keeps ${counts.stored} batch jobs${uploading}; the limit is ${caps.storedPerOrganization}. Delete jobs whose results you have (DELETE /api/v1/batches/{id}), then submit again.`,
    };
  }
  return null;
}
