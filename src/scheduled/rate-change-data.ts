/** What changes for a county on a date, as rate.changed and rate.announced report it. Pure. */
import { addDays, daysBetween, type IsoDate } from "../rates/calendar.ts";
import { evaluateCounty } from "../rates/evaluate.ts";
import { toDecimal } from "../rates/millionths.ts";
import type { County, RateTable } from "../rates/rate-table.ts";
import type { RateChangeData } from "../webhooks/event-types.ts";

/** The change taking effect on `date`, or null when the county's figures that day equal the day before. */
export function describeChange(
  table: RateTable,
  county: County,
  date: IsoDate,
  timing: { announced: IsoDate; today: IsoDate },
): RateChangeData | null {
  const before = evaluateCounty(table, county, addDays(date, -1));
  const after = evaluateCounty(table, county, date);
  const insideBefore = before.district?.combinedInside ?? before.combined;
  const insideAfter = after.district?.combinedInside ?? after.combined;
  const same =
    before.combined === after.combined &&
    before.components.county === after.components.county &&
    before.components.transit === after.components.transit &&
    insideBefore === insideAfter;
  if (same) return null;
  const district = table.districts.get(county.fips);
  return {
    county: county.name,
    county_slug: county.slug,
    fips: county.fips,
    old_rate: toDecimal(before.combined),
    new_rate: toDecimal(after.combined),
    effective_date: date,
    lead_days: Math.max(daysBetween(timing.announced, date), 0),
    days_until: daysBetween(timing.today, date),
    ...(district && {
      transit_district: { authority: district.authority, old_rate_inside: toDecimal(insideBefore), new_rate_inside: toDecimal(insideAfter) },
    }),
  };
}
