/**
 * The lookup pipeline every entry point shares: GET /rates, POST /rates/batch, batch job chunks
 * and `buckeye batch`. For a list of lookups it climbs the ladder (issue 9 §3):
 *
 *   here: validate; parse addresses; answer county / ZIP lookups outright
 *   1, 2: the state's boundary file, one probe for the whole list (store I/O): an address range
 *         (A) or ZIP+4 range (4) record in effect on the date settles county and transit district
 *   3:    the rest are geocoded: one call each for a single lookup (cached, behind a circuit
 *         breaker), the Census batch endpoint for a list (one request per 10,000 rows)
 *   pool: every point (lat/lon items and geocoded matches) placed in our polygons, in one task
 *   4:    no match, or the geocoder down: the ZIP, or the ambiguous answer (resolve-item.ts)
 *   here: rates evaluated (pure, microseconds) from the live rate table
 *
 * So a list costs at most one thread round trip, whatever its length, and none when the file or
 * the county/ZIP rules answer everything. Results come back in input order, one per item; an
 * item never fails its neighbours.
 */
import type PQueue from "p-queue";
import type { BoundaryIndex, BoundaryQuery } from "../boundaries/probe.ts";
import { parseAddress, type ParsedAddress } from "../geo/address.ts";
import { BatchGeocoderUnavailableError, type BatchAddress, type BatchGeocode } from "../geo/census-batch-geocoder.ts";
import { GeocoderUnavailableError, type GeocodeOutcome, type Geocoder } from "../geo/geocoder.ts";
import type { IsoDate } from "../rates/calendar.ts";
import type { RecordContext } from "../rates/records.ts";
import { failure, type ItemResult } from "./item-result.ts";
import { rawId, readLookupItem, type LookupItem } from "./lookup-item.ts";
import { resolveByRecord } from "./resolve-by-record.ts";
import { dateProblem, resolveCoordinates, resolveGeocoded, resolveUngeocoded, resolveWithoutGeography, type ResolverData } from "./resolve-item.ts";
import { addressParts, type AddressParts } from "./street-address.ts";
import type { GeoPool } from "./worker-pool.ts";

export interface Pipeline {
  pool: GeoPool;
  geocoder: Geocoder;
  /** Shared by every caller, so the upstream sees at most GEOCODER_CONCURRENCY single calls at once. */
  geocodeQueue: PQueue;
  /** The Census batch endpoint (src/geo/census-batch-geocoder.ts), for lists. */
  geocodeBatch: (addresses: readonly BatchAddress[], signal?: AbortSignal) => Promise<Map<string, BatchGeocode>>;
  /** The state's boundary file, when the service has a store to read it from. */
  boundaries: BoundaryIndex | null;
  /** The rate table and ZIP index the API answers from, read per call: reconciliation swaps the table. */
  rates: () => ResolverData;
}

/** A single lookup asks the single-address geocoder; a list, the batch endpoint. */
export type Geocoding = "single" | "batch";

export interface RunOptions {
  today: IsoDate;
  context: RecordContext;
  geocoding: Geocoding;
  signal?: AbortSignal;
}

export interface Answer {
  id: string | null;
  result: ItemResult;
}

/** A lookup as read: valid, or already answered by its validation problem; with the context its record carries. */
export interface Entry {
  item: LookupItem | ItemResult;
  context: RecordContext;
}

function unavailable(reason: string): ItemResult {
  return failure("boundaries-unavailable", `Address and coordinate lookups need the county and place boundaries, which are not loaded: ${reason}. County and ZIP lookups still work.`, null);
}

interface AddressWork {
  index: number;
  item: LookupItem;
  parts: AddressParts;
  geocode: ParsedAddress;
}

/** The ZIP+4 a lookup carries: the zip parameter's, else the address's when its ZIP is the same. */
function probeQuery(item: LookupItem, parts: AddressParts | null): BoundaryQuery | null {
  const zip5 = item.zip ?? parts?.zip5 ?? null;
  if (zip5 === null) return null;
  const zip4 = item.zip4 ?? (parts?.zip5 === zip5 ? parts.zip4 : null) ?? undefined;
  const street = parts?.street ?? undefined;
  if (street === undefined && zip4 === undefined) return null;
  return { zip5, date: item.date, ...(zip4 !== undefined && { zip4 }), ...(street !== undefined && { street }) };
}

/** Rung 3 for a list: one batch upload; an outage answers every row it left unanswered as `unavailable`. */
async function geocodeList(pipeline: Pipeline, data: ResolverData, work: readonly AddressWork[], signal?: AbortSignal): Promise<GeocodeOutcome[]> {
  const rows: BatchAddress[] = work.map(({ index, parts, geocode }) => {
    const fields = { street: geocode.street ?? parts.streetLine ?? geocode.oneLine, city: geocode.city ?? parts.city, state: geocode.state ?? parts.state, zip: geocode.zip ?? parts.zip5 };
    return {
      id: String(index),
      street: fields.street,
      ...(fields.city !== null && { city: fields.city }),
      ...(fields.state !== null && { state: fields.state }),
      ...(fields.zip !== null && { zip: fields.zip }),
    };
  });
  let answers: ReadonlyMap<string, BatchGeocode>;
  let down: Extract<GeocodeOutcome, { kind: "unavailable" }> | null = null;
  try {
    answers = await pipeline.geocodeBatch(rows, signal);
  } catch (error) {
    if (!(error instanceof GeocoderUnavailableError)) throw error;
    answers = error instanceof BatchGeocoderUnavailableError ? error.partial : new Map();
    down = { kind: "unavailable", reason: error.reason, retryAfterSeconds: error.retryAfterSeconds };
  }
  return rows.map((row): GeocodeOutcome => {
    const answer = answers.get(row.id);
    if (!answer) return down ?? { kind: "no-match" };
    if (answer.status !== "match") return { kind: "no-match" };
    const county = answer.countyFips === null ? undefined : { geoid: answer.countyFips, name: `${data.table.byFips.get(answer.countyFips)?.name ?? answer.countyFips} County` };
    // The batch answer has no place layer: our polygons decide the incorporated place.
    return { kind: "match", lon: answer.lon, lat: answer.lat, matchedAddress: answer.matchedAddress, county, place: undefined };
  });
}

