/**
 * The rate source: the rate table every lookup answers from (the shipped periods with the periods
 * reconciliation recorded laid over them) and how current it is (rates-freshness.ts). Rebuilt at
 * start-up, after each reconciliation here, and when another instance's reconciliation is seen
 * (checked at most every `recheckMs`). Readers ask it for `table` at each use, so a rebuilt table
 * reaches them without anything being swapped into their context.
 */
import { ratesFreshness, type RatesFreshness, type ShippedFreshness } from "./rates-freshness.ts";
import type { RatePeriod, RateTable } from "../rates/rate-table.ts";
import type { Clock } from "../clock.ts";
import { errorFields } from "../error-fields.ts";
import type { Logger } from "../log.ts";
import type { Db } from "../store/database.ts";
import { latestSuccessfulReconciliation, listRecordedPeriods } from "../store/reconciliations.repository.ts";
import type { RecordedRatePeriod } from "../store/reconciliations.tables.ts";
import { mergeTable, type RatesOverlay } from "../rates/overlay-periods.ts";

export function toRatePeriod(row: RecordedRatePeriod): RatePeriod {
  return {
    fips: row.fips,
    component: row.component,
    authority: row.authority,
    rate: row.rate_millionths,
    effectiveFrom: row.effective_from,
    effectiveTo: row.effective_to,
  };
}

export interface RateDataOptions {
  db: Db;
  shipped: RateTable;
  /** What data/meta.json says of the shipped rates: the answer until a reconciliation succeeds here. */
  shippedFreshness: ShippedFreshness;
  /** Where a failed refresh is told: recheck() serves what it knows then, so only the log says why. */
  log: Logger;
  /** The service's clock (src/clock.ts): `recheckMs` is counted on it. */
  clock: Clock;
  recheckMs?: number;
}

export class RateData {
  readonly #options: Required<RateDataOptions>;
  #table: RateTable;
  #recorded: RecordedRatePeriod[] = [];
  #latestId: string | null = null;
  #freshness: RatesFreshness;
  #overlay: RatesOverlay = { key: "shipped", periods: [] };
  #checkedAt = -Infinity;
  #checking: Promise<void> | null = null;

  constructor(options: RateDataOptions) {
    this.#options = { recheckMs: 30_000, ...options };
    this.#table = options.shipped;
    this.#freshness = ratesFreshness(options.shippedFreshness, undefined);
  }

  get table(): RateTable {
    return this.#table;
  }

  get shipped(): RateTable {
    return this.#options.shipped;
  }

  /** What data/meta.json says of the shipped rates. */
  get shippedFreshness(): ShippedFreshness {
    return this.#options.shippedFreshness;
  }

  /** What the table lays over the shipped one, for threads that rebuild it (src/lookup/batch-tasks.ts). */
  get overlay(): RatesOverlay {
    return this.#overlay;
  }

  /** Recorded periods, oldest first. */
  get recorded(): readonly RecordedRatePeriod[] {
    return this.#recorded;
  }

  /** Reads the latest reconciliation and, if it is new, the recorded periods; rebuilds the table then. */
  async refresh(): Promise<void> {
    const { db, shipped, clock } = this.#options;
    const latest = await latestSuccessfulReconciliation(db);
    this.#checkedAt = clock.now().getTime();
    const id = latest?.id ?? null;
    if (id === this.#latestId && this.#table !== shipped) return;
    this.#latestId = id;
    this.#freshness = ratesFreshness(this.#options.shippedFreshness, latest);
    this.#recorded = await listRecordedPeriods(db);
    this.#overlay = { key: `${id ?? "shipped"}:${this.#recorded.length}`, periods: this.#recorded.map(toRatePeriod) };
    this.#table = mergeTable(shipped, this.#overlay.periods);
  }

  /**
   * How current the rates are, checked against the database every `recheckMs`; named for that check,
   * since when it finds a reconciliation another instance recorded it rebuilds `table` first. If the
   * check fails what is already known is served: a rate answer should not fail for it. The failure is
   * logged, once per check, with its cause.
   */
  async recheck(): Promise<RatesFreshness> {
    const elapsed = this.#options.clock.now().getTime() - this.#checkedAt;
    // A clock set back (an operator's correction, a test) must not stretch the wait past recheckMs.
    if (elapsed >= this.#options.recheckMs || elapsed < 0) {
      this.#checking ??= this.refresh()
        .catch((error: unknown) => {
          this.#checkedAt = this.#options.clock.now().getTime();
          this.#options.log({ level: "warn", msg: "could not refresh the rate table: serving the one already read", ...errorFields(error) });
        })
        .finally(() => {
          this.#checking = null;
        });
      await this.#checking;
    }
    return this.#freshness;
  }
}
