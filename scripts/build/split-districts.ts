/**
 * The five counties that a transit district covers only in part, as described in
 * data/sources/ohio/transit-districts.md (ODT bulletins of 2025, ODT 2022 rate-changes page,
 * OHTransitFIPSCodes descriptions and the SST rate file OHR2026Q1NOV28). Those facts are prose in the
 * source, so they are transcribed here once; the build checks them against county-rates.csv and
 * rate-history.csv and finds the Census GEOIDs of the named cities itself.
 */
export interface SplitDistrict {
  readonly fips: string;
  readonly county: string;
  readonly authority: "COTA" | "TARTA";
  readonly name: string;
  /** Which part of the county the district covers, after ODT's wording. */
  readonly area: string;
  /** Jurisdiction code of the district levy in the SST rate and boundary files. */
  readonly sstCode: string;
  /** ODT reporting codes: the district part, and the rest of the county. */
  readonly odtCodes: { readonly district: string; readonly rest: string };
  /** Municipalities inside the district, by Census place name. */
  readonly placeNames: readonly string[];
  /** District levy in force on 2026-01-01. */
  readonly rate: string;
  /** State + county + district levy in force on 2026-01-01. */
  readonly inDistrictCombined: string;
}

const COTA = "Central Ohio Transit Authority";
const TARTA = "Toledo Area Regional Transit Authority";

export const SPLIT_DISTRICTS: readonly SplitDistrict[] = [
  {
    fips: "39041",
    county: "Delaware",
    authority: "COTA",
    name: COTA,
    area: "The parts of the Cities of Columbus, Westerville and Dublin that lie in Delaware County",
    sstCode: "96000",
    odtCodes: { district: "96", rest: "21" },
    placeNames: ["Columbus", "Westerville", "Dublin"],
    rate: "0.0100",
    inDistrictCombined: "0.0800",
  },
  {
    fips: "39045",
    county: "Fairfield",
    authority: "COTA",
    name: COTA,
    area: "The parts of the Cities of Columbus and Reynoldsburg that lie in Fairfield County",
    sstCode: "93000",
    odtCodes: { district: "93", rest: "23" },
    placeNames: ["Columbus", "Reynoldsburg"],
    rate: "0.0100",
    inDistrictCombined: "0.0775",
  },
  {
    fips: "39089",
    county: "Licking",
    authority: "COTA",
    name: COTA,
    area: "The part of the City of Reynoldsburg that lies in Licking County",
    sstCode: "94000",
    odtCodes: { district: "94", rest: "45" },
    placeNames: ["Reynoldsburg"],
    rate: "0.0100",
    inDistrictCombined: "0.0825",
  },
  {
    fips: "39159",
    county: "Union",
    authority: "COTA",
    name: COTA,
    area: "The part of the City of Dublin that lies in Union County",
    sstCode: "98000",
    odtCodes: { district: "98", rest: "80" },
    placeNames: ["Dublin"],
    rate: "0.0100",
    inDistrictCombined: "0.0800",
  },
  {
    fips: "39173",
    county: "Wood",
    authority: "TARTA",
    name: TARTA,
    area: "The City of Rossford",
    sstCode: "87100",
    // ODT reports Rossford under Wood County's own number: "the City of Rossford in Wood County (87)".
    odtCodes: { district: "87", rest: "87" },
    placeNames: ["Rossford"],
    rate: "0.0050",
    inDistrictCombined: "0.0725",
  },
];