/** Rung 3 for a single lookup: the single-address geocoder, through the shared queue. */
function geocodeEach(pipeline: Pipeline, work: readonly AddressWork[], signal?: AbortSignal): Promise<GeocodeOutcome[]> {
  return Promise.all(work.map(async ({ geocode }) => (await pipeline.geocodeQueue.add(() => pipeline.geocoder.geocode(geocode, signal), { signal }))!));
}

/** Lookups, each with its own context, through the ladder; one result per entry, in order. */
export async function resolveEntries(pipeline: Pipeline, entries: readonly Entry[], options: { geocoding: Geocoding; signal?: AbortSignal }): Promise<ItemResult[]> {
  const data = pipeline.rates();
  const results: Array<ItemResult | null> = entries.map((e) => ("kind" in e.item ? e.item : null));
  const items = entries.map((e) => ("kind" in e.item ? null : e.item));
  const parts = new Map<number, AddressParts>();
  const index = pipeline.boundaries;
  const probes: Array<{ at: number; query: BoundaryQuery }> = [];

  items.forEach((item, at) => {
    if (item === null) return;
    const early = dateProblem(data, item);
    if (early) {
      results[at] = early;
      return;
    }
    const address = item.address !== undefined ? addressParts(item.address) : null;
    if (address) parts.set(at, address);
    // DESIGN §3: a county wins over a ZIP, so only an address, or a ZIP+4 alone, asks the file.
    const asks = address !== null || (item.lat === undefined && item.county === undefined && item.zip4 !== undefined);
    // Without an active version the index answers every probe with null, from its cached pointer.
    const query = index !== null && asks ? probeQuery(item, address) : null;
    if (query) probes.push({ at, query });
  });

  if (probes.length > 0) {
    const matches = await index!.probeMany(probes.map((p) => p.query));
    probes.forEach(({ at }, k) => {
      const match = matches[k];
      if (match) results[at] = resolveByRecord(data, match, items[at]!, entries[at]!.context);
    });
  }

  const missing = pipeline.pool.missingPolygons;
  const addresses: AddressWork[] = [];
  const points: Array<{ at: number; item: LookupItem & { lat: number; lon: number } }> = [];
  items.forEach((item, at) => {
    if (item === null || results[at] !== null) return;
    if (item.address === undefined && item.lat === undefined) results[at] = resolveWithoutGeography(data, item, entries[at]!.context);
    else if (missing !== null) results[at] = unavailable(missing);
    else if (item.address !== undefined) addresses.push({ index: at, item, parts: parts.get(at)!, geocode: parseAddress(item.address) });
    else points.push({ at, item: item as LookupItem & { lat: number; lon: number } });
  });

  const outcomes =
    addresses.length === 0 ? [] : options.geocoding === "batch" ? await geocodeList(pipeline, data, addresses, options.signal) : await geocodeEach(pipeline, addresses, options.signal);
  const matched: Array<AddressWork & { outcome: Extract<GeocodeOutcome, { kind: "match" }> }> = [];
  addresses.forEach((work, k) => {
    const outcome = outcomes[k]!;
    if (outcome.kind === "match") matched.push({ ...work, outcome });
    else results[work.index] = resolveUngeocoded(data, work.item, work.geocode, outcome, entries[work.index]!.context);
  });

  const toPlace = [...points.map((p) => ({ lon: p.item.lon, lat: p.item.lat })), ...matched.map((m) => ({ lon: m.outcome.lon, lat: m.outcome.lat }))];
  if (toPlace.length > 0) {
    const placed = await pipeline.pool.run("locate", toPlace, options.signal);
    points.forEach(({ at, item }, k) => {
      results[at] = placed.ok ? resolveCoordinates(data, placed.points[k]!, placed, item, entries[at]!.context) : unavailable(placed.reason);
    });
    matched.forEach(({ index: at, item, outcome }, k) => {
      results[at] = placed.ok ? resolveGeocoded(data, placed.points[points.length + k]!, placed, item, outcome, entries[at]!.context) : unavailable(placed.reason);
    });
  }
  return results.map((result) => result!);
}

/** Raw lookups (JSON items, batch rows, or a stored chunk as its JSON text), validated; with their ids. */
export function readLookups(raws: readonly unknown[] | string, today: IsoDate): Array<{ id: string | null; item: LookupItem | ItemResult }> {
  const list = typeof raws === "string" ? (JSON.parse(raws) as unknown[]) : raws;
  return list.map((raw) => {
    const item = readLookupItem(raw, today);
    return { id: "kind" in item ? rawId(raw) : item.id, item };
  });
}

/** Raw lookups through the pipeline, all with one context. */
export async function resolveLookups(pipeline: Pipeline, raws: readonly unknown[] | string, options: RunOptions): Promise<Answer[]> {
  const read = readLookups(raws, options.today);
  const results = await resolveEntries(
    pipeline,
    read.map(({ item }) => ({ item, context: options.context })),
    options,
  );
  return read.map(({ id }, i) => ({ id, result: results[i]! }));
}
