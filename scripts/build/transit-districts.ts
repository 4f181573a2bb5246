import type { CountyHit, PlaceHit } from "../../src/geo/polygon-layers.ts";
import { boundsOf } from "../../src/geo/geojson.ts";
import { PolygonIndex, type IndexedFeature } from "../../src/geo/polygon-index.ts";
import type { SplitDistrict } from "./split-districts.ts";

/** One entry of data/transit-districts.json. */
export interface TransitDistrictRecord {
  readonly fips: string;
  readonly county: string;
  readonly authority: string;
  readonly name: string;
  readonly area: string;
  readonly sst_code: string;
  readonly odt_codes: { readonly district: string; readonly rest: string };
  readonly places: readonly { readonly name: string; readonly geoid: string }[];
}

/**
 * Sample points per axis laid over the overlap of a place's box and a county's box. At 200 the
 * spacing is under 300 m even for Columbus, far finer than the city parts the districts name.
 */
const OVERLAP_GRID = 200;

/**
 * Resolves each district's municipalities to Census place GEOIDs. A name can belong to two Ohio
 * places, so a place counts only if it is incorporated and its polygon reaches into the county;
 * exactly one place must qualify.
 */
export function buildTransitDistricts(
  districts: readonly SplitDistrict[],
  counties: readonly IndexedFeature<CountyHit>[],
  places: readonly IndexedFeature<PlaceHit>[],
): TransitDistrictRecord[] {
  return districts.map((district) => {
    const county = counties.find((feature) => feature.value.geoid === district.fips);
    if (county === undefined) throw new Error(`no county polygon for ${district.county} (${district.fips})`);
    return {
      fips: district.fips,
      county: district.county,
      authority: district.authority,
      name: district.name,
      area: district.area,
      sst_code: district.sstCode,
      odt_codes: { district: district.odtCodes.district, rest: district.odtCodes.rest },
      places: district.placeNames.map((name) => {
        const matches = places.filter((place) => place.value.incorporated && place.value.name === name && overlaps(place, county));
        const [match] = matches;
        if (match === undefined || matches.length > 1) {
          throw new Error(`${matches.length} incorporated places named ${name} reach into ${district.county} County; expected 1`);
        }
        return { name, geoid: match.value.geoid };
      }),
    };
  });
}

function overlaps(a: IndexedFeature<unknown>, b: IndexedFeature<unknown>): boolean {
  const boxA = boundsOf(a.geometry), boxB = boundsOf(b.geometry);
  const minX = Math.max(boxA.minX, boxB.minX), maxX = Math.min(boxA.maxX, boxB.maxX);
  const minY = Math.max(boxA.minY, boxB.minY), maxY = Math.min(boxA.maxY, boxB.maxY);
  if (minX >= maxX || minY >= maxY) return false;
  const inA = new PolygonIndex([a]), inB = new PolygonIndex([b]);
  for (let i = 0; i < OVERLAP_GRID; i++) {
    const x = minX + ((i + 0.5) * (maxX - minX)) / OVERLAP_GRID;
    for (let j = 0; j < OVERLAP_GRID; j++) {
      const y = minY + ((j + 0.5) * (maxY - minY)) / OVERLAP_GRID;
      if (inA.find(x, y).length > 0 && inB.find(x, y).length > 0) return true;
    }
  }
  return false;
}
