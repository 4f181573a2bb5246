/**
 * A ZIP lookup the state's boundary file covers (docs/guides/boundary-file.md, "ZIP lookups"): the
 * ZIP's candidate jurisdictions come from the file's own records for it in effect on the date (Z, 4
 * and A), not from the Census ZCTA table, which only approximates USPS ZIPs.
 *
 * - one jurisdiction set (one county, one transit status) → the rate, `resolved_by: zip_unambiguous`,
 *   citing the record (`boundary_record`: the whole-ZIP Z record when there is one);
 * - one county, the ZIP split by its partial transit district → the county's rate with the district
 *   unsettled, as a county-only ZIP always answered (combined_rate is the lower, outside rate);
 * - several counties → ambiguous: one candidate per county (its transit status when the file's
 *   records agree on it), and the lowest rate.
 *
 * The land shares stay the ZCTA table's where it lists the county for the ZIP (null where it does
 * not): the file has no areas. Pure.
 */
import type { ZipRecordSet, ZipSummary } from "../boundaries/boundary-index.interface.ts";
import { isSyntheticVersion } from "../boundaries/synthetic-label.ts";
import { evaluateCounty, type TransitStatus } from "../rates/evaluate.ts";
import type { County } from "../rates/rate-table.ts";
import { toAmbiguousResponse, toRateRecord, type BoundaryRecordAudit, type RecordContext } from "../rates/records.ts";
import type { ItemResult } from "./item-result.ts";
import type { ResolverData } from "./resolver-inputs.ts";
import { transitStatusFromCode } from "./transit-status.ts";

interface CountySets {
  county: County;
  sets: ZipRecordSet[];
  /** The one status its records give, or unknown when they differ. */
  status: TransitStatus;
}

function fileName(version: string): string {
  return isSyntheticVersion(version) ? `the SYNTHETIC boundary file ${version}` : `the state's boundary file ${version}`;
}

function syntheticNote(version: string): string[] {
  return isSyntheticVersion(version) ? [`Answered from a SYNTHETIC boundary file (${version}): made-up test data, not the state's; do not use this rate.`] : [];
}

function audit(version: string, set: ZipRecordSet): BoundaryRecordAudit {
  const { record } = set;
  return {
    version,
    record_type: record.recordType,
    line: record.line,
    effective_from: record.effectiveFrom,
    effective_to: record.effectiveTo,
    county_fips: set.countyFips,
    transit_code: set.transitCode,
  };
}

/** The set cited for a county: a whole-ZIP record first, then the set with the most records. */
function cited(sets: readonly ZipRecordSet[]): ZipRecordSet {
  return [...sets].sort((a, b) => Number(b.record.recordType === "Z") - Number(a.record.recordType === "Z") || b.records - a.records || a.record.line - b.record.line)[0]!;
}

const recordsText = (n: number) => (n === 1 ? "1 record" : `${n} records`);

/** The answer from the file, or null when none of its counties is in the rate table (then the ZCTA table answers). */
export function resolveZipFromFile(data: ResolverData, summary: ZipSummary, context: RecordContext): ItemResult | null {
  const { table } = data;
  const { version, zip5, date } = summary;
  const byCounty = new Map<string, CountySets>();
  for (const set of summary.sets) {
    const county = table.byFips.get(set.countyFips);
    if (!county) continue;
    const status = transitStatusFromCode(table, county.fips, set.transitCode);
    const entry = byCounty.get(county.fips);
    if (!entry) byCounty.set(county.fips, { county, sets: [set], status });
    else {
      entry.sets.push(set);
      if (entry.status !== status) entry.status = "unknown";
    }
  }
  const counties = [...byCounty.values()];
  if (counties.length === 0) return null;
  const total = summary.sets.reduce((n, set) => n + set.records, 0);
  const file = fileName(version);

  if (counties.length === 1) {
    const { county, sets, status } = counties[0]!;
    const rate = evaluateCounty(table, county, date, status);
    const split = rate.district !== null && status === "unknown";
    const where =
      rate.district === null ? "" : split ? `, partly inside the ${rate.district.district.authority} district` : `, ${status} the ${rate.district.district.authority} district`;
    const note = [
      ...syntheticNote(version),
      `Every record of ${file} for ZIP ${zip5} in effect on ${date} (${recordsText(total)}) places it in ${county.name} County${where}.`,
    ].join(" ");
    // Split by the district: no one record decides, so none is cited; the district note says to send the address.
    const record = toRateRecord(rate, "zip_unambiguous", context, note, split ? undefined : audit(version, cited(sets)));
    if (record.transit_district && rate.district && !split) {
      const { authority } = rate.district.district;
      record.transit_district = {
        ...record.transit_district,
        note: `${status === "inside" ? "Inside" : "Outside"} the ${authority} district per every record of ${file} for ZIP ${zip5}: its levy ${status === "inside" ? "is included in combined_rate" : "does not apply"}.`,
      };
    }
    return { kind: "rate", body: record };
  }

  const shares = new Map((data.zips.get(zip5) ?? []).map((c) => [c.fips, c.landShare]));
  const candidates = counties
    .map(({ county, status }) => ({ rate: evaluateCounty(table, county, date, status), landShare: shares.get(county.fips) ?? null }))
    .sort((a, b) => (b.landShare ?? -1) - (a.landShare ?? -1) || a.rate.county.fips.localeCompare(b.rate.county.fips));
  const note = [
    ...syntheticNote(version),
    `The candidate counties are those the ${recordsText(total)} of ${file} for ZIP ${zip5} in effect on ${date} name; land_area_share is the Census ZCTA table's, null where it does not list the county for this ZIP.`,
  ].join(" ");
  return { kind: "ambiguous", body: toAmbiguousResponse(zip5, date, candidates, context, note) };
}
