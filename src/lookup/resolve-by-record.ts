/**
 * Rungs 1 and 2 of the ladder (docs/guides/address-resolution.md): a lookup the state's SST boundary file settles, by
 * an address range (A) or a ZIP+4 range (4) record in effect on the lookup date. The record's
 * county and transit code decide; the answer names the file version, the record type and its
 * line, so it stands up in an audit. Pure.
 */
import type { BoundaryMatch } from "../boundaries/boundary-index.interface.ts";
import { isSyntheticVersion } from "../boundaries/synthetic-label.ts";
import { evaluateCounty } from "../rates/evaluate.ts";
import { toRateRecord, type BoundaryRecordAudit, type RecordContext } from "../rates/records.ts";
import { failure, type ItemResult } from "./item-result.ts";
import type { LookupItem } from "./lookup-item.ts";
import type { ResolverData } from "./resolver-inputs.ts";
import { countywideDisagreement, transitStatusFromCode } from "./transit-status.ts";

function audit(match: BoundaryMatch): BoundaryRecordAudit {
  return {
    version: match.version,
    record_type: match.recordType,
    line: match.line,
    effective_from: match.effectiveFrom,
    effective_to: match.effectiveTo,
    county_fips: match.countyFips,
    transit_code: match.transitCode,
  };
}

function describe(match: BoundaryMatch): string {
  const kind = match.recordType === "A" ? "address range" : "ZIP+4 range";
  const code = match.transitCode === null ? "no transit code" : `transit code ${match.transitCode}`;
  const file = isSyntheticVersion(match.version) ? "the SYNTHETIC boundary file" : "the state's boundary file";
  return `${file} ${match.version} (${kind} record, line ${match.line}, ${code})`;
}

/** Said on every answer from a synthetic file, so made-up data never passes for the state's. */
const syntheticNote = (match: BoundaryMatch) =>
  `Answered from a SYNTHETIC boundary file (${match.version}): made-up test data, not the state's; do not use this rate.`;

export function resolveByRecord(data: ResolverData, match: BoundaryMatch, item: LookupItem, context: RecordContext): ItemResult {
  const county = data.table.byFips.get(match.countyFips);
  if (!county) return failure("address-not-resolved", `The boundary file's record (line ${match.line}) names county ${match.countyFips}, which is not an Ohio county.`, "address");
  const status = transitStatusFromCode(data.table, county.fips, match.transitCode);
  const rate = evaluateCounty(data.table, county, item.date, status);
  const notes: string[] = isSyntheticVersion(match.version) ? [syntheticNote(match)] : [];
  if (!data.table.districts.has(county.fips)) {
    const recordLevies = countywideDisagreement(county.fips, match.transitCode, rate.components.transit > 0);
    if (recordLevies !== null) {
      notes.push(
        recordLevies
          ? `${describe(match)} puts this location in ${county.name} County's countywide transit authority, which levies nothing on ${item.date} in our rate data; the rate data's figures were used.`
          : `${describe(match)} carries no countywide transit code, while our rate data has ${county.name} County's transit levy on ${item.date}; the rate data's figures were used.`,
      );
    }
  }
  const resolvedBy = match.recordType === "A" ? "address_range" : "zip4_range";
  const record = toRateRecord(rate, resolvedBy, context, notes.length > 0 ? notes.join(" ") : undefined, audit(match));
  if (record.transit_district && rate.district) {
    const { authority } = rate.district.district;
    record.transit_district = {
      ...record.transit_district,
      note:
        status === "inside"
          ? `Inside the ${authority} district per ${describe(match)}: its levy is included in combined_rate.`
          : `Outside the ${authority} district per ${describe(match)}: its levy does not apply.`,
    };
  }
  return { kind: "rate", body: record };
}
