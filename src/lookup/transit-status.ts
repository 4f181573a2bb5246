/**
 * What a boundary file record's transit code means for the rate (docs/guides/address-resolution.md). In the five
 * counties a transit district covers in part (data/transit-districts.json), the record carrying
 * that district's SST code is inside it and any other record outside. Elsewhere a transit
 * authority is countywide or absent, the rate table already says which, and the code is only
 * checked against it. Pure.
 */
import { COUNTYWIDE_TRANSIT_CODES, DISTRICT_TRANSIT_CODES } from "../boundaries/transit-codes.ts";
import type { TransitStatus } from "../rates/evaluate.ts";
import type { RateTable } from "../rates/rate-table.ts";

export function transitStatusFromCode(table: RateTable, countyFips: string, transitCode: string | null): TransitStatus {
  if (!table.districts.has(countyFips)) return "unknown";
  return transitCode !== null && DISTRICT_TRANSIT_CODES.get(transitCode) === countyFips ? "inside" : "outside";
}

/**
 * Outside the split counties: whether the record's code says a countywide authority levies here,
 * when that disagrees with the rate table's countywide transit levy at the date; null when they agree.
 */
export function countywideDisagreement(countyFips: string, transitCode: string | null, tableLevies: boolean): boolean | null {
  const recordLevies = transitCode !== null && COUNTYWIDE_TRANSIT_CODES.get(transitCode) === countyFips;
  return recordLevies === tableLevies ? null : recordLevies;
}
