/**
 * The reconcile job: read the state's SST rate file from RECONCILE_SOURCE (a URL or a path; CSV,
 * or a ZIP archive holding it), compare it with our periods, and in one transaction log the run,
 * record newly enacted future periods and publish one rate.announced per county and date they
 * change. A file that is malformed or partial changes nothing: the failure is logged in the
 * reconciliation log alone.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { dateInOhio, type IsoDate } from "../rates/calendar.ts";
import { newId } from "../ids.ts";
import type { Db } from "../store/database.ts";
import { insertReconciliation, latestSuccessfulReconciliation, upsertRecordedPeriod } from "../store/reconciliations.repository.ts";
import { publishEvent } from "../webhooks/outbox.ts";
import { compareWithTable, countyCodes, type Discrepancy } from "./compare-rates.ts";
import { mergeTable } from "../rates/overlay-periods.ts";
import { toRatePeriod, type RateData } from "../freshness/rate-data.ts";
import { describeChange } from "./rate-change-data.ts";
import { sstTextFrom } from "./sst-download.ts";
import { postingDate } from "../rates/sst-file-names.ts";
import { parseSstRateFile } from "./sst-rate-file.ts";

/**
 * A rate file with fewer than 90 % of the rows of the last file reconciled is taken for one cut
 * between two rows (which no single row shows): Ohio's file keeps its history, so it only grows,
 * a few rows a quarter, from about 130.
 */
export const MIN_SHARE_OF_LAST_FILE = 0.9;

export interface ReconcileDeps {
  db: Db;
  rateData: RateData;
  /** County FIPS → SST code of the transit district covering part of it (data/transit-districts.json). */
  districtCodes: ReadonlyMap<string, string>;
  source: string | null;
  fetchTimeoutMs?: number;
}

export interface ReconcileResult {
  id: string | null;
  status: "succeeded" | "failed" | "skipped";
  file: string | null;
  rows: number;
  periodsRecorded: number;
  eventsEmitted: number;
  discrepancies: Discrepancy[];
  error: string | null;
}

async function readSource(source: string, timeoutMs: number): Promise<{ text: string; name: string }> {
  let bytes: Uint8Array;
  let name: string;
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(timeoutMs), headers: { "user-agent": "Buckeye/1.0 (rate reconciliation)" } });
    if (!response.ok) throw new Error(`GET ${source} answered ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
    name = basename(new URL(source).pathname);
  } else {
    bytes = await readFile(source);
    name = basename(source);
  }
  const read = sstTextFrom(bytes);
  if (!read.ok) throw new Error(read.error);
  // The archive's own name carries the posting date; the entry is logged beside it.
  return { text: read.text, name: read.entry === null ? name : `${name} (${read.entry})` };
}

export async function reconcile(deps: ReconcileDeps, at: Date): Promise<ReconcileResult> {
  const { db, rateData, source } = deps;
  if (!source) {
    return { id: null, status: "skipped", file: null, rows: 0, periodsRecorded: 0, eventsEmitted: 0, discrepancies: [], error: "RECONCILE_SOURCE is not set" };
  }
  const today = dateInOhio(at);
  const startedAt = at.toISOString();
  // Measured from `at`, so a run driven by a test clock logs times on that clock.
  const started = performance.now();
  const finishedAt = () => new Date(at.getTime() + Math.round(performance.now() - started)).toISOString();
  const id = newId("rec");
  let file: string | null = null;
  let rows = 0;

  const fail = async (error: string): Promise<ReconcileResult> => {
    await insertReconciliation(
      db,
      {
        status: "failed",
        source,
        file_name: file,
        reconciled_on: today,
        rows,
        periods_recorded: 0,
        events_emitted: 0,
        discrepancies: "[]",
        error,
        started_at: startedAt,
        finished_at: finishedAt(),
      },
      id,
    );
    return { id, status: "failed", file, rows, periodsRecorded: 0, eventsEmitted: 0, discrepancies: [], error };
  };

  let text: string;
  try {
    const read = await readSource(source, deps.fetchTimeoutMs ?? 60_000);
    text = read.text;
    file = read.name;
  } catch (error) {
    return fail(`could not read the rate file: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parseSstRateFile(text);
  if (!parsed.ok) return fail(`malformed rate file: ${parsed.error}`);
  rows = parsed.rows.length;
  const last = await latestSuccessfulReconciliation(db);
  if (last && rows < last.rows * MIN_SHARE_OF_LAST_FILE) {
    return fail(
      `${rows} rows is fewer than ${Math.round(MIN_SHARE_OF_LAST_FILE * 100)} % of the ${last.rows} in the last file reconciled (${last.file_name ?? last.source}, ${last.reconciled_on}): the file was probably cut short`,
    );
  }

  await rateData.refresh();
  const table = rateData.table;
  const comparison = compareWithTable(table, countyCodes(table, deps.districtCodes), parsed.rows, today);
  if (!comparison.ok) return fail(comparison.error);

  const posted = postingDate(file ?? "");
  const announced: IsoDate = posted !== null && posted <= today ? posted : today;
  const after = mergeTable(rateData.shipped, [...rateData.recorded.map(toRatePeriod), ...comparison.periods]);
  const changes = [...new Set(comparison.periods.map((p) => `${p.fips}|${p.effectiveFrom}`))]
    .map((key) => {
      const [fips, date] = key.split("|") as [string, IsoDate];
      return describeChange(after, after.byFips.get(fips)!, date, { announced, today });
    })
    .filter((change) => change !== null);

  const finished = finishedAt();
  const eventsEmitted = await db.transaction().execute(async (trx) => {
    for (const period of comparison.periods) {
      await upsertRecordedPeriod(trx, {
        fips: period.fips,
        component: period.component,
        authority: period.authority,
        rate_millionths: period.rate,
        effective_from: period.effectiveFrom!,
        effective_to: period.effectiveTo,
        announced_on: announced,
        source: file ?? source,
        reconciliation_id: id,
        recorded_at: finished,
      });
    }
    let emitted = 0;
    for (const change of changes) {
      const published = await publishEvent(
        trx,
        {
          type: "rate.announced",
          data: { ...change, announced_date: announced },
          dedupeKey: `rate.announced:${change.fips}:${change.effective_date}:${change.new_rate}:${change.transit_district?.new_rate_inside ?? ""}`,
        },
        at,
      );
      if (published.created) emitted++;
    }
    await insertReconciliation(
      trx,
      {
        status: "succeeded",
        source,
        file_name: file,
        reconciled_on: today,
        rows,
        periods_recorded: comparison.periods.length,
        events_emitted: emitted,
        discrepancies: JSON.stringify(comparison.discrepancies),
        error: null,
        started_at: startedAt,
        finished_at: finished,
      },
      id,
    );
    return emitted;
  });
  await rateData.refresh();
  return { id, status: "succeeded", file, rows, periodsRecorded: comparison.periods.length, eventsEmitted, discrepancies: comparison.discrepancies, error: null };
}
