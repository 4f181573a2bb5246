/**
 * Finds the county and place polygon layers in GEO_DATA_DIR. Either GeoJSON conversions
 * (`oh-counties-tiger2020.geojson`, `oh-places-tiger2019.geojson`, as `buckeye data fetch-geo`
 * writes them) or the Census Bureau's TIGER/Line shapefiles as downloaded and unzipped
 * (`tl_2024_us_county.shp`, `tl_2024_39_place.shp`). The newest vintage of each layer wins.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

export type LayerFormat = "geojson" | "shapefile";

export interface LayerFile {
  path: string;
  format: LayerFormat;
  vintage: number;
}

export type PolygonFiles =
  | { available: true; dir: string; counties: LayerFile; places: LayerFile }
  | { available: false; dir: string; reason: string };

const PATTERNS: Record<"counties" | "places", Array<[RegExp, LayerFormat]>> = {
  counties: [
    [/^oh-counties-tiger(\d{4})\.geojson$/, "geojson"],
    [/^tl_(\d{4})_(?:39|us)_county(?:\d{2})?\.shp$/, "shapefile"],
  ],
  places: [
    [/^oh-places-tiger(\d{4})\.geojson$/, "geojson"],
    [/^tl_(\d{4})_39_place(?:\d{2})?\.shp$/, "shapefile"],
  ],
};

function newest(dir: string, names: string[], layer: "counties" | "places"): LayerFile | null {
  const found: LayerFile[] = [];
  for (const name of names) {
    for (const [pattern, format] of PATTERNS[layer]) {
      const match = pattern.exec(name);
      if (match) found.push({ path: join(dir, name), format, vintage: Number(match[1]) });
    }
  }
  // Newest vintage first; at equal vintage the GeoJSON conversion, which loads faster.
  found.sort((a, b) => b.vintage - a.vintage || (a.format === "geojson" ? -1 : 1));
  return found[0] ?? null;
}

export function findPolygonFiles(dir: string): PolygonFiles {
  if (!existsSync(dir)) {
    return { available: false, dir, reason: `GEO_DATA_DIR ${dir} does not exist; run \`buckeye data fetch-geo\` or point GEO_DATA_DIR at the TIGER/Line county and place files` };
  }
  const names = readdirSync(dir);
  const counties = newest(dir, names, "counties");
  const places = newest(dir, names, "places");
  const missing = [!counties && "county", !places && "place"].filter(Boolean);
  if (!counties || !places) {
    return {
      available: false,
      dir,
      reason: `no ${missing.join(" or ")} polygon file in ${dir} (expected oh-counties-tigerYYYY.geojson / oh-places-tigerYYYY.geojson or TIGER/Line tl_YYYY_us_county.shp / tl_YYYY_39_place.shp); run \`buckeye data fetch-geo\``,
    };
  }
  return { available: true, dir, counties, places };
}

/**
 * Why a process that started without polygons still has none, asked again of the folder now: once
 * `buckeye data fetch-geo` has written them, that a restart loads them. /readyz and every lookup
 * answering `boundaries-unavailable` give this same reason.
 */
export function missingPolygonsNow(dir: string): string {
  const files = findPolygonFiles(dir);
  if (!files.available) return files.reason;
  return `this instance started without polygon files; ${dir} now holds TIGER/Line ${files.counties.vintage} counties and ${files.places.vintage} places: restart it to load them`;
}
