/**
 * `buckeye batch INPUT --out OUTPUT`: a file resolved locally by the lookup service, as the API's
 * batch jobs resolve theirs (the same chunks through the pool's batch lane, the same result lines,
 * row for row), with a progress bar (rows/s, ETA) on stderr; and `buckeye data fetch-geo [--vintage YEAR]`, which refreshes
 * the boundary polygons from the Census Bureau's TIGER/Line site.
 */
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { once } from "node:events";
import { extname } from "node:path";
import { type Command, Option } from "commander";
import { openBoundaryIndex } from "../boundaries/boundary-index.ts";
import { loadConfig } from "../config.ts";
import { defaultVintage, fetchTiger, FetchGeoError } from "../geo/fetch-tiger.ts";
import { problemBody } from "../http/routes/lookup-answers.ts";
import { newId } from "../ids.ts";
import { RateData } from "../currency/rate-data.ts";
import { loadShippedData } from "../load-data.ts";
import type { ItemFailure, RowResult } from "../lookup/item-result.ts";
import { LookupService } from "../lookup/lookup-service.ts";
import type { BatchFormat } from "../lookup/read-batch-file.ts";
import { resultHeader, resultLine } from "../lookup/result-lines.ts";
import { dateInOhio } from "../rates/calendar.ts";
import { recordContext } from "../rates/records.ts";
import { openStore, type Store } from "../store/connect.ts";
import { migrateToLatest } from "../store/migrate.ts";

/** The rate data the API would answer from: shipped, with what reconciliation recorded in DATABASE_URL. */
async function readRateData(store: Store, shipped: ReturnType<typeof loadShippedData>): Promise<RateData> {
  const rateData = new RateData({ db: store.db, shipped: shipped.table, shippedCurrency: shipped.meta });
  await rateData.refresh();
  return rateData;
}

function formatOf(path: string, given: string | undefined): BatchFormat {
  if (given === "csv" || given === "ndjson") return given;
  return [".ndjson", ".jsonl"].includes(extname(path).toLowerCase()) ? "ndjson" : "csv";
}

function fail(message: string): void {
  process.stderr.write(`buckeye: ${message}\n`);
  process.exitCode = 1;
}

