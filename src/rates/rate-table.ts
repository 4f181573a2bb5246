/**
 * The loaded, immutable rate data the engine evaluates. Built once at start-up from the
 * shipped tables in `data/` (see parse-tables.ts) and from periods recorded by reconciliation.
 */
import type { IsoDate } from "./calendar.ts";
import type { Millionths } from "./millionths.ts";

export interface County {
  fips: string;
  name: string;
  slug: string;
}

/**
 * `county` is the county permissive levy, `transit` a countywide transit levy and `district`
 * the levy of a transit district that covers only part of the county (COTA, TARTA).
 */
export type RateComponent = "county" | "transit" | "district";

export interface RatePeriod {
  fips: string;
  component: RateComponent;
  authority: string | null;
  rate: Millionths;
  /** null: in force since a date we do not know (before our history, or never recorded). */
  effectiveFrom: IsoDate | null;
  /** Exclusive end; null while open. */
  effectiveTo: IsoDate | null;
}

export interface TransitDistrictPlace {
  name: string;
  geoid: string;
}

export interface TransitDistrict {
  fips: string;
  authority: string;
  name: string;
  area: string;
  places: TransitDistrictPlace[];
  /** The Department of Taxation's two-digit reporting codes: the district's part, and the rest of the county (data/SOURCES.md). */
  reportingCodes: { district: string; rest: string };
}

export interface RateTable {
  counties: County[];
  byFips: ReadonlyMap<string, County>;
  /** Keyed by countyKey(): the slug form of a name. */
  byKey: ReadonlyMap<string, County>;
  periods: ReadonlyMap<string, readonly RatePeriod[]>;
  districts: ReadonlyMap<string, TransitDistrict>;
  stateRate: Millionths;
  historyStart: IsoDate;
}
