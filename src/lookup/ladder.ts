/**
 * The resolution ladder for a list of lookups, in two steps around the geocoder, so that the same
 * rules run wherever the list is worked: on the answering thread for a single lookup, and in a
 * batch pool thread for a job's chunks or a large inline batch (lookup-service.ts):
 *
 *   settle:   validate; match addresses against the streets the state's boundary file holds
 *             (address-match.ts) and probe the file (rungs 1, 2: an address range or ZIP+4 range
 *             in effect on the date settles county and transit district); county and
 *             ZIP lookups outright (a ZIP alone from the file's own records for it when the file covers
 *             it, resolve-zip-file.ts); points (lat/lon) placed in our polygons. What is left are
 *             addresses for the geocoder (rung 3), returned as `pending` with the row to send.
 *   complete: the geocoder's outcomes in: matches placed in our polygons; no match, or the
 *             geocoder down, falls back to the ZIP or the ambiguous answer (rung 4, resolve-item.ts).
 *
 * Talking to the geocoder is I/O and stays with the caller. Results come back in input order, one
 * per entry; an entry never fails its neighbours.
 */
import type { BoundaryIndex, BoundaryMatch, BoundaryQuery, ZipSummary } from "../boundaries/boundary-index.interface.ts";
import { parseAddress, type ParsedAddress } from "../geo/address.ts";
import type { BatchAddress, BatchGeocode } from "../geo/census-batch-geocoder.ts";
import type { GeocodeOutcome } from "../geo/geocoder.ts";
import type { RecordContext } from "../rates/records.ts";
import { failure, type ItemResult } from "./item-result.ts";
import { asksBoundaryFile, strategyOf, type LookupItem } from "./lookup-item.ts";
import { resolveByRecord } from "./resolve-by-record.ts";
import { dateProblem, isZipOnly, resolveCoordinates, resolveGeocoded, resolveUngeocoded, resolveWithoutGeography } from "./resolve-item.ts";
import type { StreetIndex } from "../boundaries/street-index.ts";
import type { BoundaryFileMiss } from "../rates/records.ts";
import { matchAddress, type AddressMatch } from "./address-match.ts";
import { addressParts, type AddressParts } from "./street-address.ts";
import type { LocateAnswer, ResolverData } from "./resolver-inputs.ts";

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
  /** Why the boundary file did not settle it, when the file was asked. */
  miss: BoundaryFileMiss | null;
}

export interface Settled {
  results: Array<ItemResult | null>;
  pending: PendingAddress[];
}

/** The probes of one lookup: an address's street in each ZIP it may be in, or a ZIP+4 alone. */
interface Probed {
  at: number;
  queries: BoundaryQuery[];
  match: AddressMatch | null;
}

function unavailable(reason: string): ItemResult {
  return failure("boundaries-unavailable", `Address and coordinate lookups need the county and place boundaries, which are not loaded: ${reason}. County and ZIP lookups still work.`, null);
}

/**
 * What the file is asked of an address: its street in each ZIP the matcher found it in (the house
 * number and unit checked against the ranges there), or, without a street, its ZIP+4 alone.
 */
export function addressQueries(item: LookupItem, match: AddressMatch): BoundaryQuery[] {
  if (match.kind === "street") {
    return match.candidates.map(({ zip5, street }) => ({
      zip5,
      date: item.date,
      street: { houseNumber: match.houseNumber, streetName: street, ...(match.unit !== null && { unit: match.unit }) },
      filedStreet: street,
      ...(match.candidates.length === 1 && (item.zip4 ?? match.zip4) !== null && { zip4: (item.zip4 ?? match.zip4)! }),
    }));
  }
  const zip5 = item.zip ?? match.zip5;
  const zip4 = item.zip4 ?? (match.zip5 === zip5 ? match.zip4 : null);
  return zip5 !== null && zip4 !== null ? [{ zip5, zip4, date: item.date }] : [];
}

/** Why the file did not answer: the matcher's miss, or what the probe found of the street it matched. */
function missOf(match: AddressMatch, found: readonly BoundaryMatch[]): BoundaryFileMiss {
  const candidates = match.candidates.map(({ zip5, street }) => ({ zip: zip5, street }));
  if (match.kind === "miss") return { reason: match.reason, candidates };
  return { reason: found.length > 1 ? "ambiguous_record" : "number_outside_ranges", candidates };
}

