/**
 * The resolution rules for one lookup (docs/guides/address-resolution.md):
 *
 * - county / zip: as GET /rates always did (resolve-lookup.ts);
 * - lat + lon: point-in-polygon against the TIGER/Line county and place polygons
 *   (`resolved_by: coordinates`), a point in no Ohio county → 422 outside-ohio;
 * - address, once geocoded: the Census Bureau's own county and incorporated place for the match
 *   when it returned them (its current vintage knows newer annexations than our files), checked
 *   against our polygons, which decide when the Census layers are missing
 *   (`resolved_by: address_geocoding`); no match → the ZIP (`zip_fallback`) or 422
 *   address-not-resolved; geocoder down → the ZIP with a note, or 503 geocoder-unavailable; a ZIP
 *   outside Ohio's 430–459 → 422 outside-ohio either way.
 *
 * Pure: it runs wherever a lookup is resolved, on the thread that answers a single lookup and in
 * the batch lane's threads for a job's chunks. The caller geocodes and has the worker pool place
 * the points in our polygons (worker-tasks.ts `locate`), and passes both in as plain data.
 */
import type { ZipSummary } from "../boundaries/boundary-index.interface.ts";
import type { ParsedAddress } from "../geo/address.ts";
import type { GeocodeOutcome, GeocodedArea } from "../geo/geocoder.ts";
import { evaluateCounty, type TransitStatus } from "../rates/evaluate.ts";
import type { County } from "../rates/rate-table.ts";
import { toAmbiguousResponse, toRateRecord, type RecordContext, type ResolvedBy } from "../rates/records.ts";
import { failure, type ItemResult } from "./item-result.ts";
import type { LookupItem } from "./lookup-item.ts";
import { resolveZipFromFile } from "./resolve-zip-file.ts";
import { checkDate, isOhioZipRange, resolveLookup, resolveZip, type Resolution } from "./resolve-lookup.ts";
import type { LocatedPoint, PolygonVintages, ResolverData } from "./resolver-inputs.ts";

function toResult(resolution: Resolution, context: RecordContext, note?: string): ItemResult {
  switch (resolution.kind) {
    case "rate":
      return { kind: "rate", body: toRateRecord(resolution.rate, resolution.resolvedBy, context, note) };
    case "ambiguous":
      return { kind: "ambiguous", body: toAmbiguousResponse(resolution.zip, resolution.date, resolution.candidates, context, note) };
    case "failure":
      return failure(resolution.slug, resolution.detail, resolution.param);
  }
}

/**
 * A lookup of a ZIP alone (no county, address or coordinates): the one kind the file's ZIP summary
 * answers. A ZIP+4 alone is one too, once the file has no ZIP+4 range for it.
 */
export function isZipOnly(item: LookupItem): item is LookupItem & { zip: string } {
  return item.zip !== undefined && item.county === undefined && item.address === undefined && item.lat === undefined;
}

/**
 * County and ZIP lookups, and the date check every lookup shares. A ZIP alone answers from the
 * state's boundary file when `zipFile` (its summary for the ZIP and date) is given, else from the
 * Census ZCTA table (resolve-zip-file.ts).
 */
export function resolveWithoutGeography(data: ResolverData, item: LookupItem, context: RecordContext, zipFile: ZipSummary | null = null): ItemResult {
  if (zipFile !== null && isZipOnly(item) && checkDate(data.table, item.date) === null) {
    const fromFile = resolveZipFromFile(data, zipFile, context);
    if (fromFile !== null) return fromFile;
  }
  return toResult(resolveLookup(data.table, data.zips, { county: item.county, zip: item.zip, date: item.date }), context);
}

export function dateProblem(data: ResolverData, item: LookupItem): ItemResult | null {
  const early = checkDate(data.table, item.date);
  return early ? toResult(early, { lastReconciled: "", confirmedThrough: "", requestId: "" }) : null;
}

interface PlaceSource {
  /** Names the boundary data that decided, for the note. */
  label: string;
  /** The newest annexation it can know of. */
  asOf: string;
}

function describePlace(place: GeocodedArea | null): string {
  return place ? `in ${place.name}` : "in no incorporated city or village";
}

/** A recent annexation can be misclassified, so say which boundaries decided. */
function annexationNote(county: County, status: TransitStatus, place: GeocodedArea | null, source: PlaceSource): string {
  const side = status === "inside" ? "inside" : "outside";
  return (
    `Transit district status (${side}) comes from ${source.label}, which puts this location ${describePlace(place)}, ${county.name} County. ` +
    `City limits move with annexations, and a change newer than ${source.asOf} is not reflected: confirm the status for addresses near a city line.`
  );
}

function rateAt(
  data: ResolverData,
  county: County,
  item: LookupItem,
  place: GeocodedArea | null,
  source: PlaceSource,
  resolvedBy: ResolvedBy,
  context: RecordContext,
  notes: string[],
): ItemResult {
  const district = data.table.districts.get(county.fips);
  const status: TransitStatus = district ? (place && district.places.some((p) => p.geoid === place.geoid) ? "inside" : "outside") : "unknown";
  const rate = evaluateCounty(data.table, county, item.date, status);
  if (rate.district) notes.unshift(annexationNote(county, status, place, source));
  return { kind: "rate", body: toRateRecord(rate, resolvedBy, context, notes.length > 0 ? notes.join(" ") : undefined) };
}

