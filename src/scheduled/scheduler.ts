/**
 * Runs the jobs on croner schedules in America/New_York (Ohio's clock: "shortly after midnight"
 * is midnight there, across daylight saving changes). The clock is injected: in production croner's
 * timers fire and each run is stamped with clock.now(); tests never sleep, they move a fake clock
 * and call advanceTo(), which runs every occurrence croner computes up to that instant, in order.
 */
import { Cron } from "croner";
import { systemClock, type Clock } from "../clock.ts";
import { OHIO_TIMEZONE } from "../config.ts";
import { errorFields } from "../error-fields.ts";
import { isLockContention, retryOnLockContention } from "../store/lock-contention.ts";

export const TIMEZONE = OHIO_TIMEZONE;

export type JobRun<R = unknown> = (at: Date) => Promise<R>;

/**
 * Where scheduled occurrences are taken when several instances share one database
 * (src/store/job-runs.repository.ts): every instance's timer fires, only the one that takes the
 * occurrence runs it, so a job fires once per schedule across instances.
 */
export interface OccurrenceLedger<N extends string> {
  take(job: N, scheduledFor: Date): Promise<boolean>;
  finish(job: N, scheduledFor: Date, error: unknown): Promise<void>;
}

export interface SchedulerOptions<N extends string> {
  jobs: Record<N, JobRun>;
  /** A cron pattern per job, read in America/New_York; null turns that schedule off. */
  schedules: Record<N, string | null>;
  clock?: Clock;
  log?: (entry: Record<string, unknown>) => void;
  /** Without one, every scheduled occurrence runs in this process. */
  ledger?: OccurrenceLedger<N>;
}

/**
 * A job that ran to its end but refused what it read (a boundary file "refused", a rate file that
 * "failed") leaves the data as it was, and an operator should hear of it: its line is a warning.
 */
function refusedItsInput(result: unknown): boolean {
  const status = typeof result === "object" && result !== null ? (result as { status?: unknown }).status : undefined;
  return status === "refused" || status === "failed";
}

export class Scheduler<N extends string> {
  readonly #jobs: Record<N, JobRun>;
  readonly #patterns: Map<N, Cron>;
  readonly #clock: Clock;
  readonly #log: (entry: Record<string, unknown>) => void;
  readonly #ledger: OccurrenceLedger<N> | undefined;
  readonly #timers: Cron[] = [];
  readonly #running = new Map<N, Promise<unknown>>();
  #cursor: Date;

