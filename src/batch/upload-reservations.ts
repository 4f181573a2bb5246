/**
 * Places for uploads being received, held from before a batch upload's body is read until its job
 * is stored or refused: the organization's place among its jobs in flight and stored, and the bytes
 * it may upload at once, per organization and for the whole process (BATCH_UPLOAD_BYTES_PER_ORG,
 * BATCH_UPLOAD_BYTES_PER_PROCESS). So uploads sent at once are counted before they are read: the
 * ones past a cap are refused while their client is still sending, and what the process holds of
 * uploads at any moment is bounded (docs/guides/address-resolution.md, "Caps per organization").
 *
 * The places are this process's: another instance keeps its own, and the check inside the
 * transaction that stores a job (job-admission.ts) holds the job caps across instances.
 */
import type { JobRefusal } from "./job-admission.ts";

export interface UploadBudget {
  /** Bytes one organization may have being uploaded at once to this process. */
  perOrganization: number;
  /** Bytes all organizations together may have being uploaded at once to this process. */
  perProcess: number;
}

/**
 * An upload's places; `release` gives them back (once; later calls do nothing). `jobId` is the id
 * its job is stored under if it is accepted, so a count can tell the job stored from the upload.
 */
export interface Reservation {
  readonly jobId: string;
  release(): void;
}

/**
 * Retry-After of an upload refused for bytes in flight: about how long a 64 MiB upload and its
 * storing take on a fair connection, after which one of those in flight has most likely finished.
 */
const UPLOADS_BUSY_RETRY_SECONDS = 10;

export class UploadReservations {
  readonly #budget: UploadBudget;
  /** Per organization: the jobs its uploads being received will be, and the bytes they may bring. */
  readonly #organizations = new Map<string, { jobIds: Set<string>; bytes: number }>();
  #bytes = 0;

  constructor(budget: UploadBudget) {
    this.#budget = budget;
  }

  /**
   * The jobs of the uploads the organization has being received here: each will be a job in flight
   * and a job stored if it is accepted. One may be stored already, its answer still on its way.
   */
  jobIds(organizationId: string): string[] {
    return [...(this.#organizations.get(organizationId)?.jobIds ?? [])];
  }

  /**
   * Takes `bytes` (the upload's declared length, or the most an upload may be when it declares none)
   * for the organization, or answers why not: 503 when the process's budget would be passed, 429
   * when the organization's would. Synchronous, so a check and its reservation cannot be split by
   * another upload's.
   */
  reserve(organizationId: string, bytes: number, jobId: string): Reservation | JobRefusal {
    const held = this.#organizations.get(organizationId) ?? { jobIds: new Set<string>(), bytes: 0 };
    const { perOrganization, perProcess } = this.#budget;
    if (this.#bytes + bytes > perProcess) {
      return {
        ok: false,
        slug: "batch-uploads-busy",
        detail: `This server is receiving ${this.#bytes} bytes of batch uploads; with this one's ${bytes} it would pass its limit of ${perProcess}. Try again shortly.`,
        retryAfterSeconds: UPLOADS_BUSY_RETRY_SECONDS,
      };
    }
    if (held.bytes + bytes > perOrganization) {
      return {
        ok: false,
        slug: "batch-uploads-in-flight",
        detail: `This organization is uploading ${held.bytes} bytes of batch files at once; with this one's ${bytes} it would pass its limit of ${perOrganization}. Send it once an upload in progress has been answered${bytes === 0 ? "" : ", and send Content-Length so only the file's size is counted"}.`,
        retryAfterSeconds: UPLOADS_BUSY_RETRY_SECONDS,
      };
    }
    held.jobIds.add(jobId);
    held.bytes += bytes;
    this.#organizations.set(organizationId, held);
    this.#bytes += bytes;
    let released = false;
    return {
      jobId,
      release: () => {
        if (released) return;
        released = true;
        held.jobIds.delete(jobId);
        held.bytes -= bytes;
        this.#bytes -= bytes;
        if (held.jobIds.size === 0) this.#organizations.delete(organizationId);
      },
    };
  }
}