async function runBatch(input: string, opts: { out: string; format?: string; outputFormat?: string }): Promise<void> {
  const config = loadConfig();
  const shipped = loadShippedData(config.dataDir);
  // DATABASE_URL gives what the API would answer from: recorded rate periods and the active boundary file.
  const store = openStore(config.databaseUrl);
  await migrateToLatest(store.db);
  const rateData = await readRateData(store, shipped);
  const boundaries = openBoundaryIndex(store);
  // As large as one Census batch request: the rows the boundary file cannot settle cost one upstream request per chunk.
  const chunkRows = config.geocoder.batch.rowsPerRequest;
  const lookups = new LookupService({
    config,
    databaseUrl: config.databaseUrl,
    db: null,
    rates: () => ({ table: rateData.table, zips: shipped.zips, overlay: rateData.overlay }),
    shipped: { table: shipped.table, zips: shipped.zips },
    boundaries,
    now: () => new Date(),
    chunkRows,
    log: (entry) => process.stderr.write(`${JSON.stringify(entry)}\n`),
  });
  const requestId = newId("req");
  const errorsUrl = config.errorsUrl;
  try {
    const reading = await lookups.pool.run("readBatchFile", { text: await readFile(input, "utf8"), format: formatOf(input, opts.format), maxRows: Number.MAX_SAFE_INTEGER, chunkRows });
    if (!reading.ok) return fail(`${input}: ${reading.detail}`);
    const outFormat = formatOf(opts.out, opts.outputFormat);
    const out = createWriteStream(opts.out);
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, "drain");
    };
    await write(resultHeader(outFormat));

    // Loaded here, not at the top: `buckeye serve` shares this module graph and never draws a bar.
    const { SingleBar } = await import("cli-progress");
    const bar = new SingleBar({
      format: "{bar} {percentage}% | {value}/{total} rows | {speed} rows/s | ETA {eta_formatted}",
      stream: process.stderr,
      hideCursor: true,
    });
    const started = performance.now();
    bar.start(reading.total, 0, { speed: "0" });
    const context = recordContext(await rateData.currency(), requestId);
    const today = dateInOhio(new Date());
    const problemOf = (row: RowResult) => problemBody(row.result as ItemFailure, errorsUrl, requestId);
    const results: Array<RowResult[] | undefined> = [];
    let written = 0;
    let rowsDone = 0;
    let failed = 0;
    let next = 0;
    // A chunk in the batch lane per thread, and one more waiting on the geocoder; output stays in input order.
    const worker = async () => {
      while (next < reading.chunks.length) {
        const seq = next++;
        const [chunk] = await lookups.rowsOf([{ input: reading.chunks[seq]!, firstRow: seq * chunkRows + 1, today, context }]);
        results[seq] = JSON.parse(chunk!.output) as RowResult[];
        rowsDone += chunk!.done;
        failed += chunk!.failed;
        bar.update(rowsDone, { speed: Math.round(rowsDone / ((performance.now() - started) / 1000)).toLocaleString("en-US") });
        while (results[written]) {
          for (const row of results[written]!) await write(resultLine(row, outFormat, problemOf));
          results[written++] = [];
        }
      }
    };
    await Promise.all(Array.from({ length: config.batchThreads + 1 }, worker));
    bar.stop();
    out.end();
    await once(out, "finish");
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(`${reading.total} rows in ${seconds.toFixed(1)} s (${Math.round(reading.total / seconds)} rows/s): ${reading.total - failed} answered, ${failed} problems → ${opts.out}\n`);
  } finally {
    await lookups.close();
    await boundaries.close();
    await store.close();
  }
}

export function addBatchCommands(program: Command): void {
  program
    .command("batch <input>")
    .description("look up every row of a CSV (header: id,address,zip,county,lat,lon,date) or NDJSON file, as the API's batch jobs do")
    .requiredOption("--out <file>", "where to write the results (.csv or .ndjson)")
    .addOption(new Option("--format <format>", "input format, when the file extension does not say").choices(["csv", "ndjson"]))
    .addOption(new Option("--output-format <format>", "output format, when the --out extension does not say").choices(["csv", "ndjson"]))
    .action(runBatch);

  const data = program.commands.find((command) => command.name() === "data") ?? program.command("data").description("boundary and rate data");
  data
    .command("fetch-geo")
    .description("download Ohio's county and place boundaries from the Census Bureau's TIGER/Line site into GEO_DATA_DIR (or --dir)")
    .option("--vintage <year>", "TIGER/Line year", String(defaultVintage()))
    .option("--dir <dir>", "where to write the GeoJSON files (default: GEO_DATA_DIR)")
    .action(async (opts: { vintage: string; dir?: string }) => {
      const config = loadConfig();
      const vintage = Number(opts.vintage);
      if (!Number.isInteger(vintage) || vintage < 2010 || vintage > 2100) return fail(`--vintage must be a year such as ${defaultVintage()}`);
      const dir = opts.dir ?? config.geoDataDir;
      try {
        const fetched = await fetchTiger({ vintage, baseUrl: config.tigerBaseUrl, dir, log: (line) => process.stderr.write(`${line}\n`) });
        process.stdout.write(
          `wrote ${fetched.counties.file} (${fetched.counties.features} counties) and ${fetched.places.file} (${fetched.places.features} places)\n` +
            (dir === config.geoDataDir ? "restart the service to load them\n" : `set GEO_DATA_DIR=${dir} for the service to load them\n`),
        );
      } catch (error) {
        if (error instanceof FetchGeoError) return fail(error.message);
        throw error;
      }
    });
}
