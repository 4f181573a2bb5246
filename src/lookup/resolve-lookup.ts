/**
 * Resolves a county or ZIP lookup to a rate, an ambiguous answer, or a failure with the
 * problem slug the caller should report. Pure, so the HTTP thread, batch workers and the CLI
 * all answer the same question the same way. Address and coordinate lookups are placed in a
 * county by the ladder (ladder.ts), whose mapping (resolve-item.ts) evaluates that county's rate
 * itself: they do not come through this file's `rateFor`.
 */
import type { ZipIndex } from "../geo/zip-index.ts";
import type { IsoDate } from "../rates/calendar.ts";
import { evaluateCounty, findCounty, type CountyRate, type TransitStatus } from "../rates/evaluate.ts";
import type { County, RateTable } from "../rates/rate-table.ts";
import type { Candidate, ResolvedBy } from "../rates/records.ts";
import { nearestName } from "./nearest-name.ts";

export interface Lookup {
  county?: string | undefined;
  zip?: string | undefined;
  date: IsoDate;
}

export type LookupFailureSlug = "county-not-found" | "zip-not-found" | "parameter-conflict" | "date-out-of-range";

export type Resolution =
  | { kind: "rate"; rate: CountyRate; resolvedBy: ResolvedBy }
  | { kind: "ambiguous"; zip: string; date: IsoDate; candidates: Candidate[] }
  | { kind: "failure"; slug: LookupFailureSlug; detail: string; param: string };

/** Ohio's ZIP codes all begin 430–459. */
export function isOhioZipRange(zip: string): boolean {
  const head = Number(zip.slice(0, 3));
  return head >= 430 && head <= 459;
}

export function checkDate(table: RateTable, date: IsoDate): Resolution | null {
  if (date >= table.historyStart) return null;
  return {
    kind: "failure",
    slug: "date-out-of-range",
    param: "date",
    detail: `Rates are held from ${table.historyStart} on; ${date} is earlier.`,
  };
}

function zipFailure(zip: string): Resolution {
  return {
    kind: "failure",
    slug: "zip-not-found",
    param: "zip",
    detail: isOhioZipRange(zip)
      ? `ZIP ${zip} is not a known Ohio ZIP code.`
      : `ZIP ${zip} is not an Ohio ZIP code (Ohio's begin 430 to 459); this service covers Ohio only.`,
  };
}

export function rateFor(table: RateTable, county: County, date: IsoDate, resolvedBy: ResolvedBy, status: TransitStatus = "unknown"): Resolution {
  return { kind: "rate", rate: evaluateCounty(table, county, date, status), resolvedBy };
}

/** Every county a ZIP spans, evaluated at the date, largest land share first. */
export function resolveZip(table: RateTable, zips: ZipIndex, zip: string, date: IsoDate, single: ResolvedBy): Resolution {
  const candidates = zips.get(zip);
  if (!candidates || candidates.length === 0) return zipFailure(zip);
  const counties = candidates.map((c) => ({ county: table.byFips.get(c.fips), landShare: c.landShare }));
  const [first] = counties;
  if (counties.length === 1 && first?.county) return rateFor(table, first.county, date, single);
  return {
    kind: "ambiguous",
    zip,
    date,
    candidates: counties
      .filter((c): c is { county: County; landShare: number | null } => c.county !== undefined)
      .map(({ county, landShare }) => ({ rate: evaluateCounty(table, county, date), landShare })),
  };
}

/**
 * The precedence rule (lookup-item.ts): a county wins over a ZIP; a ZIP sent with it must touch that county, else the two
 * disagree and we refuse to guess (400 parameter-conflict).
 */
function didYouMean(table: RateTable, text: string): string {
  // "Franklin County", "franklin co", "Franklin Co." and "franklin cnty" all name Franklin: the suffix is not part of the name.
  const name = nearestName(text.replace(/\s+(county|cnty|co\.?)$/i, ""), table.counties.map((county) => county.name));
  return name === null ? "" : ` Did you mean ${name}?`;
}

export function resolveLookup(table: RateTable, zips: ZipIndex, lookup: Lookup): Resolution {
  const early = checkDate(table, lookup.date);
  if (early) return early;
  if (lookup.county !== undefined) {
    const county = findCounty(table, lookup.county);
    if (!county) {
      return {
        kind: "failure",
        slug: "county-not-found",
        param: "county",
        detail: `"${lookup.county}" is not one of Ohio's 88 counties.${didYouMean(table, lookup.county)} Use a county name or slug, as listed by /api/v1/counties.`,
      };
    }
    if (lookup.zip !== undefined) {
      const candidates = zips.get(lookup.zip);
      if (!candidates) return zipFailure(lookup.zip);
      if (!candidates.some((c) => c.fips === county.fips)) {
        return {
          kind: "failure",
          slug: "parameter-conflict",
          param: "zip",
          detail: `ZIP ${lookup.zip} does not reach into ${county.name} County; send the county or the ZIP that belong together.`,
        };
      }
    }
    return rateFor(table, county, lookup.date, "county_param");
  }
  if (lookup.zip !== undefined) return resolveZip(table, zips, lookup.zip, lookup.date, "zip_unambiguous");
  throw new Error("resolveLookup needs a county or a zip");
}
