/**
 * Imports one SST boundary file as a new version (issue 9 §2). Streaming: rows are validated and
 * written as they arrive. Atomic for lookups: records are written under the new version, which no
 * query names until the single-row pointer switches to it in one transaction, after the last row.
 * Any malformed row, a file cut short, or a file with far fewer records than the active one (below
 * MIN_SHARE_OF_ACTIVE, unless forced) refuses the whole file: its rows are deleted and the
 * pointer never moves. The version it replaces is kept for rollback; older ones are deleted.
 *
 * One import at a time, across processes and instances: an import takes the import lease
 * (migration 2026-11-24-080) before it touches any version, renews it while it writes and gives it
 * back at the end. A second import is refused while the lease holds, rather than deleting the
 * first one's rows as an unfinished load; one that died lets its lease lapse after LEASE_TTL_MS,
 * and the next import takes over and removes its leftovers. The switch to the new version checks
 * the lease in its own transaction.
 */
import { parse as parseCsv } from "csv-parse/sync";
import type { Store } from "../store/connect.ts";
import {
  activateVersion,
  beginVersion,
  deleteVersion,
  findVersion,
  readPointer,
  recordWriter,
  LeaseLostError,
  releaseImportLease,
  renewImportLease,
  staleVersions,
  takeImportLease,
  type ImportLease,
  type RecordRow,
} from "../store/boundaries.repository.ts";
import { newId } from "../ids.ts";
import { streetKey, standardUnitDesignator } from "./pub28.ts";
import { csvBytes, csvLines, CutShortError, openSource } from "./read-source.ts";
import { parseBoundaryRow, type BoundaryRecord } from "./record-layout.ts";
import { isSyntheticRecord } from "./synthetic-file.ts";
import { labelSynthetic } from "./synthetic-label.ts";

/**
 * A new file with fewer than 90 % of the active version's records is refused without --force:
 * Ohio's quarterly files move by a few thousand records in 1.9 million, so losing a tenth means a
 * truncated download or a partial export, not a real change.
 */
export const MIN_SHARE_OF_ACTIVE = 0.9;

/** How long an import's lease holds without renewal, and how often a running import renews it. */
export const LEASE_TTL_MS = 120_000;
const LEASE_RENEW_MS = 15_000;

export type ImportStatus = "imported" | "unchanged" | "refused";

export interface ImportResult {
  version: string | null;
  records: number;
  address_ranges: number;
  zip4_ranges: number;
  zip5_ranges: number;
  status: ImportStatus;
  /** The version that was active before (now kept for rollback), when imported. */
  previous_version: string | null;
  source: string;
  /** Why the file was refused; null otherwise. */
  error: string | null;
  /** The offending line, when one row was at fault. */
  line: number | null;
  seconds: number;
}

export interface ImportOptions {
  store: Pick<Store, "db" | "sqlite">;
  /** A path or http(s) URL. */
  source: string;
  /** Accept a file far smaller than the active one. */
  force?: boolean;
  /**
   * The file is SYNTHETIC (made up, src/boundaries/synthetic-file.ts): its version is labelled
   * -SYNTHETIC. Without it, a file named or marked synthetic is refused.
   */
  synthetic?: boolean;
  now?: () => Date;
  fetchTimeoutMs?: number;
  /** The import lease's lifetime (tests shorten it). */
  leaseTtlMs?: number;
}

const VERSION_IN_NAME = /^([A-Z]{2}B\d{4}Q[1-4][A-Z]{3}\d{1,2})(?=[^A-Z0-9]|$)/i;

/** OHB2026Q4SEP17.zip, OHB2026Q4SEP17-synthetic.csv → OHB2026Q4SEP17; null when the name carries no version. */
export function versionFromName(name: string): string | null {
  const match = VERSION_IN_NAME.exec(name);
  return match && match[1]!.toUpperCase().startsWith("OH") ? match[1]!.toUpperCase() : null;
}

const SYNTHETIC_REFUSAL =
  "this is a SYNTHETIC boundary file (made-up data, not the state's): import it with --synthetic, into a throwaway database, never one that answers real lookups";

class Refusal extends Error {
  constructor(
    message: string,
    readonly line: number | null = null,
  ) {
    super(message);
  }
}

function fieldsOf(line: string): string[] {
  // Ohio's file has no quoted fields; a line that has one goes through the CSV parser.
  return line.includes('"') ? ((parseCsv(line, { relax_column_count: true }) as string[][])[0] ?? []) : line.split(",");
}

/** Street keys by their spelling in the file: a street's spelling repeats on every block of it. */
const streetKeys = new Map<string, string>();

function cachedStreetKey(r: BoundaryRecord): string {
  const spelling = `${r.preDirectional}|${r.streetName}|${r.suffix}|${r.postDirectional}`;
  let key = streetKeys.get(spelling);
  if (key === undefined) {
    key = streetKey(r);
    if (streetKeys.size >= 200_000) streetKeys.clear();
    streetKeys.set(spelling, key);
  }
  return key;
}

