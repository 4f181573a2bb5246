/**
 * Lays periods recorded by reconciliation over the shipped ones. Pure. Each recorded period
 * replaces whatever the earlier layers said for its county, component and date range: earlier
 * periods are cut (or split) around it, so the result never has two periods covering one date and
 * the engine's answer does not depend on their order.
 */
import type { IsoDate } from "./calendar.ts";
import { buildRateTable } from "./parse-tables.ts";
import type { RatePeriod, RateTable } from "./rate-table.ts";

function cut(period: RatePeriod, from: IsoDate, to: IsoDate | null): RatePeriod[] {
  const pieces: RatePeriod[] = [];
  if (period.effectiveFrom === null || period.effectiveFrom < from) {
    const end = period.effectiveTo !== null && period.effectiveTo < from ? period.effectiveTo : from;
    pieces.push({ ...period, effectiveTo: end });
  }
  if (to !== null && (period.effectiveTo === null || period.effectiveTo > to)) {
    const start = period.effectiveFrom !== null && period.effectiveFrom > to ? period.effectiveFrom : to;
    pieces.push({ ...period, effectiveFrom: start });
  }
  return pieces;
}

function overlaps(period: RatePeriod, from: IsoDate, to: IsoDate | null): boolean {
  const startsBeforeEnd = to === null || period.effectiveFrom === null || period.effectiveFrom < to;
  const endsAfterStart = period.effectiveTo === null || period.effectiveTo > from;
  return startsBeforeEnd && endsAfterStart;
}

/** `overlays` in the order they were recorded: a later one wins over an earlier one. */
export function overlayPeriods(base: readonly RatePeriod[], overlays: readonly RatePeriod[]): RatePeriod[] {
  let periods = [...base];
  for (const overlay of overlays) {
    const from = overlay.effectiveFrom;
    if (from === null) throw new Error(`a recorded period needs a start date (${overlay.fips} ${overlay.component})`);
    periods = periods.flatMap((p) =>
      p.fips === overlay.fips && p.component === overlay.component && overlaps(p, from, overlay.effectiveTo) ? cut(p, from, overlay.effectiveTo) : [p],
    );
    periods.push(overlay);
  }
  return periods.filter((p) => p.effectiveFrom === null || p.effectiveTo === null || p.effectiveFrom < p.effectiveTo);
}

/** The shipped table with `recorded` laid over it. */
export function mergeTable(shipped: RateTable, recorded: readonly RatePeriod[]): RateTable {
  const base = [...shipped.periods.values()].flat();
  return buildRateTable(shipped.counties, overlayPeriods(base, recorded), [...shipped.districts.values()], shipped.historyStart);
}

/**
 * The recorded periods with a key that changes when they do: what a batch thread is sent so it can
 * rebuild the live table from its own copy of the shipped one (mergeTable), once per key.
 */
export interface RatesOverlay {
  key: string;
  periods: readonly RatePeriod[];
}
