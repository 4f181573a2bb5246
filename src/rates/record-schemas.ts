/**
 * The records the API answers with (docs/api/README.md) as zod schemas: the one place their
 * fields are written. records.ts takes its TypeScript types from these (z.infer), the OpenAPI
 * document (src/http/openapi.ts) its JSON Schemas, and the contract tests check real responses
 * against that document. Objects are strict, so a field sent but not declared here fails those tests.
 */
import { z } from "zod";

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const rate = z.number().min(0).max(1);

export const resolvedBySchema = z
  .enum(["county_param", "zip_unambiguous", "address_range", "zip4_range", "address_geocoding", "zip_fallback", "coordinates"])
  .describe(
    "How the location was settled: county_param; zip_unambiguous: a ZIP in one county, per the state's SST boundary file when it covers the ZIP (then boundary_record cites its record), else per the Census ZCTA table; address_range / zip4_range: an address range (A) or ZIP+4 range (4) record of the state's SST boundary file " +
      "(see boundary_record); address_geocoding: the Census Geocoder and our polygons; zip_fallback; coordinates",
  );

export const boundaryRecordSchema = z.strictObject({
  version: z.string().describe("The boundary file version, from its name, e.g. OHB2026Q4SEP17; a SYNTHETIC file's (made-up test data, never the state's) ends in -SYNTHETIC"),
  record_type: z.enum(["A", "4", "Z"]).describe("A: address range; 4: ZIP+4 range; Z: whole-ZIP range (a ZIP lookup citing the ZIP's records)"),
  line: z.number().int().min(1).describe("The record's line in the imported file"),
  effective_from: isoDate.describe("The record's begin date"),
  effective_to: isoDate.nullable().describe("The record's end date, the last day it applies; null: open"),
  county_fips: z.string().regex(/^39\d{3}$/),
  transit_code: z.string().nullable().describe("The SST code of the record's transit district; null: none"),
}).describe("The record of the state's SST boundary file that decided the county and transit district");

export const boundaryFileMissSchema = z.strictObject({
  reason: z
    .enum(["no_zip_or_city", "no_house_number", "po_box", "zip_not_in_file", "no_street_in_zip", "ambiguous_street", "number_outside_ranges", "ambiguous_record"])
    .describe(
      "no_zip_or_city: the address has no ZIP and names no city the file holds; no_house_number: it begins with no house number; po_box: a PO box or rural route box, which no street range holds; " +
        "zip_not_in_file: the file holds no street in its ZIP; no_street_in_zip: no street of that name (with that suffix and directional) in its ZIP; " +
        "ambiguous_street: several streets could be meant (see candidates); number_outside_ranges: the street is there, but none of its ranges holds the house number (on its side of the street, on the date, with that unit); " +
        "ambiguous_record: several records hold it (see candidates)",
    ),
  candidates: z
    .array(z.strictObject({ zip: z.string(), street: z.string().describe("The street as the file holds it, in USPS Pub 28 standard form") }))
    .describe("The streets the address could mean or was matched to: with ambiguous_street and ambiguous_record, every one; with number_outside_ranges, the street found; else empty"),
}).describe("Present on an address lookup the state's boundary file did not settle: why, so the address can be corrected. The answer then comes from the next rung (the geocoder, or the ZIP)");

export const rateComponentsSchema = z.strictObject({
  state: rate.describe("State baseline rate, 0.0575"),
  county_permissive: rate.describe("County permissive rate"),
  transit_authority: rate.describe("Transit authority levy included in combined_rate; 0 where none applies"),
}).describe("The combined rate's parts: state, county permissive and transit levy");

export const transitDistrictSchema = z.strictObject({
  authority: z.string().describe("COTA or TARTA"),
  name: z.string(),
  area: z.string().describe("The part of the county the district covers"),
  combined_rate_inside: rate.describe("Combined rate inside the district"),
  status: z.enum(["inside", "outside", "unknown"]),
  note: z.string(),
}).describe("The transit district of a county that one splits (present only in such counties)");

