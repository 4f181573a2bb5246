/**
 * Results downloads one organization may have in flight at once on this process
 * (BATCH_DOWNLOADS_PER_ORG). Each download reads and renders a job's results on the answering
 * thread, a slice per event-loop turn; six at once from one organization took six of every turn's
 * slices, so the bound keeps one organization's downloads from crowding every other request. Past
 * it a download is refused (429 `batch-downloads-in-flight`) before anything is read.
 */
import type { JobRefusal } from "./job-admission.ts";

/** About how long a large download takes on a fair connection: after it, one of those in flight has most likely ended. */
const DOWNLOADS_BUSY_RETRY_SECONDS = 5;

export class DownloadSlots {
  readonly #perOrganization: number;
  readonly #held = new Map<string, number>();

  constructor(perOrganization: number) {
    this.#perOrganization = perOrganization;
  }

  /** A slot for one download (`release` gives it back, once), or the refusal. */
  take(organizationId: string): { release(): void } | JobRefusal {
    const held = this.#held.get(organizationId) ?? 0;
    if (held >= this.#perOrganization) {
      return {
        ok: false,
        slug: "batch-downloads-in-flight",
        detail: `This organization has ${held} results downloads in progress; the limit is ${this.#perOrganization}. Download again once one has finished.`,
        retryAfterSeconds: DOWNLOADS_BUSY_RETRY_SECONDS,
      };
    }
    this.#held.set(organizationId, held + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#held.get(organizationId) ?? 1) - 1;
        if (left === 0) this.#held.delete(organizationId);
        else this.#held.set(organizationId, left);
      },
    };
  }
}
