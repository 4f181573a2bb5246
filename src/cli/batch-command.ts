/**
 * `buckeye batch INPUT --out OUTPUT`: a file resolved locally as the API's batch jobs resolve theirs
 * (src/batch/local-batch.ts: the same runner over a queue in memory, the same chunks through the
 * pool's batch lane, the same result lines, row for row), with a progress bar (rows/s, ETA) on stderr. `--format finder` reads Ohio's Finder
 * layout and writes, as a Finder job's downloads, its results file to OUTPUT and its errors file to
 * `--errors` (default: OUTPUT with `-errors` before its extension).
 */
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { once } from "node:events";
import { extname } from "node:path";
import type { Writable } from "node:stream";
import { type Command, Option } from "commander";
import { openBoundaryIndex } from "../boundaries/boundary-index.ts";
import { loadConfig, type Config } from "../config.ts";
import { newId } from "../ids.ts";
import type { RowResult } from "../lookup/item-result.ts";
import type { BatchRetry } from "../geo/census-batch-geocoder.ts";
import { openLocalBatch } from "../batch/local-batch.ts";
import type { BatchFileFormat } from "../store/batch-jobs.table.ts";
import { finderLine } from "../batch/finder-results.ts";
import { resultHeader, resultLine, rowProblems, type ResultFormat } from "../batch/result-lines.ts";
import { dateInOhio } from "../rates/calendar.ts";
import { withRuntime, type Runtime } from "../runtime.ts";
import { CliError, fail } from "./output.ts";
import { parseColumnMapping, type AddressSide, type ColumnChoice } from "../lookup/export-headers.ts";

function formatOf(path: string, given: string | undefined): BatchFileFormat {
  if (given === "csv" || given === "ndjson" || given === "finder") return given;
  return [".ndjson", ".jsonl"].includes(extname(path).toLowerCase()) ? "ndjson" : "csv";
}

/** The output: Buckeye's CSV or NDJSON; for a Finder input without --output-format, the Finder results and errors files. */
function outputOf(input: BatchFileFormat, out: string, given: string | undefined): ResultFormat | "finder" {
  if (input === "finder" && given === undefined) return "finder";
  return formatOf(out, given) === "ndjson" ? "ndjson" : "csv";
}

function errorsPathOf(out: string): string {
  const ext = extname(out);
  return `${out.slice(0, out.length - ext.length)}-errors${ext || ".csv"}`;
}

interface BatchOptions {
  out: string;
  errors?: string;
  format?: string;
  outputFormat?: string;
  columns?: string;
  addressSide?: AddressSide;
}

/** The column mapping and address side, as the API's `columns` and `address_side` take them; a bad mapping is refused before anything is read. */
function choiceOf(opts: BatchOptions): ColumnChoice {
  const choice: ColumnChoice = opts.addressSide === undefined ? {} : { side: opts.addressSide };
  if (opts.columns === undefined) return choice;
  const mapping = parseColumnMapping(opts.columns);
  if (!mapping.ok) throw new CliError(`--columns: ${mapping.reason}`);
  return { ...choice, columns: mapping.columns };
}

async function writeTo(out: Writable, text: string): Promise<void> {
  if (text !== "" && !out.write(text)) await once(out, "drain");
}

async function runBatch(input: string, opts: BatchOptions): Promise<void> {
  choiceOf(opts);
  const config = loadConfig();
  // DATABASE_URL gives what the API would answer from: recorded rate periods and the active boundary file.
  await withRuntime(config, (runtime) => resolveFile(runtime, config, input, opts));
}

