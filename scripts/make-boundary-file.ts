/**
 * Writes a SYNTHETIC SST boundary file (src/boundaries/synthetic-file.ts) from data/, for trying
 * `buckeye boundaries import --synthetic` in a throwaway database (docs/guides/boundary-file.md) and
 * for the benchmark. Never commit its output.
 *
 *   node --import tsx scripts/make-boundary-file.ts [--records N] [--version OHB2026Q4SEP17] [--zip 43081 ...] [--out DIR]
 *
 * writes DIR/<version>-synthetic.csv (default var/, 20,000 records).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../src/config.ts";
import { writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "20000" },
    version: { type: "string", default: "OHB2026Q4SEP17" },
    zip: { type: "string", multiple: true },
    out: { type: "string", default: join(REPO_ROOT, "var") },
  },
});
const records = Number(values.records);
if (!Number.isInteger(records) || records < 1) throw new Error(`--records must be a positive whole number, got ${values.records}`);
if (!/^[A-Z]{2}B\d{4}Q[1-4][A-Z]{3}\d{1,2}$/.test(values.version)) throw new Error(`--version must look like OHB2026Q4SEP17, got ${values.version}`);
mkdirSync(values.out, { recursive: true });
const started = performance.now();
const written = await writeSyntheticBoundaryFile(join(values.out, `${values.version}-synthetic.csv`), {
  dataDir: join(REPO_ROOT, "data"),
  records,
  ...(values.zip && { zips: values.zip }),
});
process.stdout.write(`${JSON.stringify({ ...written, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) })}\n`);
