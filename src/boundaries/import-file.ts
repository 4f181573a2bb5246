/**
 * Imports one SST boundary file as a new version (docs/guides/boundary-file.md). Streaming: rows are validated and
 * written as they arrive. Atomic for lookups: records are written under the new version, which no
 * query names until the single-row pointer switches to it in one transaction, after the last row.
 * Any malformed row, a file cut short, or a file with far fewer records than the active one (below
 * MIN_SHARE_OF_ACTIVE, unless forced) refuses the whole file: its rows are deleted and the
 * pointer never moves. The version it replaces is kept for rollback; older ones are deleted. A
 * version stored already (the one kept for rollback) is loaded beside itself and replaced only in
 * the switch's transaction, so a refused or killed re-import leaves it to roll back to.
 *
 * One import at a time, across processes and instances: an import takes the import lease
 * (migration 2026-11-24-080) before it touches any version, renews it while it writes and gives it
 * back at the end. A second import is refused while the lease holds, rather than deleting the
 * first one's rows as an unfinished load; one that died lets its lease lapse after LEASE_TTL_MS,
 * and the next import takes over and removes its leftovers. The switch to the new version checks
 * the lease in its own transaction.
 */
import { createHash } from "node:crypto";
import { parse as parseCsv } from "csv-parse/sync";
import type { Store } from "../store/connect.ts";
import {
  activateVersion,
  beginVersion,
  compareVersions,
  deleteVersion,
  zipCountyPairs,
  findVersion,
  readPointer,
  refreshPlannerStatistics,
  type JurisdictionLoss,
  groupRecords,
  type GroupRecordRow,
  recordWriter,
  LeaseLostError,
  releaseImportLease,
  renewImportLease,
  staleVersions,
  takeImportLease,
  writeCities,
  writeStreets,
  type ImportLease,
  type RecordRow,
} from "../store/boundaries.repository.ts";
import { newId } from "../ids.ts";
import { GroupSample, judgeGroup } from "./answer-changes.ts";
import { streetKey, standardUnitDesignator } from "./pub28.ts";
import { CapExceededError, csvBytes, csvLines, openSource } from "./read-source.ts";
import { parseBoundaryRow, zip4Segments, type BoundaryRecord, type SkipReason } from "./record-layout.ts";
import { preparedStreets } from "./street-index.ts";
import { isSyntheticRecord, SYNTHETIC_CITY_MARK } from "./synthetic-file.ts";
import { labelSynthetic } from "./synthetic-label.ts";
import { dateInOhio } from "../rates/calendar.ts";
import { contradictingZips, readZipCounties, type ZipCounties } from "./zip-table.ts";

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

/** How many line numbers the report lists per skip reason: enough to find the rows, never the whole file. */
export const FIRST_LINES_LISTED = 5;

/** Rows skipped because they can answer no Ohio lookup, by reason (record-layout.ts SkipReason). */
export interface SkippedRows {
  rows: number;
  by_reason: Partial<Record<SkipReason, { rows: number; first_lines: number[] }>>;
}

/**
 * Above this share of the active version's ranges moved (changed jurisdiction, or removed), a
 * file is refused without --force, and the scheduled job never forces. A quarter moves a few
 * thousand of Ohio's 1.9 million ranges, 0.1 to 0.3 %; 1 % leaves a real quarter three times its
 * room, and refuses a file with one range in twenty-five rewritten (800 of 20,000 transit codes
 * stripped imported silently under the 5 % this replaced).
 */
export const MAX_CHANGED_SHARE = 0.01;

/**
 * A county or transit code that loses more than this share of the ranges that carried it (and at
 * least JURISDICTION_MIN_LOST of them, or all of them when it has fewer) is reported and refused
 * without --force, whatever the file's share: a district dropped from many ranges at once, or a
 * county's territory moved, changes many answers while its share of the whole state stays small.
 * A real annexation moves a few streets of one county, well under this.
 */
