/**
 * The resolution ladder for a list of lookups, in two steps around the geocoder, so that the same
 * rules run wherever the list is worked: on the answering thread for a single lookup, and in a
 * batch pool thread for a job's chunks or a large inline batch (lookup-service.ts):
 *
 *   settle:   validate; parse addresses; the state's boundary file (rungs 1, 2: an address range
 *             or ZIP+4 range in effect on the date settles county and transit district); county and
 *             ZIP lookups outright (a ZIP alone from the file's own records for it when the file covers
 *             it, resolve-zip-file.ts); points (lat/lon) placed in our polygons. What is left are
 *             addresses for the geocoder (rung 3), returned as `pending` with the row to send.
 *   complete: the geocoder's outcomes in: matches placed in our polygons; no match, or the
 *             geocoder down, falls back to the ZIP or the ambiguous answer (rung 4, resolve-item.ts).
 *
 * Talking to the geocoder is I/O and stays with the caller. Results come back in input order, one
 * per entry; an entry never fails its neighbours.
 */
import type { BoundaryIndex, BoundaryQuery, ZipSummary } from "../boundaries/boundary-index.interface.ts";
import { parseAddress, type ParsedAddress } from "../geo/address.ts";
import type { BatchAddress, BatchGeocode } from "../geo/census-batch-geocoder.ts";
import type { GeocodeOutcome } from "../geo/geocoder.ts";
import type { RecordContext } from "../rates/records.ts";
import { failure, type ItemResult } from "./item-result.ts";
import { asksBoundaryFile, strategyOf, type LookupItem } from "./lookup-item.ts";
import { resolveByRecord } from "./resolve-by-record.ts";
import { dateProblem, isZipOnly, resolveCoordinates, resolveGeocoded, resolveUngeocoded, resolveWithoutGeography, type ResolverData } from "./resolve-item.ts";
import { addressParts, type AddressParts } from "./street-address.ts";
import type { LocateAnswer } from "./worker-tasks.ts";

/** What the ladder reads, from whichever thread runs it. */
export interface LadderParts {
  /** The rate table and ZIP index, one snapshot for the whole list. */
  data: ResolverData;
  /** The state's boundary file, when there is a store to read it from. */
  boundaries: BoundaryIndex | null;
  /** Why points cannot be placed in polygons at all, or null when the polygon files are there. */
  missingPolygons: string | null;
  locate(points: ReadonlyArray<{ lon: number; lat: number }>): Promise<LocateAnswer>;
}

/** A lookup as read: valid, or already answered by its validation problem; with the context its record carries. */
export interface Entry {
  item: LookupItem | ItemResult;
  context: RecordContext;
}

/** An address the boundary file did not settle: what the geocoder is asked, and what its answer is read against. */
export interface PendingAddress {
  at: number;
  geocode: ParsedAddress;
  /** The row for the Census batch endpoint; its id is `at`. */
  row: BatchAddress;
}

export interface Settled {
  results: Array<ItemResult | null>;
  pending: PendingAddress[];
}

function unavailable(reason: string): ItemResult {
  return failure("boundaries-unavailable", `Address and coordinate lookups need the county and place boundaries, which are not loaded: ${reason}. County and ZIP lookups still work.`, null);
}

/** The ZIP+4 a lookup carries: the zip parameter's, else the address's when its ZIP is the same. */
export function probeQuery(item: LookupItem, parts: AddressParts | null): BoundaryQuery | null {
  const zip5 = item.zip ?? parts?.zip5 ?? null;
  if (zip5 === null) return null;
  const zip4 = item.zip4 ?? (parts?.zip5 === zip5 ? parts.zip4 : null) ?? undefined;
  const street = parts?.street ?? undefined;
  if (street === undefined && zip4 === undefined) return null;
  return { zip5, date: item.date, ...(zip4 !== undefined && { zip4 }), ...(street !== undefined && { street }) };
}

function geocoderRow(at: number, parts: AddressParts, geocode: ParsedAddress): BatchAddress {
  const street = geocode.street ?? parts.streetLine ?? geocode.oneLine;
  const city = geocode.city ?? parts.city;
  const state = geocode.state ?? parts.state;
  const zip = geocode.zip ?? parts.zip5;
  return { id: String(at), street, ...(city !== null && { city }), ...(state !== null && { state }), ...(zip !== null && { zip }) };
}

const itemOf = (entry: Entry): LookupItem | null => ("kind" in entry.item ? null : entry.item);