async function resolveFile(runtime: Runtime, config: Config, input: string, opts: BatchOptions): Promise<void> {
  const { shipped, rates: rateData } = await runtime.rateSource();
  const boundaries = openBoundaryIndex(runtime.store);
  const { clock } = runtime;
  const batch = openLocalBatch(
    config,
    {
      now: () => clock.now(),
      freshness: () => rateData.recheck(),
      rates: () => ({ table: rateData.table, zips: shipped.zips, overlay: rateData.overlay }),
      shipped: { table: shipped.table, zips: shipped.zips },
    },
    boundaries,
    (entry) => process.stderr.write(`${JSON.stringify(entry)}\n`),
  );
  const requestId = newId("req");
  try {
    const inFormat = formatOf(input, opts.format);
    const bytes = await readFile(input).catch((error: Error & { path?: string }) => {
      // A folder's EISDIR names no path: the one-line message (src/cli.ts) needs it.
      throw Object.assign(error, { path: error.path ?? input });
    });
    const reading = await batch.read(bytes, inFormat, choiceOf(opts));
    if (!reading.ok) return fail(`${input}: ${reading.detail}`);
    const renamed = reading.readColumns.filter((column) => column.name !== column.header);
    if (renamed.length > 0) process.stderr.write(`columns read: ${renamed.map((column) => `${column.name} ← ${column.header}`).join(", ")}\n`);
    if (reading.ignoredColumns.length > 0) process.stderr.write(`ignored columns (Buckeye does not read them): ${reading.ignoredColumns.join(", ")}\n`);
    const outFormat = outputOf(inFormat, opts.out, opts.outputFormat);
    const out = createWriteStream(opts.out);
    const errorsPath = outFormat === "finder" ? (opts.errors ?? errorsPathOf(opts.out)) : null;
    const errors = errorsPath === null ? null : createWriteStream(errorsPath);
    if (outFormat !== "finder") await writeTo(out, resultHeader(outFormat));

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
      const retry = batch.lookups.geocoderRetry();
      const waiting = retry ? waitingLine(retry, clock.now()) : "";
      if (process.stderr.isTTY) bar.update({ waiting: waiting && ` | ${waiting}` });
      else if (retry && retry !== told) process.stderr.write(`${waiting}\n`);
      told = retry;
    }, 250);
    const problemOf = rowProblems(config.errorsUrl, requestId);
    let rowsDone = 0;
    const counts: RowCounts = { answered: 0, ambiguous: 0, failed: 0 };
    // Each chunk's rows in input order, as the runner's memory queue hands them over.
    const write = async (rows: RowResult[], seq: number) => {
      rowsDone += rows.length;
      for (const row of rows) counts[row.result.kind === "rate" ? "answered" : row.result.kind === "ambiguous" ? "ambiguous" : "failed"]++;
      bar.update(rowsDone, { speed: Math.round(rowsDone / ((performance.now() - started) / 1000)).toLocaleString("en-US") });
      const inputs = outFormat === "finder" ? (JSON.parse(reading.chunks[seq]!.input) as unknown[]) : [];
      for (const [i, row] of rows.entries()) {
        if (outFormat !== "finder") await writeTo(out, resultLine(row, outFormat, problemOf));
        else {
          await writeTo(out, finderLine(row, inputs[i], "finder", problemOf));
          await writeTo(errors!, finderLine(row, inputs[i], "finder-errors", problemOf));
        }
      }
    };
    await batch.run({ chunks: reading.chunks, today: dateInOhio(clock.now()), requestId, write }).finally(() => clearInterval(sayWhatIsAwaited));
    bar.stop();
    await Promise.all([out, ...(errors ? [errors] : [])].map(async (stream) => {
      stream.end();
      await once(stream, "finish");
    }));
    const seconds = (performance.now() - started) / 1000;
    const where = errorsPath === null ? opts.out : `${opts.out} (errors: ${errorsPath})`;
    process.stderr.write(`${reading.total} rows in ${seconds.toFixed(1)} s (${Math.round(reading.total / seconds)} rows/s): ${counts.answered} answered, ${counts.ambiguous} ambiguous, ${counts.failed} problems → ${where}\n`);
    const status = exitStatusOf(counts);
    if (status !== 0) {
      const unanswered = counts.ambiguous + counts.failed;
      process.stderr.write(`buckeye: ${status === NO_ROW_ANSWERED ? "no row" : `${unanswered} of ${reading.total} rows`} ${status === NO_ROW_ANSWERED ? "was" : unanswered === 1 ? "was not" : "were not"} answered with a rate (exit ${status})\n`);
      process.exitCode = status;
    }
  } finally {
    await batch.close();
    await boundaries.close();
  }
}

interface RowCounts {
  /** Rows answered with a rate. */
  answered: number;
  /** Rows whose ZIP spans counties, answered with the candidates and no single rate. */
  ambiguous: number;
  /** Rows answered with a problem. */
  failed: number;
}

/** Some rows were not answered with a rate (ambiguous or failed); the file is written. */
export const SOME_ROWS_UNANSWERED = 3;
/** No row was answered with a rate; the file is written. */
export const NO_ROW_ANSWERED = 4;

/**
 * The exit status of a batch that ran (docs/reference/cli.md): 0 only when every row has a rate, so a
 * script that checks the status alone never takes a file of problems or of ambiguous ZIPs for a
 * finished one. 1 and 2 stay what they are for every command (a refusal, an unexpected fault).
 */
export function exitStatusOf(counts: RowCounts): number {
  if (counts.answered === 0) return NO_ROW_ANSWERED;
  return counts.ambiguous + counts.failed > 0 ? SOME_ROWS_UNANSWERED : 0;
}

function waitingLine(retry: BatchRetry, now: Date): string {
  const seconds = Math.max(0, Math.ceil((retry.at - now.getTime()) / 1000));
  return `waiting for the Census geocoder (${retry.reason}): retry ${retry.retry} of ${retry.retries} in ${seconds} s`;
}

export function addBatchCommand(program: Command): void {
  program
    .command("batch <input>")
    .description(
      "look up every row of a CSV (header: id,address,zip,county,lat,lon,date; or address columns as exports write them: street, address2, city, state, zip, and Shopify's, WooCommerce's, Amazon's, … names), NDJSON or Finder-layout file, as the API's batch jobs do",
    )
    .requiredOption("--out <file>", "where to write the results (.csv or .ndjson; for --format finder, the Finder results file)")
    .option("--errors <file>", "with --format finder: where to write the Finder errors file (default: the --out name with -errors)")
    .addOption(new Option("--format <format>", "input format, when the file extension does not say; finder: Ohio's Finder batch layout").choices(["csv", "ndjson", "finder"]))
    .addOption(new Option("--output-format <format>", "output format, when the --out extension does not say").choices(["csv", "ndjson"]))
    .option("--columns <mapping>", "which CSV column each part is read from, for headers Buckeye does not know: NAME=HEADER pairs, e.g. street=Addr 1,zip=Zip (names: id, address, street, address2, city, state, zip, zip4, county, lat, lon, date)")
    .addOption(new Option("--address-side <side>", "which address of an export that carries both is read (default: shipping)").choices(["shipping", "billing"]))
    .action(runBatch);
}