export const JURISDICTION_MAX_LOST_SHARE = 0.01;
export const JURISDICTION_MIN_LOST = 10;

/** Above this share of rows repeating another row, a file is refused without --force as broken. */
export const MAX_DUPLICATE_SHARE = 0.05;

/**
 * Above this share of the file's ZIPs newly contradicting the shipped ZIP table (placed in a county
 * it never lists for them, where the active version did not already), a file is refused without
 * --force. Counted against the active version, so a state's file that differs from the Census
 * table (which only approximates USPS ZIPs) keeps importing on schedule; the table alone judges
 * only a first import.
 */
export const MAX_CONTRADICTING_SHARE = 0.05;

/** How many ZIPs the report lists by name. */
const ZIPS_LISTED = 10;

/** The file's ZIPs against the shipped ZIP table (zip-table.ts): ZIPs placed in a county the table never lists for them. */
export interface ZipReport {
  zips: number;
  /** The active version the contradictions are counted against (only those it did not have count); null for a first import. */
  against: string | null;
  /** ZIPs that contradict the table and that the active version did not place so, and their share: the figure judged. */
  contradicting: number;
  contradicting_share: number;
  /** The first few of those, in order. */
  first_zips: string[];
  /** Every ZIP of the file that contradicts the table, the active version's contradictions included. */
  table_contradicting: number;
}

/** The new file against the active version (store/boundaries.repository.ts compareVersions). */
export interface ChangeReport {
  against: string;
  /** The active version's ranges (distinct coverage: type, ZIP, plus-4 range, street, house range, parity, unit). */
  ranges_in_active: number;
  /** Ranges of the new file the active version also has (same coverage, whatever their dates). */
  ranges_compared: number;
  /** Of those, the ones whose county, transit code or current record changed. */
  ranges_changed: number;
  /** Ranges only the new file has, and ranges only the active version has. */
  ranges_added: number;
  ranges_removed: number;
  /**
   * Ranges of the active version the file keeps unchanged, but where lookups at their sampled
   * addresses now answer another county or transit code: an added or narrowed range shadows them, as
   * a lookup prefers the most specific match (answer-changes.ts). Estimated from the groups judged.
   */
  ranges_shadowed: number;
  /** The groups (a street in a ZIP, a ZIP's ZIP+4 ranges) where the versions' ranges differ, how many were judged, the lookups made there, and the seconds it took (part of the compare phase). */
  lookups_judged: { groups: number; judged: number; lookups: number; seconds: number };
  /**
   * Changed, removed and shadowed ranges over the active version's: the share of its answers that
   * move, judged against MAX_CHANGED_SHARE. An added range moves no answer unless it shadows an
   * existing one: a file grows as streets are built.
   */
  changed_share: number;
  /** Counties and transit codes that lost more of their ranges than a real quarter moves (JURISDICTION_MAX_LOST_SHARE). */
  jurisdictions_moved: JurisdictionLoss[];
  /** Rows identical to another row of the file but for their line, and their share of its rows. */
  duplicate_rows: number;
  duplicate_share: number;
}

/** What an import found beyond its counts; stored with the version, so `boundaries status` shows it. */
export interface ImportReport {
  skipped: SkippedRows;
  /** Null for the first version (nothing to compare with). */
  changes: ChangeReport | null;
  /** Null when no ZIP table was given. */
  zips: ZipReport | null;
}

/** The caps an import refuses a file past, checked while it streams (src/config.ts BOUNDARY_MAX_*). */
export interface ImportCaps {
  /** Bytes of CSV text (a ZIP archive's entry inflated). */
  bytes: number;
  /** Rows, skipped ones included. */
  records: number;
  /** Characters in one line. */
  lineLength: number;
}

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
  /** Rows left out because they can answer no Ohio lookup (another state's, no county). */
  skipped: SkippedRows;
  /** The file against the active version, once it is all read; null before that or when no version is active. */
  changes: ChangeReport | null;
  /** The file's ZIPs against the shipped ZIP table, once it is all read; null before that or without a table. */
  zips: ZipReport | null;
  seconds: number;
  /** Where the seconds went: reading and writing the rows, the change report, the ZIP check, the switch, removing superseded versions. */
  phases: ImportPhases;
}

