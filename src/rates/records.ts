/**
 * The records the API answers with (docs/api/README.md) as they go on the wire, and the functions that build them from
 * evaluated rates. Every response body the rate endpoints send is one of these types; their
 * fields are declared once, as schemas, in record-schemas.ts.
 */
import type { z } from "zod";
import { daysBetween, type IsoDate } from "./calendar.ts";
import type { CountyRate, DistrictEvaluation, Upcoming } from "./evaluate.ts";
import { toDecimal } from "./millionths.ts";
import type {
  ambiguousResponseSchema,
  beyondConfirmedSchema,
  boundaryFileMissSchema,
  boundaryRecordSchema,
  candidateCountySchema,
  countiesResponseSchema,
  countyItemSchema,
  rateComponentsSchema,
  rateRecordSchema,
  resolvedBySchema,
  transitDistrictSchema,
  upcomingSchema,
} from "./record-schemas.ts";

export const SOURCE = "Ohio Department of Taxation";
export const JURISDICTION_TYPE = "County Permissive";
export const STATUTORY_SOURCING =
  "Ohio Rev. Code 5739.033 (location of sale): a sale is taxed at the combined state, county and transit " +
  "rate of its sourcing location; an in-state vendor sources to where it receives the order, other sales to where the buyer receives the goods";
export const LOWEST_RATE_BASIS =
  "Ohio Adm. Code 5703-9-51: a seller that cannot determine the address may collect the lowest rate among the candidate jurisdictions";

export type ResolvedBy = z.infer<typeof resolvedBySchema>;
/** The boundary file record behind an address_range or zip4_range answer. */
export type BoundaryRecordAudit = z.infer<typeof boundaryRecordSchema>;

export type BoundaryFileMiss = z.infer<typeof boundaryFileMissSchema>;
/** A rate's components: state, county permissive levy, transit authority levy. */
export type RateComponents = z.infer<typeof rateComponentsSchema>;
/** The transit district of a county one splits: the rate inside it, and where the sale stands. */
export type TransitDistrictRecord = z.infer<typeof transitDistrictSchema>;
/** The next enacted change after the evaluated date. */
export type UpcomingRecord = z.infer<typeof upcomingSchema>;
/** The answer to a lookup that settles one county. */
export type RateRecord = z.infer<typeof rateRecordSchema>;
/** A candidate of an ambiguous answer, one per county the ZIP spans. */
export type CandidateCounty = z.infer<typeof candidateCountySchema>;
/** The fields of one county's rate, shared by the rate record and each ambiguous candidate. */
export type CountyRateFields = Omit<CandidateCounty, "land_area_share">;
/** The answer for a ZIP that spans several counties: every candidate, and the lowest rate. */
export type AmbiguousResponse = z.infer<typeof ambiguousResponseSchema>;
/** One county of GET /api/v1/counties. */
export type CountyItem = z.infer<typeof countyItemSchema>;
/** The answer of GET /api/v1/counties. */
export type CountiesResponse = z.infer<typeof countiesResponseSchema>;
/** Present on an answer for a date after the rates are confirmed through (docs/api/README.md, "Data freshness"). */
export type BeyondConfirmed = z.infer<typeof beyondConfirmedSchema>;

/** How current the rates are, as every answer states it. */
export interface RecordFreshness {
  lastReconciled: IsoDate;
  /** The last day whose rates a source confirmed (src/freshness/rates-freshness.ts). */
  confirmedThrough: IsoDate;
}

export interface RecordContext extends RecordFreshness {
  requestId: string;
}

export function recordContext(freshness: RecordFreshness, requestId: string): RecordContext {
  return { lastReconciled: freshness.lastReconciled, confirmedThrough: freshness.confirmedThrough, requestId };
}

/** The `beyond_confirmed` field for an answer about `date`: absent (undefined) up to the confirmed date. */
function beyondConfirmed(date: IsoDate, confirmedThrough: IsoDate): BeyondConfirmed | undefined {
  if (date <= confirmedThrough) return undefined;
  const days = daysBetween(confirmedThrough, date);
  return {
    confirmed_through: confirmedThrough,
    days_beyond: days,
    message:
      `The rates are confirmed against the state's rate file through ${confirmedThrough}; ${date} is ${days === 1 ? "1 day" : `${days} days`} later. ` +
      "A change the state enacted for this date may not be in this answer yet: check the Ohio Department of Taxation's current rate file before relying on it.",
  };
}

function percent(rate: number): string {
  return `${Number((toDecimal(rate) * 100).toFixed(4))}%`;
}

/**
 * A transit district follows city limits, which the Census records late, so a recent annexation
 * can be placed on the wrong side.
 */
const ANNEXATION_CAVEAT =
  "Boundaries follow city limits as the Census Bureau last recorded them; a recent annexation may not be reflected, so check addresses near a city line.";

