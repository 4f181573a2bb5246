/**
 * The reconcile job: read the state's SST rate file from RECONCILE_SOURCE (a URL or a path; CSV,
 * or a ZIP archive holding it) on a thread of its own under RECONCILE_MAX_BYTES, compare it with
 * our periods, and in one transaction log the run, record newly enacted future periods and publish
 * one rate.announced per county and date they change. A file that is malformed or partial, fetched
 * over plain http without its checksum, or that brings a change the state did not announce
 * (docs/guides/webhooks-and-jobs.md, "Reconciliation"), changes nothing: the failure is logged in the
 * reconciliation log alone, with the changes held, until an operator runs it with --force.
 */
import { dateInOhio, type IsoDate } from "../rates/calendar.ts";
import { newId } from "../ids.ts";
import type { Db } from "../store/database.ts";
import { insertReconciliation, latestSuccessfulReconciliation, upsertRecordedPeriod } from "../store/reconciliations.repository.ts";
import { publishEvent } from "../webhooks/outbox.ts";
import { compareWithTable, countyCodes, type CountyCodes, type Discrepancy } from "./compare-rates.ts";
import { mergeTable } from "../rates/overlay-periods.ts";
import { toRatePeriod, type RateData } from "../freshness/rate-data.ts";
import { describeChange } from "./rate-change-data.ts";
import { readRateFileInThread } from "./rate-file-thread.ts";
import { postingDate, quarterEnd } from "../rates/sst-file-names.ts";
import { formatRate } from "../rates/millionths.ts";
import type { RatePeriod, RateTable } from "../rates/rate-table.ts";
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
  /** The SHA-256 (hex) the file's bytes must have; required for a plain http:// source. */
  sha256?: string | null;
  /** Bytes the download, and the file's text, are each refused past (RECONCILE_MAX_BYTES). */
  maxBytes?: number;
  /** Record changes the state did not announce too: an operator's confirmation (`buckeye reconcile --force`); the scheduled job never forces. */
  force?: boolean;
  fetchTimeoutMs?: number;
}

/** Unset: the default of RECONCILE_MAX_BYTES. */
const DEFAULT_MAX_BYTES = 4_000_000;

const QUARTER_STARTS = new Set(["01-01", "04-01", "07-01", "10-01"]);

/**
 * Why the state cannot have announced this change, or null when it can: a county or transit levy
 * changes only on the first day of a calendar quarter (R.C. 5739.021, 5739.023; the Department of
 * Taxation's rate-change notices), and the file for a quarter, once reconciled, settles that
 * quarter's start: a later file that changes a date up to the end of that quarter (or withdraws a
 * change it carried) was not announced in the state's usual way.
 */
function unannounced(period: RatePeriod, settledThrough: IsoDate | null): string | null {
  const from = period.effectiveFrom!;
  if (!QUARTER_STARTS.has(from.slice(5))) return `unannounced: ${from} is not the first day of a calendar quarter, when levies change`;
  if (settledThrough !== null && from <= settledThrough) return `unannounced: the last file reconciled already set the rates through ${settledThrough}, without this change`;
  return null;
}

/** A held change as the reconciliation log lists it, with its figure and ours. */
function heldChange(table: RateTable, codes: readonly CountyCodes[], period: RatePeriod, reason: string): Discrepancy {
  const ours = (table.periods.get(period.fips) ?? []).find(
    (p) => p.component === period.component && (p.effectiveFrom === null || p.effectiveFrom <= period.effectiveFrom!) && (p.effectiveTo === null || period.effectiveFrom! < p.effectiveTo),
  );
  const county = codes.find((c) => c.fips === period.fips);
  const code = period.component === "county" ? period.fips.slice(2) : period.component === "district" ? (county?.district ?? "") : (county?.transit ?? "");
  return {
    fips: period.fips, county: county?.county ?? null, component: period.component, code, date: period.effectiveFrom,
    file_rate: formatRate(period.rate), our_rate: formatRate(ours?.rate ?? 0), reason,
  };
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

  const fail = async (error: string, held: Discrepancy[] = []): Promise<ReconcileResult> => {
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
        discrepancies: JSON.stringify(held),
        error,
        started_at: startedAt,
        finished_at: finishedAt(),
      },
      id,
    );
    return { id, status: "failed", file, rows, periodsRecorded: 0, eventsEmitted: 0, discrepancies: held, error };
  };

  // Over plain http anyone on the path can rewrite the file; a checksum is then the only thing vouching for it.
  if (/^http:\/\//i.test(source) && !deps.sha256) return fail("a rate file fetched over plain http:// needs its SHA-256 (RECONCILE_SHA256 or --sha256); use https:// otherwise");
  let text: string;
  try {
    const read = await readRateFileInThread(source, { timeoutMs: deps.fetchTimeoutMs ?? 60_000, maxBytes: deps.maxBytes ?? DEFAULT_MAX_BYTES, sha256: deps.sha256 ?? null });
    text = read.text;
    // The archive's own name carries the posting date; the entry is logged beside it.
    file = read.entry === null ? read.name : `${read.name} (${read.entry})`;
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
  const codes = countyCodes(table, deps.districtCodes);
  const comparison = compareWithTable(table, codes, parsed.rows, today);
  if (!comparison.ok) return fail(comparison.error);
  const settledThrough = last ? quarterEnd(last.file_name ?? "") : null;
  const held = comparison.periods.flatMap((period) => {
    const reason = unannounced(period, settledThrough);
    return reason === null ? [] : [heldChange(table, codes, period, reason)];
  });
  if (held.length > 0 && !deps.force) {
    return fail(
      `${held.length} rate change${held.length === 1 ? "" : "s"} the state did not announce (${held.slice(0, 3).map((h) => `${h.county ?? h.code} ${h.component} ${h.file_rate} from ${h.date}`).join("; ")}${held.length > 3 ? "; …" : ""}) held: nothing was recorded; check them against the Department of Taxation's notices and run \`buckeye reconcile --force\` to record them`,
      held,
    );
  }

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