/**
 * The probe of a ZIP+4 alone (parts null): its ZIP+4 range. With an address split by street-address.ts,
 * the probe as it was before the matcher, which bench/address-corpus.ts measures as its "before".
 */
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

/** What the file says of one lookup: the record that settles it, or why none does (for an address). */
export interface FileAnswer {
  record: BoundaryMatch | null;
  miss: BoundaryFileMiss | null;
}

/**
 * Rungs 1 and 2 for a list: each address matched against the file's streets and probed, each
 * ZIP+4 alone probed, all in one probeMany. Null for a lookup the file is not asked (see
 * asksBoundaryFile), and for every address when no file is active.
 */
export async function askBoundaryFile(boundaries: BoundaryIndex, items: ReadonlyArray<LookupItem | null>): Promise<Array<FileAnswer | null>> {
  const answers: Array<FileAnswer | null> = items.map(() => null);
  // The active file's streets, once for the list (read once per version by the index); null without a file.
  const streets: StreetIndex | null = items.some((item) => item?.address !== undefined) ? await boundaries.streets() : null;
  const probed: Probed[] = [];
  items.forEach((item, at) => {
    if (item === null || !asksBoundaryFile(item)) return;
    if (item.address === undefined) {
      const query = probeQuery(item, null);
      if (query) probed.push({ at, queries: [query], match: null });
    } else if (streets !== null) {
      const match = matchAddress(item.address, streets, item.zip ?? null);
      probed.push({ at, queries: addressQueries(item, match), match });
    }
  });
  if (probed.length === 0) return answers;
  const matches = await boundaries.probeMany(probed.flatMap((p) => p.queries));
  let k = 0;
  for (const { at, queries, match } of probed) {
    const found = matches.slice(k, (k += queries.length)).filter((m): m is BoundaryMatch => m !== null);
    // The same record found twice is one answer; two records are none (a wrong record is worse than none).
    const distinct = [...new Map(found.map((m) => [`${m.recordType}|${m.line}`, m])).values()];
    answers[at] = distinct.length === 1 ? { record: distinct[0]!, miss: null } : { record: null, miss: match === null ? null : missOf(match, distinct) };
  }
  return answers;
}

/** Everything short of the geocoder. */
export async function settle(parts: LadderParts, entries: readonly Entry[]): Promise<Settled> {
  const { data } = parts;
  const results: Array<ItemResult | null> = entries.map((e) => ("kind" in e.item ? e.item : null));
  const misses = new Map<number, BoundaryFileMiss>();
  const lookups: Array<LookupItem | null> = entries.map((entry, at) => {
    const item = itemOf(entry);
    if (item === null) return null;
    const early = dateProblem(data, item);
    if (early) results[at] = early;
    return early ? null : item;
  });
  if (parts.boundaries !== null) {
    const answers = await askBoundaryFile(parts.boundaries, lookups);
    answers.forEach((answer, at) => {
      if (answer?.record) results[at] = resolveByRecord(data, answer.record, lookups[at]!, entries[at]!.context);
      else if (answer?.miss) misses.set(at, answer.miss);
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
      pending.push({ at, geocode, row: geocoderRow(at, addressParts(item.address!), geocode), miss: misses.get(at) ?? null });
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
  for (const { at, miss } of settled.pending) if (miss !== null) results[at] = withMiss(results[at]!, miss);
  return results.map((result) => result!);
}

/** The next rung's answer, with why the file did not give it: a field on a record, a sentence on a problem. */
function withMiss(result: ItemResult, miss: BoundaryFileMiss): ItemResult {
  if (result.kind !== "failure") return { ...result, body: { ...result.body, boundary_file_miss: miss } } as ItemResult;
  const streets = miss.candidates.map((c) => `${c.street} (${c.zip})`).join(", ");
  return { ...result, detail: `${result.detail} The state's boundary file did not place it: ${miss.reason.replaceAll("_", " ")}${streets === "" ? "" : `: ${streets}`}.` };
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
