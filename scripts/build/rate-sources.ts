import { join } from "node:path";
import { readCsv } from "./csv.ts";
import { SPLIT_DISTRICTS, type SplitDistrict } from "./split-districts.ts";

export type Component = "county" | "transit" | "district";

/** One row of ohio/county-rates.csv: the rates in force from 2026-01-01. */
export interface CountyRate {
  readonly fips: string;
  readonly name: string;
  readonly slug: string;
  readonly countyRate: string;
  /** Short name of the countywide transit authority (the part before any parenthesis), or null. */
  readonly transitAuthority: string | null;
  readonly transitRate: string;
  readonly combinedRate: string;
  /** Start of the current combined rate, null where the research found no date. */
  readonly effectiveFrom: string | null;
}

/** One row of ohio/rate-history.csv. */
export interface RateChange {
  readonly fips: string;
  readonly county: string;
  readonly component: Component;
  readonly oldRate: string;
  readonly newRate: string;
  readonly oldCombined: string;
  readonly newCombined: string;
  readonly effectiveDate: string;
  readonly sourceNote: string;
}

export interface RateSources {
  readonly counties: readonly CountyRate[];
  readonly history: readonly RateChange[];
  readonly districts: readonly SplitDistrict[];
}

const COUNTY_COLUMNS = ["county", "slug", "fips", "county_permissive", "transit_authority", "transit_rate", "combined_rate", "effective_from"];
const HISTORY_COLUMNS = ["county", "fips", "component", "old_rate", "new_rate", "old_combined", "new_combined", "effective_date", "source_note"];

/** The history file names components in prose; each spelling in use is mapped explicitly. */
const HISTORY_COMPONENTS: Readonly<Record<string, Component>> = {
  county: "county",
  transit: "transit",
  "transit (COTA)": "transit",
  "transit (Laketran)": "transit",
  "transit (TARTA, Rossford only)": "district",
};
const COTA_DISTRICT_COMPONENT = /^transit \(COTA district (\d\d) only\)$/;

export function readRateSources(sourcesDir: string): RateSources {
  const counties = readCsv(join(sourcesDir, "ohio", "county-rates.csv"), COUNTY_COLUMNS).map(
    (row): CountyRate => ({
      fips: field(row, "fips"),
      name: field(row, "county"),
      slug: field(row, "slug"),
      countyRate: field(row, "county_permissive"),
      transitAuthority: shortAuthority(field(row, "transit_authority")),
      transitRate: field(row, "transit_rate"),
      combinedRate: field(row, "combined_rate"),
      effectiveFrom: field(row, "effective_from") || null,
    }),
  );
  const history = readCsv(join(sourcesDir, "ohio", "rate-history.csv"), HISTORY_COLUMNS).map(
    (row, i): RateChange => {
      const fips = field(row, "fips");
      return {
        fips,
        county: field(row, "county"),
        component: historyComponent(field(row, "component"), fips, `rate-history.csv row ${i + 1}`),
        oldRate: field(row, "old_rate"),
        newRate: field(row, "new_rate"),
        oldCombined: field(row, "old_combined"),
        newCombined: field(row, "new_combined"),
        effectiveDate: field(row, "effective_date"),
        sourceNote: field(row, "source_note"),
      };
    },
  );
  return { counties, history, districts: SPLIT_DISTRICTS };
}

/** "COTA (Central Ohio Transit Authority)" -> "COTA"; "" -> null. */
function shortAuthority(text: string): string | null {
  const short = text.split("(")[0]?.trim() ?? "";
  return short === "" ? null : short;
}

function historyComponent(text: string, fips: string, context: string): Component {
  const known = HISTORY_COMPONENTS[text];
  if (known !== undefined) return known;
  const cota = COTA_DISTRICT_COMPONENT.exec(text);
  if (cota !== null) {
    const district = SPLIT_DISTRICTS.find((d) => d.fips === fips);
    if (district?.odtCodes.district !== cota[1]) throw new Error(`${context}: COTA district ${cota[1]} is not the district of county ${fips}`);
    return "district";
  }
  throw new Error(`${context}: unknown component "${text}"`);
}

function field(row: Record<string, string>, column: string): string {
  return (row[column] ?? "").trim();
}
