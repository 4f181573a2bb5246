/**
 * `buckeye batch INPUT --out OUTPUT`: a file resolved locally by the lookup service, as the API's
 * batch jobs resolve theirs (the same chunks through the pool's batch lane, the same result lines,
 * row for row), with a progress bar (rows/s, ETA) on stderr.
 */
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { once } from "node:events";
import { extname } from "node:path";
import { type Command, Option } from "commander";
import { openBoundaryIndex } from "../boundaries/boundary-index.ts";
import { loadConfig, type Config } from "../config.ts";
import { problemBody } from "../lookup/item-answers.ts";
import { newId } from "../ids.ts";
import type { ItemFailure, RowResult } from "../lookup/item-result.ts";
import type { BatchRetry } from "../geo/census-batch-geocoder.ts";
import { LookupService } from "../lookup/lookup-service.ts";
import type { BatchFormat } from "../lookup/read-batch-file.ts";
import { resultHeader, resultLine } from "../lookup/result-lines.ts";
import { dateInOhio } from "../rates/calendar.ts";
import { recordContext } from "../rates/records.ts";
import { withRuntime, type Runtime } from "../runtime.ts";
import { fail } from "./output.ts";

function formatOf(path: string, given: string | undefined): BatchFormat {
  if (given === "csv" || given === "ndjson") return given;
  return [".ndjson", ".jsonl"].includes(extname(path).toLowerCase()) ? "ndjson" : "csv";
}

interface BatchOptions {
  out: string;
  format?: string;
  outputFormat?: string;
}

async function runBatch(input: string, opts: BatchOptions): Promise<void> {
  const config = loadConfig();
  // DATABASE_URL gives what the API would answer from: recorded rate periods and the active boundary file.
  await withRuntime(config, (runtime) => resolveFile(runtime, config, input, opts));
}

async function resolveFile(runtime: Runtime, config: Config, input: string, opts: BatchOptions): Promise<void> {
  const { shipped, rates: rateData } = await runtime.rateSource();
  const boundaries = openBoundaryIndex(runtime.store);
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
    const reading = await lookups.pool.run("readBatchFile", { bytes: await readFile(input).catch((error: Error & { path?: string }) => {
          // A folder's EISDIR names no path: the one-line message (src/cli.ts) needs it.
          throw Object.assign(error, { path: error.path ?? input });
        }), format: formatOf(input, opts.format), maxRows: Number.MAX_SAFE_INTEGER, chunkRows });
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
      format: "{bar} {percentage}% | {value}/{total} rows | {speed} rows/s | ETA {eta_formatted}{waiting}",
      stream: process.stderr,
      hideCursor: true,
    });
    const started = performance.now();
    bar.start(reading.total, 0, { speed: "0", waiting: "" });
    // Retries of an unreachable geocoder can hold every row for many seconds: the line says so.
    let told: BatchRetry | null = null;
    const sayWhatIsAwaited = setInterval(() => {
      const retry = lookups.geocoderRetry();
      const waiting = retry ? waitingLine(retry) : "";
      if (process.stderr.isTTY) bar.update({ waiting: waiting && ` | ${waiting}` });
      else if (retry && retry !== told) process.stderr.write(`${waiting}\n`);
      told = retry;
    }, 250);
    const context = recordContext(await rateData.freshness(), requestId);
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
        const { input: rows, firstRow } = reading.chunks[seq]!;
        const [chunk] = await lookups.rowsOf([{ input: rows, firstRow, today, context }]);
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
    await Promise.all(Array.from({ length: config.batchThreads + 1 }, worker)).finally(() => clearInterval(sayWhatIsAwaited));
    bar.stop();
    out.end();
    await once(out, "finish");
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(`${reading.total} rows in ${seconds.toFixed(1)} s (${Math.round(reading.total / seconds)} rows/s): ${reading.total - failed} answered, ${failed} problems → ${opts.out}\n`);
  } finally {
    await lookups.close();
    await boundaries.close();
  }
}

function waitingLine(retry: BatchRetry): string {
  const seconds = Math.max(0, Math.ceil((retry.at - Date.now()) / 1000));
  return `waiting for the Census geocoder (${retry.reason}): retry ${retry.retry} of ${retry.retries} in ${seconds} s`;
}

export function addBatchCommand(program: Command): void {
  program
    .command("batch <input>")
    .description("look up every row of a CSV (header: id,address,zip,county,lat,lon,date) or NDJSON file, as the API's batch jobs do")
    .requiredOption("--out <file>", "where to write the results (.csv or .ndjson)")
    .addOption(new Option("--format <format>", "input format, when the file extension does not say").choices(["csv", "ndjson"]))
    .addOption(new Option("--output-format <format>", "output format, when the --out extension does not say").choices(["csv", "ndjson"]))
    .action(runBatch);
}
