/**
 * `buckeye rate`: one lookup (a county, a ZIP or ZIP+4, an address, or coordinates, on a date) answered
 * by the lookup service as `GET /api/v1/rates` answers it, read with the same item rules as a batch row,
 * against the configured database (its reconciled rates and active boundary file). It prints the
 * answer, or with --json the API's body; a lookup the service refuses is one line and exit status 1.
 */
import type { Command } from "commander";
import { createLookupService } from "../batch/address-lookups.ts";
import { openBoundaryIndex } from "../boundaries/boundary-index.ts";
import { loadConfig } from "../config.ts";
import { newId } from "../ids.ts";
import type { ItemResult } from "../lookup/item-result.ts";
import { readLookupItem } from "../lookup/lookup-item.ts";
import { dateInOhio } from "../rates/calendar.ts";
import { recordContext, type AmbiguousResponse, type RateRecord } from "../rates/records.ts";
import { withRuntime } from "../runtime.ts";
import { CliError, jsonOption, print } from "./output.ts";

interface RateOptions {
  county?: string;
  zip?: string;
  address?: string;
  lat?: string;
  lon?: string;
  date?: string;
  json?: boolean;
}

async function answer(opts: RateOptions): Promise<ItemResult> {
  const config = loadConfig();
  return withRuntime(config, async (runtime) => {
    const { shipped, rates } = await runtime.rateSource();
    const boundaries = openBoundaryIndex(runtime.store);
    const lookups = createLookupService(
      config,
      {
        now: () => runtime.clock.now(),
        freshness: () => rates.recheck(),
        rates: () => ({ table: rates.table, zips: shipped.zips, overlay: rates.overlay }),
        shipped: { table: shipped.table, zips: shipped.zips },
      },
      boundaries,
      (entry) => process.stderr.write(`${JSON.stringify(entry)}\n`),
    );
    try {
      const { county, zip, address, lat, lon, date } = opts;
      const item = readLookupItem({ county, zip, address, lat, lon, date }, dateInOhio(runtime.clock.now()));
      if ("kind" in item) return item;
      return await lookups.answerOne(item, recordContext(await rates.recheck(), newId("req")));
    } finally {
      await lookups.close();
      await boundaries.close();
    }
  });
}

function rateLines(body: RateRecord): string[] {
  const { state, county_permissive, transit_authority } = body.components;
  return [
    `${body.county} County (${body.fips}) on ${body.date_evaluated}: combined rate ${body.combined_rate}`,
    `  state ${state}, county ${county_permissive}, transit ${transit_authority}; resolved by ${body.resolved_by}`,
    ...(body.transit_district_possible ? ["  a transit district covers part of this county: send the street address to settle it"] : []),
    ...(body.upcoming ? [`  changes on ${body.upcoming.effective_date} to ${body.upcoming.combined_rate}`] : []),
    ...(body.note ? [`  note: ${body.note}`] : []),
    ...(body.beyond_confirmed ? [`  ${body.beyond_confirmed.message}`] : []),
  ];
}

function ambiguousLines(body: AmbiguousResponse): string[] {
  return [
    `ZIP ${body.zip} on ${body.date_evaluated} spans several counties: ${body.message}`,
    ...body.candidate_counties.map((candidate) => `  ${candidate.county} County (${candidate.fips}): combined rate ${candidate.combined_rate}`),
    `  lowest combined rate ${body.lowest_combined_rate}`,
    ...(body.beyond_confirmed ? [`  ${body.beyond_confirmed.message}`] : []),
  ];
}

export function addRateCommand(program: Command): void {
  program
    .command("rate")
    .description("look up one rate, as GET /api/v1/rates does: --county, --zip, --address (with its ZIP for the fallback) or --lat with --lon, on --date (default today)")
    .option("--county <name>", "an Ohio county, e.g. Franklin")
    .option("--zip <zip>", "a 5-digit ZIP code or a ZIP+4")
    .option("--address <address>", 'a street address, e.g. "100 Polaris Pkwy, Columbus, OH 43240"')
    .option("--lat <degrees>", "latitude, with --lon")
    .option("--lon <degrees>", "longitude, with --lat")
    .option("--date <date>", "the date of the sale, YYYY-MM-DD (default: today in Ohio)")
    .addOption(jsonOption())
    .action(async (opts: RateOptions) => {
      const result = await answer(opts);
      if (result.kind === "failure") throw new CliError(result.detail);
      print(Boolean(opts.json), result.body, (result.kind === "rate" ? rateLines(result.body) : ambiguousLines(result.body)).join("\n"));
    });
}
