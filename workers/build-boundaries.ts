/**
 * Child process entry (src/lookup/build-boundaries.ts): builds the county and place indexes from
 * the boundary files named in argv[2] (JSON), writes them as bytes to the file argv[3], then
 * exits, and with it every byte parsing the files took.
 */
import type { BoundaryFiles } from "../src/geo/boundary-files.ts";
import { writePolygonIndex } from "../src/geo/write-polygon-index.ts";

await writePolygonIndex(JSON.parse(process.argv[2]!) as Extract<BoundaryFiles, { available: true }>, process.argv[3]!);