function outsideOhio(where: string, param: string): ItemResult {
  return failure("outside-ohio", `${where} is outside Ohio; this service covers Ohio only.`, param);
}

export function resolveCoordinates(data: ResolverData, found: LocatedPoint, vintages: PolygonVintages, item: LookupItem & { lat: number; lon: number }, context: RecordContext): ItemResult {
  const county = found.county ? data.table.byFips.get(found.county.geoid) : undefined;
  if (!county) return outsideOhio(`The point ${item.lat}, ${item.lon}`, "lat");
  const source = { label: `TIGER/Line ${vintages.placeVintage} place boundaries`, asOf: `${vintages.placeVintage}` };
  return rateAt(data, county, item, found.place, source, "coordinates", context, []);
}

/** An address the geocoder matched, with where our polygons put its coordinates. */
export function resolveGeocoded(
  data: ResolverData,
  ours: LocatedPoint,
  vintages: PolygonVintages,
  item: LookupItem,
  outcome: Extract<GeocodeOutcome, { kind: "match" }>,
  context: RecordContext,
): ItemResult {
  const notes: string[] = [];
  if (outcome.county && !outcome.county.geoid.startsWith("39")) return outsideOhio(`The address geocodes to ${outcome.matchedAddress}, which`, "address");
  const countyFips = outcome.county?.geoid ?? ours.county?.geoid ?? ours.shoreCounty?.geoid;
  if (countyFips === undefined) return outsideOhio(`The address geocodes to ${outcome.matchedAddress}, which`, "address");
  const county = data.table.byFips.get(countyFips);
  if (!county) return outsideOhio(`The address geocodes to ${outcome.matchedAddress}, which`, "address");
  if (outcome.county && ours.county && outcome.county.geoid !== ours.county.geoid) {
    notes.push(
      `The Census Geocoder places this address in ${outcome.county.name}; TIGER/Line ${vintages.countyVintage} county boundaries put its coordinates in ${ours.county.name} County. The Census Bureau's answer was used.`,
    );
  }

  const censusDecides = outcome.place !== undefined;
  const place = censusDecides ? (outcome.place ?? null) : ours.place;
  const ourPlace = ours.place;
  if (censusDecides && (place?.geoid ?? null) !== (ourPlace?.geoid ?? null) && data.table.districts.has(county.fips)) {
    notes.push(
      `Our TIGER/Line ${vintages.placeVintage} place boundaries put these coordinates ${describePlace(ourPlace)}; the Census Bureau's current answer was used.`,
    );
  }
  const source: PlaceSource = censusDecides
    ? { label: "the Census Bureau's current incorporated places (Census Geocoder, vintage Current_Current)", asOf: "the Census Bureau's current boundary files" }
    : { label: `TIGER/Line ${vintages.placeVintage} place boundaries (the geocoder returned no place layer)`, asOf: `${vintages.placeVintage}` };
  return rateAt(data, county, item, place, source, "address_geocoding", context, notes);
}

/** An address the geocoder did not match, or could not be asked about: the ZIP, or the problem. */
export function resolveUngeocoded(data: ResolverData, item: LookupItem, address: ParsedAddress, outcome: Exclude<GeocodeOutcome, { kind: "match" }>, context: RecordContext): ItemResult {
  if (outcome.kind === "no-match") return zipFallback(data, item, address, context, "The geocoder found no match for this street address", null);
  return zipFallback(data, item, address, context, `The address could not be geocoded (${outcome.reason})`, outcome.retryAfterSeconds);
}

/** The advice when an address cannot be used: a county sent beside it was not used (the address wins), so it is asked for alone. */
function otherWay(item: LookupItem): string {
  return item.county === undefined ? "add its ZIP, or send the county" : `add its ZIP, or send the county (${item.county}) without the address: beside an address it is not used`;
}

/** The ZIP of resolved_by zip_fallback: the zip parameter, else the ZIP at the end of the address. */
function zipFallback(
  data: ResolverData,
  item: LookupItem,
  address: ParsedAddress,
  context: RecordContext,
  why: string,
  retryAfterSeconds: number | null,
): ItemResult {
  const zip = item.zip ?? address.zip;
  const usable = zip !== null && data.zips.has(zip);
  // A ZIP outside Ohio's 430–459 settles it, geocoder or not, as a point outside Ohio does.
  if (zip !== null && !isOhioZipRange(zip)) return outsideOhio(`ZIP ${zip} (Ohio's begin 430 to 459)`, item.zip === undefined ? "address" : "zip");
  if (!usable) {
    const zipText = zip === null ? "no ZIP was sent with it" : `ZIP ${zip} is not an Ohio ZIP code`;
    if (retryAfterSeconds !== null) {
      return failure("geocoder-unavailable", `${why}, and ${zipText} to fall back on. Retry later, or ${otherWay(item)}.`, "address", retryAfterSeconds);
    }
    return failure("address-not-resolved", `${why}, and ${zipText} to fall back on. Check the address, or ${otherWay(item)}.`, "address");
  }
  const resolution = resolveZip(data.table, data.zips, zip, item.date, "zip_fallback");
  const note = `${why}, so ZIP ${zip} was used instead (resolved_by zip_fallback).`;
  return toResult(resolution, context, note);
}
