/**
 * The polygon index file, `polygon-index.bin` beside the polygons in GEO_DATA_DIR: the county and
 * place indexes built once, by `buckeye data fetch-geo` (write-polygon-index.ts), and read at start
 * straight into the arrays the worker threads share. It records the files it was built from (name,
 * size, modification time), so polygons replaced or copied in by hand make it stale, and the service
 * then builds the indexes at start as it does when there is no file (src/geo/open-polygon-index.ts).
 */
import { statSync } from "node:fs";
import { basename, join } from "node:path";
import type { PolygonsData } from "./polygons.ts";
import { LAYOUT, readPolygons, readIndexOrigin } from "./polygons-bytes.ts";
import type { PolygonFiles, LayerFile } from "./polygon-files.ts";

export const POLYGON_INDEX_FILE = "polygon-index.bin";

export function polygonIndexPath(dir: string): string {
  return join(dir, POLYGON_INDEX_FILE);
}

/** A shapefile's attributes are in the .dbf beside it: both count. */
function filesOf(layer: LayerFile): string[] {
  return layer.format === "shapefile" ? [layer.path, layer.path.replace(/\.shp$/, ".dbf")] : [layer.path];
}

/** What an index built from these files records: each file's name, size and modification time. */
export function sourcesKey(files: Extract<PolygonFiles, { available: true }>): string {
  return JSON.stringify(
    [files.counties, files.places].flatMap(filesOf).map((path) => {
      const stat = statSync(path);
      return [basename(path), stat.size, stat.mtimeMs];
    }),
  );
}

/** The index file in the polygons' folder when it was built from exactly these files by this layout, else null. */
export function readFreshPolygonIndex(files: Extract<PolygonFiles, { available: true }>): PolygonsData | null {
  const path = polygonIndexPath(files.dir);
  const origin = readIndexOrigin(path);
  if (!origin || origin.layout !== LAYOUT || origin.sources !== sourcesKey(files)) return null;
  return readPolygons(path);
}
