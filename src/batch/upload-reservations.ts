/**
 * Places for uploads being received, held from before a batch upload's body is read until its job
 * is stored or refused: the organization's place among its jobs in flight and stored, and the bytes
 * of uploads, per organization and for the whole process (BATCH_UPLOAD_BYTES_PER_ORG,
 * BATCH_UPLOAD_BYTES_PER_PROCESS; docs/guides/address-resolution.md, "Caps per organization").
 *
 * The two budgets count different bytes. An organization's counts what its uploads declare (or the
 * most an upload may be), before a byte is read: uploads past it are refused while their clients are
 * still sending, and only that organization waits. The process's counts only bytes that have
 * arrived, which is what the process holds: a declared size is a claim, not memory, and four slow
 * uploads declaring 64 MiB each and sending a kilobyte a second held the whole budget and turned
 * every other organization's uploads away. An upload is refused for the process's room only when
 * its next bytes would not fit (503, before or while it is read). And no organization may hold more
 * than half the process's room (the configuration refuses a larger BATCH_UPLOAD_BYTES_PER_ORG), so
 * one organization's uploads never take it all.
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
  /** Counts `bytes` more of the upload as arrived, or answers 503 when the process has no room for them (nothing is counted then). */
  arrive(bytes: number): JobRefusal | null;
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
  /** Bytes of uploads arrived and held by this process. */
  #arrived = 0;

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
   * from the organization's budget, or answers why not: 429 when the organization's would be passed,
   * 503 when the process has no room left at all. Synchronous, so a check and its reservation cannot
   * be split by another upload's.
   */
  reserve(organizationId: string, bytes: number, jobId: string): Reservation | JobRefusal {
    const held = this.#organizations.get(organizationId) ?? { jobIds: new Set<string>(), bytes: 0 };
    const { perOrganization } = this.#budget;
    if (this.#arrived >= this.#budget.perProcess) return this.#busy();
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
    let arrived = 0;
    let released = false;
    return {
      jobId,
      arrive: (more) => {
        if (this.#arrived + more > this.#budget.perProcess) return this.#busy();
        this.#arrived += more;
        arrived += more;
        return null;
      },
      release: () => {
        if (released) return;
        released = true;
        held.jobIds.delete(jobId);
        held.bytes -= bytes;
        this.#arrived -= arrived;
        if (held.jobIds.size === 0) this.#organizations.delete(organizationId);
      },
    };
  }

  #busy(): JobRefusal {
    return {
      ok: false,
      slug: "batch-uploads-busy",
      detail: `This server holds ${this.#arrived} bytes of batch uploads being received, and this upload's next bytes would pass its limit of ${this.#budget.perProcess}. Nothing was stored; try again shortly.`,
      retryAfterSeconds: UPLOADS_BUSY_RETRY_SECONDS,
    };
  }
}
