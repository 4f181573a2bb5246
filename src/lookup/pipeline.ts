/**
 * The lookup pipeline every entry point shares: GET /rates, POST /rates/batch, batch job chunks
 * and `buckeye batch`. For a list of lookups:
 *
 *   here: validate, parse addresses, answer county / ZIP lookups outright
 *   here: geocode the addresses (I/O, bounded concurrency, cached, behind a circuit breaker)
 *   pool: place every point (lat/lon items and geocoded matches) in our polygons, in one task
 *   here: evaluate the rates (pure, microseconds) from the live rate table
 *
 * So a list costs at most one thread round trip, whatever its length, and none when no point
 * needs placing. Results come back in input order, one per item; an item never fails its neighbours.
 */
import type PQueue from "p-queue";
import { parseAddress, type ParsedAddress } from "../geo/address.ts";
import type { GeocodeOutcome, Geocoder } from "../geo/geocoder.ts";
import type { IsoDate } from "../rates/calendar.ts";
import type { RecordContext } from "../rates/records.ts";
import { failure, type ItemResult } from "./item-result.ts";
import { rawId, readLookupItem, type LookupItem } from "./lookup-item.ts";
import { dateProblem, resolveCoordinates, resolveGeocoded, resolveUngeocoded, resolveWithoutGeography, type ResolverData } from "./resolve-item.ts";
import type { GeoPool } from "./worker-pool.ts";

export interface Pipeline {
  pool: GeoPool;
  geocoder: Geocoder;
  /** Shared by every caller, so the upstream sees at most GEOCODER_CONCURRENCY calls at once. */
  geocodeQueue: PQueue;
  /** The rate table and ZIP index the API answers from, read per call: reconciliation swaps the table. */
  rates: () => ResolverData;
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

/** A lookup as read: valid, or already answered by its validation problem. */
export type ReadItem = { id: string | null; item: LookupItem } | { id: string | null; result: ItemResult };

function unavailable(reason: string): ItemResult {
  return failure("boundaries-unavailable", `Address and coordinate lookups need the county and place boundaries, which are not loaded: ${reason}. County and ZIP lookups still work.`, null);
}

type Geocoded = { index: number; item: LookupItem; address: ParsedAddress; outcome?: GeocodeOutcome };

/** Validated lookups through the pipeline. */
export async function resolveItems(pipeline: Pipeline, read: readonly ReadItem[], options: RunOptions): Promise<Answer[]> {
  const data = pipeline.rates();
  const { context } = options;
  const results: Array<ItemResult | null> = read.map((r) => ("result" in r ? r.result : null));
  const addresses: Geocoded[] = [];
  const points: Array<{ index: number; item: LookupItem & { lat: number; lon: number } }> = [];
  const missing = pipeline.pool.missingPolygons;

  read.forEach((entry, index) => {
    if ("result" in entry) return;
    const { item } = entry;
    const early = dateProblem(data, item);
    if (early) results[index] = early;
    else if (item.address === undefined && item.lat === undefined) results[index] = resolveWithoutGeography(data, item, context);
    else if (missing !== null) results[index] = unavailable(missing);
    else if (item.address !== undefined) addresses.push({ index, item, address: parseAddress(item.address) });
    else points.push({ index, item: item as LookupItem & { lat: number; lon: number } });
  });

  await Promise.all(
    addresses.map(async (entry) => {
      entry.outcome = (await pipeline.geocodeQueue.add(() => pipeline.geocoder.geocode(entry.address, options.signal), { signal: options.signal }))!;
    }),
  );
  const matched: Array<Geocoded & { outcome: Extract<GeocodeOutcome, { kind: "match" }> }> = [];
  for (const entry of addresses) {
    const outcome = entry.outcome!;
    if (outcome.kind === "match") matched.push({ ...entry, outcome });
    else results[entry.index] = resolveUngeocoded(data, entry.item, entry.address, outcome, context);
  }

  const toPlace = [...points.map((p) => ({ lon: p.item.lon, lat: p.item.lat })), ...matched.map((m) => ({ lon: m.outcome.lon, lat: m.outcome.lat }))];
  if (toPlace.length > 0) {
    const placed = await pipeline.pool.run("locate", toPlace, options.signal);
    points.forEach(({ index, item }, i) => {
      results[index] = placed.ok ? resolveCoordinates(data, placed.points[i]!, placed, item, context) : unavailable(placed.reason);
    });
    matched.forEach(({ index, item, outcome }, i) => {
      results[index] = placed.ok ? resolveGeocoded(data, placed.points[points.length + i]!, placed, item, outcome, context) : unavailable(placed.reason);
    });
  }
  return read.map((entry, i) => ({ id: entry.id, result: results[i]! }));
}

/** Raw lookups (JSON items, batch rows, or a stored chunk as its JSON text) through the pipeline. */
export function resolveLookups(pipeline: Pipeline, raws: readonly unknown[] | string, options: RunOptions): Promise<Answer[]> {
  const list = typeof raws === "string" ? (JSON.parse(raws) as unknown[]) : raws;
  const read = list.map((raw): ReadItem => {
    const item = readLookupItem(raw, options.today);
    return "kind" in item ? { id: rawId(raw), result: item } : { id: item.id, item };
  });
  return resolveItems(pipeline, read, options);
}