/** Everything short of the geocoder. */
export async function settle(parts: LadderParts, entries: readonly Entry[]): Promise<Settled> {
  const { data } = parts;
  const results: Array<ItemResult | null> = entries.map((e) => ("kind" in e.item ? e.item : null));
  const addresses = new Map<number, AddressParts>();
  const probes: Array<{ at: number; query: BoundaryQuery }> = [];

  entries.forEach((entry, at) => {
    const item = itemOf(entry);
    if (item === null) return;
    const early = dateProblem(data, item);
    if (early) {
      results[at] = early;
      return;
    }
    const address = item.address !== undefined ? addressParts(item.address) : null;
    if (address) addresses.set(at, address);
    // Without an active version the index answers every probe with null, from its cached pointer.
    const query = parts.boundaries !== null && asksBoundaryFile(item) ? probeQuery(item, address) : null;
    if (query) probes.push({ at, query });
  });

  if (probes.length > 0) {
    const matches = await parts.boundaries!.probeMany(probes.map((p) => p.query));
    probes.forEach(({ at }, k) => {
      const match = matches[k];
      if (match) results[at] = resolveByRecord(data, match, itemOf(entries[at]!)!, entries[at]!.context);
    });
  }

  // A ZIP alone: the file's own records for the ZIP when it covers it (one summary per ZIP and date, cached by the index).
  const zipFiles = new Map<number, ZipSummary | null>();
  if (parts.boundaries !== null) {
    const asked = new Map<string, Promise<ZipSummary | null>>();
    const zipOnly = entries.flatMap((entry, at) => {
      const item = itemOf(entry);
      return item !== null && results[at] === null && isZipOnly(item) ? [{ at, item }] : [];
    });
    for (const { item } of zipOnly) {
      const key = `${item.zip}|${item.date}`;
      if (!asked.has(key)) asked.set(key, parts.boundaries.zipSummary(item.zip, item.date));
    }
    for (const { at, item } of zipOnly) zipFiles.set(at, await asked.get(`${item.zip}|${item.date}`)!);
  }

  const pending: PendingAddress[] = [];
  const points: Array<{ at: number; item: LookupItem & { lat: number; lon: number } }> = [];
  entries.forEach((entry, at) => {
    const item = itemOf(entry);
    if (item === null || results[at] !== null) return;
    const strategy = strategyOf(item);
    if (strategy === "zip4" || strategy === "county-or-zip") results[at] = resolveWithoutGeography(data, item, entry.context, zipFiles.get(at) ?? null);
    else if (parts.missingPolygons !== null) results[at] = unavailable(parts.missingPolygons);
    else if (strategy === "address") {
      const geocode = parseAddress(item.address!);
      pending.push({ at, geocode, row: geocoderRow(at, addresses.get(at)!, geocode) });
    } else points.push({ at, item: item as LookupItem & { lat: number; lon: number } });
  });

  if (points.length > 0) {
    const placed = await parts.locate(points.map(({ item }) => ({ lon: item.lon, lat: item.lat })));
    points.forEach(({ at, item }, k) => {
      results[at] = placed.ok ? resolveCoordinates(data, placed.points[k]!, placed, item, entries[at]!.context) : unavailable(placed.reason);
    });
  }
  return { results, pending };
}

/** The geocoder's outcome for each pending address, in the same order, folded into the results. */
export async function complete(parts: LadderParts, entries: readonly Entry[], settled: Settled, outcomes: readonly GeocodeOutcome[]): Promise<ItemResult[]> {
  const { data } = parts;
  const results = [...settled.results];
  const matched: Array<{ at: number; outcome: Extract<GeocodeOutcome, { kind: "match" }> }> = [];
  settled.pending.forEach(({ at, geocode }, k) => {
    const outcome = outcomes[k]!;
    if (outcome.kind === "match") matched.push({ at, outcome });
    else results[at] = resolveUngeocoded(data, itemOf(entries[at]!)!, geocode, outcome, entries[at]!.context);
  });
  if (matched.length > 0) {
    const placed = await parts.locate(matched.map(({ outcome }) => ({ lon: outcome.lon, lat: outcome.lat })));
    matched.forEach(({ at, outcome }, k) => {
      results[at] = placed.ok ? resolveGeocoded(data, placed.points[k]!, placed, itemOf(entries[at]!)!, outcome, entries[at]!.context) : unavailable(placed.reason);
    });
  }
  return results.map((result) => result!);
}

/** The Census batch endpoint's answers, by row id, as outcomes; a row it left unanswered is `down` when the upstream failed. */
export function batchOutcomes(
  data: ResolverData,
  pending: readonly PendingAddress[],
  answers: ReadonlyMap<string, BatchGeocode>,
  down: Extract<GeocodeOutcome, { kind: "unavailable" }> | null,
): GeocodeOutcome[] {
  return pending.map(({ row }): GeocodeOutcome => {
    const answer = answers.get(row.id);
    if (!answer) return down ?? { kind: "no-match" };
    if (answer.status !== "match") return { kind: "no-match" };
    const county = answer.countyFips === null ? undefined : { geoid: answer.countyFips, name: `${data.table.byFips.get(answer.countyFips)?.name ?? answer.countyFips} County` };
    // The batch answer has no place layer: our polygons decide the incorporated place.
    return { kind: "match", lon: answer.lon, lat: answer.lat, matchedAddress: answer.matchedAddress, county, place: undefined };
  });
}