export interface ImportPhases {
  load: number;
  compare: number;
  zip_check: number;
  activate: number;
  cleanup: number;
}

export interface ImportOptions {
  store: Pick<Store, "db" | "sqlite">;
  /** A path or http(s) URL. */
  source: string;
  /** Accept a file far smaller than the active one, or one its change report or ZIP check refuses. */
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
  /** Unset: no cap. */
  caps?: Partial<ImportCaps>;
  /** The SHA-256 (hex) the file's bytes must have; required for a plain http:// source. */
  sha256?: string | null;
  /** The folder holding the shipped zip-counties.csv, to check the file's ZIPs against; unset: not checked. */
  dataDir?: string;
}

/** The bytes as they pass, hashed: the digest is read once they have all passed. */
function hashing(bytes: AsyncIterable<Uint8Array>): { bytes: AsyncIterable<Uint8Array>; digest: () => string } {
  const hash = createHash("sha256");
  return {
    bytes: (async function* () {
      for await (const chunk of bytes) {
        hash.update(chunk);
        yield chunk;
      }
    })(),
    digest: () => hash.digest("hex"),
  };
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

/** One stored row per ZIP5 a record covers (record-layout.ts zip4Segments). */
function toRows(version: string, line: number, record: BoundaryRecord): RecordRow[] {
  return zip4Segments(record).map((segment) => toRow(version, line, segment));
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

const share = (part: number, whole: number) => (whole === 0 ? 0 : Number((part / whole).toFixed(4)));
const percent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;

/** Moved more of its ranges than a real quarter does (JURISDICTION_MAX_LOST_SHARE, JURISDICTION_MIN_LOST). */
function movedJurisdiction(j: JurisdictionLoss): boolean {
  return j.lost >= Math.min(JURISDICTION_MIN_LOST, j.ranges) && j.lost > j.ranges * JURISDICTION_MAX_LOST_SHARE;
}

/** Groups whose records are read and judged together: the records of a few hundred streets in memory at once, whatever the file. */
const GROUPS_PER_READ = 250;

/** Judges the sampled groups where the versions differ by what lookups there answer (answer-changes.ts). */
async function judgeLookups(store: Pick<Store, "db" | "sqlite">, version: string, against: string, day: string, sample: GroupSample) {
  let shadowed = 0;
  let lookups = 0;
  const lost = new Map<string, number>();
  for (let start = 0; start < sample.kept.length; start += GROUPS_PER_READ) {
    const groups = sample.kept.slice(start, start + GROUPS_PER_READ);
    const byGroup = (rows: readonly GroupRecordRow[]) => {
      const grouped: GroupRecordRow[][] = groups.map(() => []);
      for (const row of rows) grouped[row.query]!.push(row);
      return grouped;
    };
    const [before, after] = [byGroup(await groupRecords(store, against, groups)), byGroup(await groupRecords(store, version, groups))];
    for (let g = 0; g < groups.length; g++) {
      const judged = judgeGroup(before[g]!, after[g]!, day);
      shadowed += judged.shadowed;
      lookups += judged.lookups;
      for (const { kind, code } of judged.lost) lost.set(`${kind}:${code}`, (lost.get(`${kind}:${code}`) ?? 0) + 1);
    }
    // SQLite's reads and the judging are synchronous: a server importing in its own process keeps answering between chunks.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const scaled = (n: number) => Math.round(n * sample.scale);
  return { shadowed: scaled(shadowed), lookups, lost: new Map([...lost].map(([key, n]) => [key, scaled(n)])) };
}

async function changeReport(store: Pick<Store, "db" | "sqlite">, version: string, against: string, day: string): Promise<ChangeReport> {
  const sample = new GroupSample();
  const compared = await compareVersions(store, version, against, day, sample.add);
  const judging = performance.now();
  const lookups = await judgeLookups(store, version, against, day, sample);
  const seconds = Number(((performance.now() - judging) / 1000).toFixed(2));
  // A shadowed range lost what its lookups lost, though its own row kept it; never more ranges than carried the code.
  const jurisdictions = compared.jurisdictions.map((j) => ({ ...j, lost: Math.min(j.ranges, j.lost + (lookups.lost.get(`${j.kind}:${j.code}`) ?? 0)) }));
  return {
    against,
    ranges_in_active: compared.against_ranges,
    ranges_compared: compared.compared,
    ranges_changed: compared.changed,
    ranges_added: compared.added,
    ranges_removed: compared.removed,
    ranges_shadowed: lookups.shadowed,
    lookups_judged: { groups: sample.seen, judged: sample.kept.length, lookups: lookups.lookups, seconds },
    changed_share: share(compared.changed + compared.removed + lookups.shadowed, compared.against_ranges),
    jurisdictions_moved: jurisdictions.filter(movedJurisdiction),
    duplicate_rows: compared.duplicates,
    duplicate_share: share(compared.duplicates, compared.rows),
  };
}

/** The change report's refusals, the first that applies (docs/guides/boundary-file.md, "A change report against the active version"). */
function refuseChanges(changes: ChangeReport): void {
  const rewritten = "refused as a probably rewritten file (use --force to import it anyway)";
  if (changes.ranges_compared === 0 && changes.ranges_in_active > 0) {
    throw new Refusal(`none of the file's ranges is also in the active version ${changes.against} (same type, ZIP, range, parity and street, whatever the dates): nothing could be compared, ${rewritten}`);
  }
  if (changes.changed_share > MAX_CHANGED_SHARE) {
    throw new Refusal(
      `${changes.ranges_changed} ranges changed county, transit or current record, ${changes.ranges_removed} were removed and ${changes.ranges_shadowed} kept but shadowed (lookups in them now answer another county or transit code from a range added over them), of the ${changes.ranges_in_active} in the active version ${changes.against} (${percent(changes.changed_share)}, more than ${MAX_CHANGED_SHARE * 100} %): ${rewritten}`,
    );
  }
  if (changes.jurisdictions_moved.length > 0) {
    const named = changes.jurisdictions_moved.slice(0, ZIPS_LISTED).map((j) => `${j.kind} ${j.code} lost ${j.lost} of its ${j.ranges} ranges`).join("; ");
    throw new Refusal(`${named} (more than ${JURISDICTION_MAX_LOST_SHARE * 100} % of a county's or transit code's ranges at once): ${rewritten}`);
  }
  if (changes.duplicate_share > MAX_DUPLICATE_SHARE) {
    throw new Refusal(`${changes.duplicate_rows} rows repeat another row (${percent(changes.duplicate_share)}, more than ${MAX_DUPLICATE_SHARE * 100} %): refused as a probably broken file (use --force to import it anyway)`);
  }
}

/** The file's ZIPs against the table: only the contradictions the active version did not have count, or all of them for a first import. */
async function zipReport(store: Pick<Store, "db" | "sqlite">, version: string, against: string | null, table: ZipCounties): Promise<ZipReport> {
  const pairs = await zipCountyPairs(store.db, version);
  const all = contradictingZips(pairs, table);
  const had = against === null ? new Set<string>() : new Set((await zipCountyPairs(store.db, against)).map((p) => `${p.zip5}|${p.county_fips}`));
  const judged = against === null ? all : contradictingZips(pairs.filter((p) => !had.has(`${p.zip5}|${p.county_fips}`)), table);
  return {
    zips: all.zips,
    against,
    contradicting: judged.contradicting.length,
    contradicting_share: share(judged.contradicting.length, all.zips),
    first_zips: judged.contradicting.slice(0, ZIPS_LISTED),
    table_contradicting: all.contradicting.length,
  };
}

export async function importBoundaryFile(options: ImportOptions): Promise<ImportResult> {
  const { store, source } = options;
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  const phases: ImportPhases = { load: 0, compare: 0, zip_check: 0, activate: 0, cleanup: 0 };
  let phaseStarted = started;
  const endPhase = (phase: keyof ImportPhases) => {
    const at = performance.now();
    phases[phase] = Number(((at - phaseStarted) / 1000).toFixed(2));
    phaseStarted = at;
  };
  const counts = { records: 0, address_ranges: 0, zip4_ranges: 0, zip5_ranges: 0 };
  const skipped: SkippedRows = { rows: 0, by_reason: {} };
  let changes: ChangeReport | null = null;
  let zips: ZipReport | null = null;
  const caps: ImportCaps = { bytes: Number.POSITIVE_INFINITY, records: Number.POSITIVE_INFINITY, lineLength: Number.POSITIVE_INFINITY, ...options.caps };
  let version: string | null = null;
  /** Where the rows are written: the version, or beside it when it is stored already. */
  let loadedAs: string | null = null;
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
    skipped,
    changes,
    zips,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    phases,
  });

  try {
    // Over plain http anyone on the path can rewrite the file; a checksum is then the only thing vouching for it.
    if (/^http:\/\//i.test(source) && !options.sha256) throw new Refusal("a boundary file fetched over plain http:// needs its SHA-256 (--sha256 or BOUNDARY_SHA256); use https:// otherwise");
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
    // Leftovers of an unfinished load. A version stored already (kept for rollback) is loaded beside
    // itself and replaced only at the switch, so a refused or killed import leaves it to roll back to.
    for (const stale of await staleVersions(store.db)) await deleteVersion(store.db, stale);
    loadedAs = (await findVersion(store.db, version)) ? `${version}~${lease.holder}` : version;
    await beginVersion(store.db, loadedAs, source, now());
    loading = true;

    const writer = recordWriter(store);
    /** "43081\tWESTERVILLE": the city names the file gives its ZIPs, for the address matcher (street-index.ts). */
    const cities = new Set<string>();
    /** ZIP → its street keys: the street index's streets, stored prepared (street-index.ts preparedStreets). */
    const streets = new Map<string, Set<string>>();
    const hashed = hashing(opened.bytes);
    let line = 0;
    let renewedAt = performance.now();
    try {
      for await (const batch of csvLines(csvBytes(hashed.bytes, caps.bytes), caps.lineLength)) {
        for (const text of batch.lines) {
          line++;
          if (text.trim() === "") continue;
          if (counts.records + skipped.rows >= caps.records) {
            throw new Refusal(`line ${line}: the file has more than ${caps.records} rows (BOUNDARY_MAX_RECORDS): refused before it was all read`, line);
          }
          const record = parseBoundaryRow(fieldsOf(text), line);
          if (typeof record === "string") {
            // A file may end without a line break; a last row that is also malformed is most likely cut.
            throw new Refusal(batch.unterminated ? `${record}; the last row ends without a line break: the file was probably cut short` : record, line);
          }
          if ("skip" in record) {
            skipped.rows++;
            const reason = (skipped.by_reason[record.skip] ??= { rows: 0, first_lines: [] });
            reason.rows++;
            if (reason.first_lines.length < FIRST_LINES_LISTED) reason.first_lines.push(line);
            continue;
          }
          if (!options.synthetic && isSyntheticRecord(record)) throw new Refusal(SYNTHETIC_REFUSAL, line);
          counts.records++;
          if (record.recordType === "A") counts.address_ranges++;
          else if (record.recordType === "4") counts.zip4_ranges++;
          else counts.zip5_ranges++;
          for (const row of toRows(loadedAs, line, record)) {
            await writer.add(row);
            if (row[9] !== null) {
              const zip5 = row[5] as string;
              let held = streets.get(zip5);
              if (held === undefined) streets.set(zip5, (held = new Set()));
              held.add(row[9] as string);
            }
          }
          if (record.recordType === "A" && record.city !== "") cities.add(`${record.zip5}\t${record.city.endsWith(SYNTHETIC_CITY_MARK) ? record.city.slice(0, -SYNTHETIC_CITY_MARK.length) : record.city}`);
          if (performance.now() - renewedAt >= LEASE_RENEW_MS) {
            if (!(await renewImportLease(store.db, lease, now()))) throw new LeaseLostError();
            renewedAt = performance.now();
          }
        }
      }
    } catch (error) {
      if (error instanceof CapExceededError) throw new Refusal(error.message, null);
      if (error instanceof Refusal || error instanceof LeaseLostError) throw error;
      throw new Refusal(`could not read the boundary file: ${error instanceof Error ? error.message : String(error)}`, null);
    }
    await writer.flush();
    await writeCities(store.db, loadedAs, [...cities].map((pair) => ({ zip5: pair.slice(0, 5), city: pair.slice(6) })));
    await writeStreets(store.db, loadedAs, [...streets].flatMap(([zip5, keys]) => {
      const prepared = preparedStreets(keys);
      return prepared === "" ? [] : [{ zip5, streets: prepared }];
    }));
    if (options.sha256) {
      const digest = hashed.digest();
      if (digest !== options.sha256.toLowerCase()) throw new Refusal(`the file's SHA-256 is ${digest}, not the expected ${options.sha256.toLowerCase()}: refused as altered or not the file meant`);
    }
    if (counts.records === 0) throw new Refusal("the file has no records");
    // Before the change report reads the new rows, and before any lookup does.
    await refreshPlannerStatistics(store);

    endPhase("load");
    const active = pointer.version === null ? undefined : await findVersion(store.db, pointer.version);
    if (active && counts.records < active.records * MIN_SHARE_OF_ACTIVE && !options.force) {
      throw new Refusal(
        `${counts.records} records is fewer than ${Math.round(MIN_SHARE_OF_ACTIVE * 100)} % of the active version ${active.version}'s ${active.records}: refused as a probably partial file (use --force to import it anyway)`,
      );
    }
    if (active) {
      if (!(await renewImportLease(store.db, lease, now()))) throw new LeaseLostError();
      changes = await changeReport(store, loadedAs, active.version, dateInOhio(now()));
      if (!options.force) refuseChanges(changes);
    }
    endPhase("compare");
    if (options.dataDir) {
      zips = await zipReport(store, loadedAs, active?.version ?? null, readZipCounties(options.dataDir));
      if (!options.force && zips.contradicting_share > MAX_CONTRADICTING_SHARE) {
        const judged = zips.against === null ? "" : ` where the active version ${zips.against} did not`;
        throw new Refusal(
          `${zips.contradicting} of the file's ${zips.zips} ZIPs (${percent(zips.contradicting_share)}, more than ${MAX_CONTRADICTING_SHARE * 100} %) lie in a county the shipped ZIP table does not list for them${judged} (${zips.first_zips.join(", ")}…): refused as a probably rewritten file (use --force to import it anyway)`,
        );
      }
    }
    endPhase("zip_check");
    const report: ImportReport = { skipped, changes, zips };
    previous = await activateVersion(store.db, version, counts, now(), lease, JSON.stringify(report), loadedAs);
    loading = false;
    endPhase("activate");
    for (const stale of await staleVersions(store.db)) await deleteVersion(store.db, stale);
    endPhase("cleanup");
    return result("imported");
  } catch (error) {
    // A lost lease leaves its rows to the import that took over, which removes them as leftovers.
    if (loading && loadedAs !== null && !(error instanceof LeaseLostError)) await deleteVersion(store.db, loadedAs);
    if (error instanceof Refusal) return result("refused", error.message, error.line);
    return result("refused", error instanceof Error ? error.message : String(error));
  } finally {
    if (leased) await releaseImportLease(store.db, lease);
  }
}
