/**
 * The SST transit codes a boundary record may carry in its first special-district triplet
 * (docs/guides/boundary-file.md): a countywide transit authority's code is the ODT county
 * number × 1000 (Franklin, ODT 25 → "25000" for COTA); a district covering part of a county has its
 * own code (data/transit-districts.json). A record with any other code is refused at import.
 * test/boundary-record-layout.test.ts ("Ohio's 88 counties and the transit codes agree with data/")
 * checks these tables against data/.
 */

/** Countywide transit authorities: SST code → county FIPS. */
export const COUNTYWIDE_TRANSIT_CODES: ReadonlyMap<string, string> = new Map([
  ["02000", "39003"], // Allen County RTA
  ["18000", "39035"], // Greater Cleveland RTA (Cuyahoga)
  ["25000", "39049"], // COTA (Franklin)
  ["31000", "39061"], // SORTA (Hamilton)
  ["43000", "39085"], // Laketran (Lake)
  ["48000", "39095"], // TARTA (Lucas)
  ["50000", "39099"], // Western Reserve Transit Authority (Mahoning)
  ["57000", "39113"], // Greater Dayton RTA (Montgomery)
  ["67000", "39133"], // PARTA (Portage)
  ["76000", "39151"], // SARTA (Stark)
  ["77000", "39153"], // METRO RTA (Summit)
]);

/** Transit districts covering part of a county: SST code → county FIPS. */
export const DISTRICT_TRANSIT_CODES: ReadonlyMap<string, string> = new Map([
  ["96000", "39041"], // COTA, Delaware County part
  ["93000", "39045"], // COTA, Fairfield County part
  ["94000", "39089"], // COTA, Licking County part
  ["98000", "39159"], // COTA, Union County part
  ["87100", "39173"], // TARTA, Rossford in Wood County
]);

/** The special-district type code Ohio's transit triplets carry. */
export const TRANSIT_DISTRICT_TYPE = "63";

export function isKnownTransitCode(code: string): boolean {
  return COUNTYWIDE_TRANSIT_CODES.has(code) || DISTRICT_TRANSIT_CODES.has(code);
}

/** ODT numbers counties 01–88 alphabetically; county FIPS = 2 × number − 1. */
export function countywideTransitCode(countyFips: string): string {
  return `${String((Number(countyFips.slice(2)) + 1) / 2).padStart(2, "0")}000`;
}