export const upcomingSchema = z.strictObject({
  effective_date: isoDate,
  combined_rate: rate,
  components: rateComponentsSchema,
  combined_rate_inside: rate.optional().describe("While the transit district is unsettled: the rate inside it from that date"),
}).describe("The next enacted change after date_evaluated");

export const beyondConfirmedSchema = z.strictObject({
  confirmed_through: isoDate.describe("The last day whose rates a source confirmed against the state's rate file"),
  days_beyond: z.number().int().positive().describe("Days from confirmed_through to date_evaluated"),
  message: z.string(),
}).describe(
  "Present only when date_evaluated is after the date the rates are confirmed through: a change the state enacted for that date may not be in the answer yet. Absent: the rates for date_evaluated are confirmed.",
);

const countyRateFields = {
  county: z.string().describe("Canonical county name"),
  fips: z.string().regex(/^39\d{3}$/).describe("5-digit county FIPS code"),
  combined_rate: rate.describe("Total statutory decimal rate (0.08 means 8.00%)"),
  components: rateComponentsSchema,
  effective_from: isoDate.nullable().describe("Effective date of the active rate; null: in effect, start unknown"),
  transit_district_possible: z.boolean(),
  transit_district: transitDistrictSchema.nullable(),
  has_upcoming_change: z.boolean(),
  upcoming: upcomingSchema.nullable(),
};

export const rateRecordSchema = z.strictObject({
  ...countyRateFields,
  date_evaluated: isoDate,
  source: z.string(),
  last_reconciled: isoDate,
  beyond_confirmed: beyondConfirmedSchema.optional(),
  jurisdiction_type: z.string(),
  statutory_sourcing: z.string(),
  resolved_by: resolvedBySchema,
  boundary_record: boundaryRecordSchema.optional().describe("With resolved_by address_range or zip4_range: the record that decided; with zip_unambiguous: a record of the state's boundary file for the ZIP, all of whose records in effect name this county and transit status. For audit"),
  boundary_file_miss: boundaryFileMissSchema.optional(),
  ambiguous: z.literal(false),
  note: z.string().optional().describe("Why a fallback was taken, or what a caller should check"),
  request_id: z.string(),
}).describe("An exact match: one county, one combined rate");

export const candidateCountySchema = z.strictObject({
  ...countyRateFields,
  land_area_share: z.number().min(0).max(1).nullable().describe("Share of the ZIP's land in this county, per the Census ZCTA table; null for a ZIP placed by its post office, or a county only the state's boundary file names for the ZIP"),
}).describe("One of the counties the ZIP spans, with its rate");

export const ambiguousResponseSchema = z.strictObject({
  ambiguous: z.literal(true),
  zip: z.string(),
  message: z.string(),
  candidate_counties: z.array(candidateCountySchema).min(2),
  lowest_combined_rate: rate.describe("The lowest candidate rate, which a seller without the address may collect"),
  lowest_rate_basis: z.string(),
  date_evaluated: isoDate,
  source: z.string(),
  last_reconciled: isoDate,
  beyond_confirmed: beyondConfirmedSchema.optional(),
  boundary_file_miss: boundaryFileMissSchema.optional(),
  note: z.string().optional(),
  request_id: z.string(),
}).describe("A ZIP that spans several counties: every candidate, and the lowest rate");

export const countyItemSchema = z.strictObject({
  county: z.string(),
  slug: z.string(),
  fips: z.string().regex(/^39\d{3}$/),
  combined_rate: rate,
  components: z.strictObject({ state: rate, county: rate, transit: rate }),
  effective_from: isoDate.nullable(),
  transit_district_possible: z.boolean(),
  transit_district: transitDistrictSchema.nullable(),
  has_upcoming_change: z.boolean(),
  upcoming: upcomingSchema.nullable(),
  source: z.string(),
}).describe("One county in the list of all 88: its rate today (or on `date`) and any change ahead");

export const countiesResponseSchema = z.strictObject({
  total: z.number().int(),
  state_base_rate: rate,
  last_reconciled: isoDate,
  beyond_confirmed: beyondConfirmedSchema.optional(),
  statutory_authority: z.string(),
  date_evaluated: isoDate,
  counties: z.array(countyItemSchema),
}).describe("All 88 counties with their rates on one date");
