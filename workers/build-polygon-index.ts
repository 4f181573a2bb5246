/**
 * Child process entry (src/geo/open-polygon-index.ts): builds the county and place indexes from
 * the TIGER/Line polygon files named in argv[2] (JSON), writes them as bytes to the file argv[3], then
 * exits, and with it every byte parsing the files took.
 */
import type { PolygonFiles } from "../src/geo/polygon-files.ts";
import { writePolygonIndex } from "../src/geo/write-polygon-index.ts";

await writePolygonIndex(JSON.parse(process.argv[2]!) as Extract<PolygonFiles, { available: true }>, process.argv[3]!);
