/**
 * The lookup pipeline every address-capable entry point shares: GET /rates (a batch of one),
 * POST /rates/batch, batch job chunks and `buckeye batch`.
 *
 *   pool: validate, parse and normalise, answer county / ZIP / lat-lon lookups outright
 *   main: geocode the addresses (I/O, bounded concurrency, cached, behind a circuit breaker)
 *   pool: point-in-polygon and rate evaluation for the geocoded ones
 *
 * Results come back in input order, one per item; an item never fails its neighbours.
 */
import type PQueue from "p-queue";
import type { Geocoder } from "../geo/geocoder.ts";
import type { GeoPool } from "../geo/pool.ts";
import type { IsoDate } from "../rates/calendar.ts";
import type { RatesOverlay } from "../rates/overlay-periods.ts";
import type { RecordContext } from "../rates/records.ts";
import type { Prepared, SettleInput } from "./geo-tasks.ts";
import type { ItemResult } from "./item-result.ts";

export interface Pipeline {
  pool: GeoPool;
  geocoder: Geocoder;
  /** Shared by every caller, so the upstream sees at most GEOCODER_CONCURRENCY calls at once. */
  geocodeQueue: PQueue;
  /** The periods reconciliation recorded, read per call: the worker threads answer from them too. */
  overlay: () => RatesOverlay;
}

export interface RunOptions {
  today: IsoDate;
  context: RecordContext;
  signal?: AbortSignal;
}

export interface Answer {
  id: string | null;
  result: ItemResult;
}

export async function finishPrepared(pipeline: Pipeline, prepared: Prepared[], options: RunOptions): Promise<Answer[]> {
  const results: Array<ItemResult | null> = prepared.map((p) => (p.kind === "done" ? p.result : null));
  const answers = () => prepared.map((p, i) => ({ id: p.id, result: results[i]! }));
  const waiting = prepared.flatMap((p, index) => (p.kind === "geocode" ? [{ index, item: p.item, address: p.address }] : []));
  if (waiting.length === 0) return answers();

  const entries: SettleInput["entries"] = await Promise.all(
    waiting.map(async ({ item, address }) => {
      const outcome = await pipeline.geocodeQueue.add(() => pipeline.geocoder.geocode(address, options.signal), { signal: options.signal });
      return { item, address, outcome: outcome! };
    }),
  );
  const settled = await pipeline.pool.run("settle", { entries, context: options.context, overlay: pipeline.overlay() }, options.signal);
  waiting.forEach(({ index }, i) => (results[index] = settled[i]!));
  return answers();
}

export async function resolveLookups(pipeline: Pipeline, items: unknown[] | string, options: RunOptions): Promise<Answer[]> {
  const prepared = await pipeline.pool.run("prepare", { items, today: options.today, context: options.context, overlay: pipeline.overlay() }, options.signal);
  return finishPrepared(pipeline, prepared, options);
}