  constructor(options: SchedulerOptions<N>) {
    this.#jobs = options.jobs;
    this.#clock = options.clock ?? systemClock;
    this.#log = options.log ?? (() => {});
    this.#ledger = options.ledger;
    this.#patterns = new Map(
      (Object.entries(options.schedules) as Array<[N, string | null]>)
        .filter((entry): entry is [N, string] => entry[1] !== null)
        .map(([name, pattern]) => [name, new Cron(pattern, { timezone: TIMEZONE })]),
    );
    this.#cursor = this.#clock.now();
  }

  get names(): N[] {
    return Object.keys(this.#jobs) as N[];
  }

  /** Starts croner's timers. */
  start(): void {
    for (const [name, pattern] of this.#patterns) {
      const timer = new Cron(pattern.getPattern()!, { timezone: TIMEZONE, protect: true, unref: true }, () => {
        // The occurrence's own instant, not the moment this timer woke: every instance must name it alike.
        const woke = this.#clock.now();
        const scheduledFor = pattern.previousRuns(1, new Date(woke.getTime() + 1000))[0] ?? woke;
        // Every failure on the way was logged where it happened (run, take, #finish).
        void this.#runOccurrence(name, scheduledFor, woke).catch(() => {});
      });
      this.#timers.push(timer);
    }
  }

  /** Stops the timers and waits for runs in progress. */
  async stop(): Promise<void> {
    for (const timer of this.#timers.splice(0)) timer.stop();
    await Promise.allSettled([...this.#running.values()]);
  }

  /**
   * Runs one job now (or as of `at`). Two runs of one job never overlap in a process: a second
   * request waits for the first and then runs. Jobs are idempotent, so overlapping instances are safe too.
   */
  async run(name: N, at: Date = this.#clock.now()): Promise<unknown> {
    const job = this.#jobs[name];
    if (!job) throw new Error(`no job named ${name}; jobs: ${this.names.join(", ")}`);
    const previous = this.#running.get(name) ?? Promise.resolve();
    const current = previous
      .catch(() => {})
      .then(async () => {
        const started = performance.now();
        try {
          // Jobs are idempotent, so one that lost to another writer for the store's lock is simply run again.
          const result = await retryOnLockContention(() => job(at));
          this.#log({ level: refusedItsInput(result) ? "warn" : "info", msg: "job finished", job: name, at: at.toISOString(), ms: Math.round(performance.now() - started), result });
          return result;
        } catch (error) {
          this.#log({ level: isLockContention(error) ? "warn" : "error", msg: "job failed", job: name, at: at.toISOString(), ...errorFields(error) });
          throw error;
        }
      });
    this.#running.set(name, current);
    try {
      return await current;
    } finally {
      if (this.#running.get(name) === current) this.#running.delete(name);
    }
  }

  /** Sets the instant advanceTo() counts from (construction time until then). */
  setCursor(at: Date): void {
    this.#cursor = at;
  }

  /** The next scheduled run of each job after `from`. */
  nextRuns(from: Date = this.#clock.now()): Array<{ job: N; pattern: string; next: Date | null }> {
    return [...this.#patterns].map(([job, cron]) => ({ job, pattern: cron.getPattern()!, next: cron.nextRun(from) }));
  }

  /**
   * Runs, in time order, every scheduled occurrence after the previous advance (or construction)
   * and up to `to`, each stamped with its scheduled instant. Returns what ran.
   */
  async advanceTo(to: Date): Promise<Array<{ job: N; at: Date; result: unknown }>> {
    const due: Array<{ job: N; at: Date }> = [];
    for (const [job, cron] of this.#patterns) {
      let next = cron.nextRun(this.#cursor);
      while (next && next <= to) {
        due.push({ job, at: next });
        next = cron.nextRun(next);
      }
    }
    due.sort((a, b) => a.at.getTime() - b.at.getTime());
    this.#cursor = to;
    const ran: Array<{ job: N; at: Date; result: unknown }> = [];
    for (const { job, at } of due) {
      const occurrence = await this.#runOccurrence(job, at, at);
      if (occurrence.ran) ran.push({ job, at, result: occurrence.result });
    }
    return ran;
  }

  /** Runs a scheduled occurrence if this instance takes it (always, without a ledger). */
  async #runOccurrence(name: N, scheduledFor: Date, at: Date): Promise<{ ran: boolean; result?: unknown }> {
    const ledger = this.#ledger;
    if (!ledger) return { ran: true, result: await this.run(name, at) };
    // Taking and recording an occurrence give way to another writer (a large job's commits on SQLite) and try again: a
    // lost race for the lock is no reason to skip the occurrence.
    const taken = await retryOnLockContention(() => ledger.take(name, scheduledFor)).catch((error: unknown) => {
      this.#log({ level: "error", msg: "could not take job occurrence", job: name, scheduled_for: scheduledFor.toISOString(), ...errorFields(error) });
      throw error;
    });
    if (!taken) {
      this.#log({ level: "debug", msg: "job occurrence taken by another instance", job: name, scheduled_for: scheduledFor.toISOString() });
      return { ran: false };
    }
    try {
      const result = await this.run(name, at);
      await this.#finish(ledger, name, scheduledFor, null);
      return { ran: true, result };
    } catch (error) {
      // The error to rethrow is the one that ended the occurrence; a failure to record it was logged by #finish.
      await this.#finish(ledger, name, scheduledFor, error).catch(() => {});
      throw error;
    }
  }

  /** Records how an occurrence ended; a failure to is logged here, with its cause, and rethrown. */
  async #finish(ledger: OccurrenceLedger<N>, name: N, scheduledFor: Date, error: unknown): Promise<void> {
    try {
      await retryOnLockContention(() => ledger.finish(name, scheduledFor, error));
    } catch (finishError) {
      this.#log({ level: "error", msg: "could not record the end of a job occurrence", job: name, scheduled_for: scheduledFor.toISOString(), ...errorFields(finishError) });
      throw finishError;
    }
  }
}
