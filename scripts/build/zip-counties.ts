import type { CountyHit } from "../../src/geo/polygon-layers.ts";
import type { PolygonIndex } from "../../src/geo/polygon-index.ts";
import { compareText } from "./compare-text.ts";
import type { UspsZip } from "./usps-zips.ts";

export type ZipSource = "zcta2020" | "usps-point" | "usps-point-nearest";

/** One row of data/zip-counties.csv. */
export interface ZipCounty {
  readonly zip: string;
  readonly fips: string;
  /** Share of the ZCTA's land area inside the county, six decimals; null for ZIPs placed by a point. */
  readonly landShare: string | null;
  readonly source: ZipSource;
}

/** A ZIP placed by the nearest county edge because its point is outside every Ohio county polygon. */
export interface NearestPlacement {
  readonly zip: string;
  readonly fips: string;
  readonly distanceKm: number;
}

export interface ZipCountyTable {
  readonly rows: ZipCounty[];
  readonly nearest: NearestPlacement[];
  /** ZIPs with a ZCTA whose USPS point lies in a county the ZCTA does not touch (reported, not used). */
  readonly pointOutsideZcta: { readonly zip: string; readonly pointFips: string; readonly zctaFips: readonly string[] }[];
}

export const ZCTA_COLUMNS = ["GEOID_ZCTA5_20", "GEOID_COUNTY_20", "AREALAND_ZCTA5_20", "AREALAND_PART"];
const SHARE_DECIMALS = 6;
const SHARE_SCALE = 10n ** BigInt(SHARE_DECIMALS);

/**
 * Every county a ZIP reaches, however small its part: a ZCTA with land in two counties is split,
 * and each county part carries its share of the ZCTA's land. ZIPs without a ZCTA (PO boxes,
 * single-organisation ZIPs) are placed in the county containing their USPS point.
 */
export function buildZipCounties(
  zctaRows: readonly Record<string, string>[],
  uspsZips: readonly UspsZip[],
  counties: PolygonIndex<CountyHit>,
): ZipCountyTable {
  const rows: ZipCounty[] = [];
  const zctaCounties = new Map<string, string[]>();
  const landByZcta = new Map<string, { total: bigint; parts: bigint }>();

  for (const row of zctaRows) {
    const zip = row["GEOID_ZCTA5_20"] ?? "";
    // Rows without a ZCTA are county area in no ZCTA (Lake Erie water, the Ravenna arsenal).
    if (zip === "") continue;
    const fips = row["GEOID_COUNTY_20"] ?? "";
    if (!/^\d{5}$/.test(zip) || !/^39\d{3}$/.test(fips)) throw new Error(`oh-zcta-county.csv: bad ZCTA ${zip} or county ${fips}`);
    const part = areaOf(row, "AREALAND_PART");
    const total = areaOf(row, "AREALAND_ZCTA5_20");
    const land = landByZcta.get(zip) ?? { total, parts: 0n };
    if (land.total !== total) throw new Error(`oh-zcta-county.csv: ZCTA ${zip} has two different land totals`);
    land.parts += part;
    landByZcta.set(zip, land);
    if (part === 0n) continue;
    rows.push({ zip, fips, landShare: landShare(part, total), source: "zcta2020" });
    zctaCounties.set(zip, [...(zctaCounties.get(zip) ?? []), fips]);
  }
  for (const [zip, land] of landByZcta) {
    if (land.parts > land.total) throw new Error(`oh-zcta-county.csv: the county parts of ZCTA ${zip} exceed its land area`);
  }

  const nearest: NearestPlacement[] = [];
  const pointOutsideZcta: ZipCountyTable["pointOutsideZcta"] = [];
  for (const { zip, lat, lon } of uspsZips) {
    const inside = counties.find(lon, lat)[0];
    const zctaFips = zctaCounties.get(zip);
    if (zctaFips !== undefined) {
      if (inside !== undefined && !zctaFips.includes(inside.geoid)) pointOutsideZcta.push({ zip, pointFips: inside.geoid, zctaFips });
      continue;
    }
    if (inside !== undefined) {
      rows.push({ zip, fips: inside.geoid, landShare: null, source: "usps-point" });
    } else {
      const { value, distanceKm } = counties.nearest(lon, lat);
      rows.push({ zip, fips: value.geoid, landShare: null, source: "usps-point-nearest" });
      nearest.push({ zip, fips: value.geoid, distanceKm });
    }
  }

  rows.sort(
    (a, b) =>
      compareText(a.zip, b.zip) || compareText(b.landShare ?? "", a.landShare ?? "") || compareText(a.fips, b.fips),
  );
  return { rows, nearest, pointOutsideZcta };
}

/** part / total rounded half up to six decimals, in integers so no float rounding can creep in. */
export function landShare(part: bigint, total: bigint): string {
  if (total <= 0n || part < 0n || part > total) throw new Error(`land share ${part}/${total} is not a fraction`);
  const scaled = (2n * part * SHARE_SCALE + total) / (2n * total);
  const whole = scaled / SHARE_SCALE;
  return `${whole}.${(scaled % SHARE_SCALE).toString().padStart(SHARE_DECIMALS, "0")}`;
}

function areaOf(row: Record<string, string>, column: string): bigint {
  const text = row[column] ?? "";
  if (!/^\d+$/.test(text)) throw new Error(`oh-zcta-county.csv: ${column} "${text}" is not a whole number of square metres`);
  return BigInt(text);
}