function toRow(version: string, line: number, r: BoundaryRecord): RecordRow {
  const street = r.recordType === "A" ? cachedStreetKey(r) : null;
  return [
    version, line, r.recordType, r.effectiveFrom, r.effectiveTo, r.zip5, r.zip5High, r.plus4Low, r.plus4High,
    street, r.houseLow, r.houseHigh, r.parity,
    r.unit ? standardUnitDesignator(r.unit.designator) : null, r.unit?.low ?? null, r.unit?.high ?? null, r.unit?.parity ?? null,
    r.countyFips, r.transitCode,
  ];
}

export async function importBoundaryFile(options: ImportOptions): Promise<ImportResult> {
  const { store, source } = options;
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  const counts = { records: 0, address_ranges: 0, zip4_ranges: 0, zip5_ranges: 0 };
  let version: string | null = null;
  let previous: string | null = null;
  let loading = false;
  const lease: ImportLease = { holder: newId("imp"), ttlMs: options.leaseTtlMs ?? LEASE_TTL_MS };
  let leased = false;
  const result = (status: ImportStatus, error: string | null = null, line: number | null = null): ImportResult => ({
    version,
    ...counts,
    status,
    previous_version: status === "imported" ? previous : null,
    source,
    error,
    line,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
  });

  try {
    const opened = await openSource(source, options.fetchTimeoutMs ?? 600_000);
    version = versionFromName(opened.name);
    if (version === null) throw new Refusal(`the file name "${opened.name}" carries no Ohio boundary file version such as OHB2026Q4SEP17`);
    if (options.synthetic) version = labelSynthetic(version);
    else if (/synthetic/i.test(opened.name)) throw new Refusal(SYNTHETIC_REFUSAL);
    const pointer = await readPointer(store.db);
    if (pointer.version === version) {
      await (opened.bytes as AsyncIterable<Uint8Array> & { destroy?: () => void }).destroy?.();
      const active = await findVersion(store.db, version);
      if (active) Object.assign(counts, { records: active.records, address_ranges: active.address_ranges, zip4_ranges: active.zip4_ranges, zip5_ranges: active.zip5_ranges });
      return result("unchanged");
    }
    const taken = await takeImportLease(store.db, lease, source, now());
    if (!taken.ok) {
      await (opened.bytes as AsyncIterable<Uint8Array> & { destroy?: () => void }).destroy?.();
      throw new Refusal(
        `another boundary file import is running (${taken.source ?? "source unknown"}, started ${taken.takenAt ?? "at an unknown time"}; its lease holds until ${taken.expiresAt ?? "unknown"}): nothing was changed; try again when it has finished`,
      );
    }
    leased = true;
    // Leftovers of an unfinished load, and this version's own rows if it was imported before (kept as the previous one).
    for (const stale of await staleVersions(store.db)) await deleteVersion(store.db, stale);
    if (await findVersion(store.db, version)) await deleteVersion(store.db, version);
    await beginVersion(store.db, version, source, now());
    loading = true;

    const writer = recordWriter(store);
    let line = 0;
    let renewedAt = performance.now();
    try {
      for await (const lines of csvLines(csvBytes(opened.bytes))) {
        for (const text of lines) {
          line++;
          if (text.trim() === "") continue;
          const record = parseBoundaryRow(fieldsOf(text), line);
          if (typeof record === "string") throw new Refusal(record, line);
          if (!options.synthetic && isSyntheticRecord(record)) throw new Refusal(SYNTHETIC_REFUSAL, line);
          counts.records++;
          if (record.recordType === "A") counts.address_ranges++;
          else if (record.recordType === "4") counts.zip4_ranges++;
          else counts.zip5_ranges++;
          await writer.add(toRow(version, line, record));
          if (performance.now() - renewedAt >= LEASE_RENEW_MS) {
            if (!(await renewImportLease(store.db, lease, now()))) throw new LeaseLostError();
            renewedAt = performance.now();
          }
        }
      }
    } catch (error) {
      if (error instanceof CutShortError) throw new Refusal(`line ${line + 1}: ${error.message}`, line + 1);
      if (error instanceof Refusal || error instanceof LeaseLostError) throw error;
      throw new Refusal(`could not read the boundary file: ${error instanceof Error ? error.message : String(error)}`, null);
    }
    await writer.flush();
    if (counts.records === 0) throw new Refusal("the file has no records");

    const active = pointer.version === null ? undefined : await findVersion(store.db, pointer.version);
    if (active && counts.records < active.records * MIN_SHARE_OF_ACTIVE && !options.force) {
      throw new Refusal(
        `${counts.records} records is fewer than ${Math.round(MIN_SHARE_OF_ACTIVE * 100)} % of the active version ${active.version}'s ${active.records}: refused as a probably partial file (use --force to import it anyway)`,
      );
    }
    previous = await activateVersion(store.db, version, counts, now(), lease);
    loading = false;
    for (const stale of await staleVersions(store.db)) await deleteVersion(store.db, stale);
    return result("imported");
  } catch (error) {
    // A lost lease leaves its rows to the import that took over, which removes them as leftovers.
    if (loading && version !== null && !(error instanceof LeaseLostError)) await deleteVersion(store.db, version);
    if (error instanceof Refusal) return result("refused", error.message, error.line);
    return result("refused", error instanceof Error ? error.message : String(error));
  } finally {
    if (leased) await releaseImportLease(store.db, lease);
  }
}