function districtNote(evaluation: DistrictEvaluation): string {
  const { district, levy, combinedInside, status } = evaluation;
  switch (status) {
    case "inside":
      return `Inside the ${district.authority} district: its ${percent(levy)} levy is included in combined_rate. ${ANNEXATION_CAVEAT}`;
    case "outside":
      return `Outside the ${district.authority} district: the ${percent(levy)} levy does not apply. ${ANNEXATION_CAVEAT}`;
    case "unknown":
      return `Only part of this county is inside the ${district.authority} district (${district.area}). combined_rate is the rate outside it; inside it is ${percent(combinedInside)}. Look up the street address to settle which applies.`;
  }
}

function transitDistrictRecord(evaluation: DistrictEvaluation | null): TransitDistrictRecord | null {
  if (!evaluation) return null;
  return {
    authority: evaluation.district.authority,
    name: evaluation.district.name,
    area: evaluation.district.area,
    combined_rate_inside: toDecimal(evaluation.combinedInside),
    status: evaluation.status,
    note: districtNote(evaluation),
  };
}

function rateComponents(rate: CountyRate | Upcoming): RateComponents {
  return {
    state: toDecimal(rate.components.state),
    county_permissive: toDecimal(rate.components.county),
    transit_authority: toDecimal(rate.components.transit),
  };
}

function upcomingRecord(upcoming: Upcoming | null): UpcomingRecord | null {
  if (!upcoming) return null;
  return {
    effective_date: upcoming.effectiveDate,
    combined_rate: toDecimal(upcoming.combined),
    components: rateComponents(upcoming),
    ...(upcoming.combinedInside !== null && { combined_rate_inside: toDecimal(upcoming.combinedInside) }),
  };
}

/** The county fields shared by a rate record and an ambiguous response's candidate. */
function rateFields(rate: CountyRate): CountyRateFields {
  return {
    county: rate.county.name,
    fips: rate.county.fips,
    combined_rate: toDecimal(rate.combined),
    components: rateComponents(rate),
    effective_from: rate.effectiveFrom,
    transit_district_possible: rate.district?.status === "unknown",
    transit_district: transitDistrictRecord(rate.district),
    has_upcoming_change: rate.upcoming !== null,
    upcoming: upcomingRecord(rate.upcoming),
  };
}

/** Spread into a record: the field when `date` is beyond the confirmed date, nothing otherwise. */
export function withBeyondConfirmed(date: IsoDate, freshness: RecordFreshness): { beyond_confirmed?: BeyondConfirmed } {
  const beyond = beyondConfirmed(date, freshness.confirmedThrough);
  return beyond ? { beyond_confirmed: beyond } : {};
}

export function toRateRecord(
  rate: CountyRate,
  resolvedBy: ResolvedBy,
  context: RecordContext,
  note?: string,
  boundaryRecord?: BoundaryRecordAudit,
): RateRecord {
  const { county, fips, ...fields } = rateFields(rate);
  return {
    county,
    fips,
    date_evaluated: rate.date,
    ...fields,
    source: SOURCE,
    last_reconciled: context.lastReconciled,
    ...withBeyondConfirmed(rate.date, context),
    jurisdiction_type: JURISDICTION_TYPE,
    statutory_sourcing: STATUTORY_SOURCING,
    resolved_by: resolvedBy,
    ...(boundaryRecord !== undefined && { boundary_record: boundaryRecord }),
    ambiguous: false,
    ...(note !== undefined && { note }),
    request_id: context.requestId,
  };
}

export interface Candidate {
  rate: CountyRate;
  landShare: number | null;
}

export function toAmbiguousResponse(
  zip: string,
  date: IsoDate,
  candidates: Candidate[],
  context: RecordContext,
  note?: string,
): AmbiguousResponse {
  const names = candidates.map((c) => c.rate.county.name).join(", ");
  return {
    ambiguous: true,
    zip,
    message: `ZIP ${zip} spans ${candidates.length} counties (${names}). Send the street address, or the county, to get the exact rate.`,
    candidate_counties: candidates.map(({ rate, landShare }) => ({ ...rateFields(rate), land_area_share: landShare })),
    lowest_combined_rate: toDecimal(Math.min(...candidates.map((c) => c.rate.combined))),
    lowest_rate_basis: LOWEST_RATE_BASIS,
    date_evaluated: date,
    source: SOURCE,
    last_reconciled: context.lastReconciled,
    ...withBeyondConfirmed(date, context),
    ...(note !== undefined && { note }),
    request_id: context.requestId,
  };
}

export function toCountyItem(rate: CountyRate): CountyItem {
  const fields = rateFields(rate);
  return {
    county: fields.county,
    slug: rate.county.slug,
    fips: fields.fips,
    combined_rate: fields.combined_rate,
    components: {
      state: fields.components.state,
      county: fields.components.county_permissive,
      transit: fields.components.transit_authority,
    },
    effective_from: fields.effective_from,
    transit_district_possible: fields.transit_district_possible,
    transit_district: fields.transit_district,
    has_upcoming_change: fields.has_upcoming_change,
    upcoming: fields.upcoming,
    source: SOURCE,
  };
}
