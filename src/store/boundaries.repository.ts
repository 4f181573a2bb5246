/**
 * The boundary file's versions, the active pointer and the records (migration 2026-11-23-060).
 * Bulk writes and probes bypass kysely's query builder on the hot path: better-sqlite3 statements
 * prepared once (multi-row inserts, many rows a transaction) and, on PostgreSQL, one INSERT … SELECT
 * FROM unnest(arrays) per few thousand rows, and one LATERAL join per chunk of probes.
 */
import { sql } from "kysely";
import type SQLite from "better-sqlite3";
import type { Store } from "./connect.ts";
import type { Db } from "./database.ts";
import type { BoundaryRecordsTable, BoundaryVersion } from "./boundaries.table.ts";

export interface BoundaryPointer {
  version: string | null;
  previousVersion: string | null;
  switchedAt: string | null;
}

export async function readPointer(db: Db): Promise<BoundaryPointer> {
  const row = await db.selectFrom("boundary_pointer").selectAll().where("name", "=", "active").executeTakeFirst();
  return { version: row?.version ?? null, previousVersion: row?.previous_version ?? null, switchedAt: row?.switched_at ?? null };
}

export async function findVersion(db: Db, version: string): Promise<BoundaryVersion | undefined> {
  return db.selectFrom("boundary_versions").selectAll().where("version", "=", version).executeTakeFirst();
}

/** Deletes a version's records and its row. Per record type, so each DELETE walks its partial index. */
export async function deleteVersion(db: Db, version: string): Promise<void> {
  for (const type of ["A", "4", "Z"] as const) {
    await db.deleteFrom("boundary_records").where("version", "=", version).where("record_type", "=", type).execute();
  }
  await db.deleteFrom("boundary_cities").where("version", "=", version).execute();
  await db.deleteFrom("boundary_streets").where("version", "=", version).execute();
  await db.deleteFrom("boundary_versions").where("version", "=", version).execute();
}

/** Registers a version being loaded; its records stay invisible until activateVersion. */
export async function beginVersion(db: Db, version: string, source: string, at: Date): Promise<void> {
  await db
    .insertInto("boundary_versions")
    .values({ version, status: "loading", source, records: 0, address_ranges: 0, zip4_ranges: 0, zip5_ranges: 0, started_at: at.toISOString(), imported_at: null, report: null })
    .execute();
}

export interface VersionCounts {
  records: number;
  address_ranges: number;
  zip4_ranges: number;
  zip5_ranges: number;
}

/**
 * Marks the version complete (with its import report, JSON) and points every lookup at it, in one
 * transaction: the old active version becomes the previous one (kept for rollback). Returns the
 * version it replaced.
 *
 * `loadedAs` names where the rows were written when that is not the version itself: a version
 * already stored (the one kept for rollback) is loaded beside it, and only here, in the same
 * transaction as the switch, are its old rows deleted and the new ones take its name. An import
 * that dies or is refused before this point leaves the kept version whole.
 */
export async function activateVersion(
  db: Db, version: string, counts: VersionCounts, at: Date, lease?: ImportLease, report: string | null = null, loadedAs: string = version,
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    // Fencing: an import whose lease lapsed (and may have been taken over) never switches lookups to its version.
    if (lease && !(await renewImportLease(trx, lease, at))) throw new LeaseLostError();
    const pointer = await readPointer(trx);
    if (loadedAs !== version) {
      await deleteVersion(trx, version);
      for (const type of ["A", "4", "Z"] as const) {
        await trx.updateTable("boundary_records").set({ version }).where("version", "=", loadedAs).where("record_type", "=", type).execute();
      }
      await trx.updateTable("boundary_cities").set({ version }).where("version", "=", loadedAs).execute();
      await trx.updateTable("boundary_streets").set({ version }).where("version", "=", loadedAs).execute();
      await trx.updateTable("boundary_versions").set({ version }).where("version", "=", loadedAs).execute();
    }
    await trx.updateTable("boundary_versions").set({ ...counts, status: "ready", imported_at: at.toISOString(), report }).where("version", "=", version).execute();
    await trx
      .updateTable("boundary_pointer")
      .set({ version, previous_version: pointer.version === version ? pointer.previousVersion : pointer.version, switched_at: at.toISOString() })
      .where("name", "=", "active")
      .execute();
    return pointer.version;
  });
}

/** One import's hold on the import lease (migration 2026-11-24-080). */
export interface ImportLease {
  holder: string;
  /** How long the lease holds after it is taken or renewed. */
  ttlMs: number;
}

export class LeaseLostError extends Error {
  constructor() {
    super("this import's lease lapsed before it finished (another import may have taken over); nothing was switched");
  }
}

export type LeaseTaken = { ok: true } | { ok: false; source: string | null; takenAt: string | null; expiresAt: string | null };

/** Takes the lease when no import holds it or the last holder let it lapse. */
export async function takeImportLease(db: Db, lease: ImportLease, source: string, at: Date): Promise<LeaseTaken> {
  const now = at.toISOString();
  const taken = await db
    .updateTable("boundary_import_lease")
    .set({ holder: lease.holder, source, taken_at: now, expires_at: new Date(at.getTime() + lease.ttlMs).toISOString() })
    .where("name", "=", "import")
    .where((eb) => eb.or([eb("holder", "is", null), eb("expires_at", "<", now)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return { ok: true };
  const current = await db.selectFrom("boundary_import_lease").select(["source", "taken_at", "expires_at"]).where("name", "=", "import").executeTakeFirst();
  return { ok: false, source: current?.source ?? null, takenAt: current?.taken_at ?? null, expiresAt: current?.expires_at ?? null };
}

/** Extends the lease; false when this import no longer holds it. */
export async function renewImportLease(db: Db, lease: ImportLease, at: Date): Promise<boolean> {
  const renewed = await db
    .updateTable("boundary_import_lease")
    .set({ expires_at: new Date(at.getTime() + lease.ttlMs).toISOString() })
    .where("name", "=", "import")
    .where("holder", "=", lease.holder)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) === 1;
}

export async function releaseImportLease(db: Db, lease: ImportLease): Promise<void> {
  await db
    .updateTable("boundary_import_lease")
    .set({ holder: null, source: null, taken_at: null, expires_at: null })
    .where("name", "=", "import")
    .where("holder", "=", lease.holder)
    .execute();
}

/** Swaps the active and the previous version; null when there is no previous version to go back to. */
export async function swapToPrevious(db: Db, at: Date): Promise<BoundaryPointer | null> {
  return db.transaction().execute(async (trx) => {
    const pointer = await readPointer(trx);
    if (pointer.previousVersion === null) return null;
    // Only a ready version can be gone back to (re-imports load beside it, so it stays ready until replaced).
    const previous = await trx.selectFrom("boundary_versions").select("status").where("version", "=", pointer.previousVersion).executeTakeFirst();
    if (previous?.status !== "ready") return null;
    const switchedAt = at.toISOString();
    await trx
      .updateTable("boundary_pointer")
      .set({ version: pointer.previousVersion, previous_version: pointer.version, switched_at: switchedAt })
      .where("name", "=", "active")
      .execute();
    return { version: pointer.previousVersion, previousVersion: pointer.version, switchedAt };
  });
}

/** Versions neither active nor previous: superseded files and loads that never finished. */
export async function staleVersions(db: Db): Promise<string[]> {
  const pointer = await readPointer(db);
  const keep = [pointer.version, pointer.previousVersion].filter((v) => v !== null);
  const rows = await db
    .selectFrom("boundary_versions")
    .select("version")
    .$if(keep.length > 0, (q) => q.where("version", "not in", keep))
    .execute();
  return rows.map((r) => r.version);
}

/**
 * What a range covers, per record type, whatever its dates: the ZIP (or ZIP range), the plus-4 range,
 * the street, house range, parity and unit. Two versions' ranges with the same coverage are the
 * same range, so moving every begin date does not hide a change (docs/guides/boundary-file.md,
 * "A change report against the active version").
 */
const COVERAGE: Record<"A" | "4" | "Z", string> = {
  A: `zip5 || '|' || street || '|' || CAST(house_low AS TEXT) || '|' || CAST(house_high AS TEXT) || '|' || parity || '|' || COALESCE(unit_designator, '')
      || '|' || COALESCE(unit_low, '') || '|' || COALESCE(unit_high, '') || '|' || COALESCE(unit_parity, '')`,
  "4": `zip5 || '|' || plus4_low || '|' || plus4_high`,
  Z: `zip5 || '|' || zip5_high`,
};

/** A street in a ZIP (address ranges) or a ZIP (ZIP+4 ranges) where the versions' ranges differ: lookups there may answer differently. */
export interface TouchedGroup {
  type: "A" | "4";
  zip5: string;
  street: string | null;
}

/** The group a range's coverage (COVERAGE) belongs to: its ZIP and, for an address range, its street (the fields between the ZIP and the last seven). */
function groupOf(type: "A" | "4", coverage: string): string {
  const fields = coverage.split("|");
  return type === "A" ? `${fields[0]}|${fields.slice(1, -7).join("|")}` : fields[0]!;
}

/** A county or transit code that ranges the other version gave it no longer carry. */
export interface JurisdictionLoss {
  kind: "county" | "transit";
  code: string;
  /** The other version's ranges that carry it. */
  ranges: number;
  /** Of those, the ones this version also has but without it. */
  lost: number;
}

export interface VersionComparison {
  /** The other version's ranges (distinct coverage). */
  against_ranges: number;
  /** The version's ranges that the other version also has (same type and coverage, whatever the dates). */
  compared: number;
  /** Of those, the ones whose jurisdictions (county, transit code, which one is current on the day) differ. */
  changed: number;
  /** The version's ranges the other lacks, and the other's ranges this one lacks. */
  added: number;
  removed: number;
  /** Every county and transit code the other version names, with the ranges that lost it. */
  jurisdictions: JurisdictionLoss[];
  /** Stored rows identical to another row of the version but for their line. */
  duplicates: number;
  /** Every stored row of the version. */
  rows: number;
}

/**
 * How many ZIPs one comparison step reads: a few tens of thousands of rows a side, so memory stays
 * flat whatever the file's size, and few enough statements that PostgreSQL's round trips do not count.
 */
const ZIPS_PER_STEP = 16;

/** A range's jurisdiction sets ("county|transit|current on the day") on each side, as the rows name them. */
interface RangeSides {
  readonly inNew: string[];
  readonly inOld: string[];
}

/** The columns a duplicate row repeats (all but its line and unit parity), nulls told from empty text. */
const IDENTITY_COLUMNS = ["zip5", "zip5_high", "plus4_low", "plus4_high", "street", "house_low", "house_high", "parity", "unit_designator", "unit_low", "unit_high", "effective_from", "effective_to", "county_fips", "transit_code"];
const IDENTITY = [
  ...IDENTITY_COLUMNS.map((c) => `COALESCE(CAST(${c} AS TEXT), '')`),
  ...IDENTITY_COLUMNS.map((c) => `CASE WHEN ${c} IS NULL THEN '0' ELSE '1' END`),
].join(" || '|' || ");

/** The same distinct sets on both sides (a range's rows: most have one a side). */
function sameSets(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 1 && b.length === 1) return a[0] === b[0];
  const [left, right] = [new Set(a), new Set(b)];
  return left.size === right.size && [...left].every((set) => right.has(set));
}

/** The counties and the transit codes ("" for none) a range's sets name. */
function jurisdictionsOf(sets: readonly string[]): [Set<string>, Set<string>] {
  const counties = new Set<string>();
  const transits = new Set<string>();
  for (const set of sets) {
    // A county's FIPS code has no "|" and the day's flag is last: whatever the transit code holds lies between.
    const first = set.indexOf("|");
    counties.add(set.slice(0, first));
    transits.add(set.slice(first + 1, set.lastIndexOf("|")));
  }
  return [counties, transits];
}

/**
 * How a version differs from another (the active one) on `day`: ranges compared by what they cover,
 * whatever their dates; ranges added and removed; what each county and transit code lost; duplicate rows.
 *
 * A range's coverage begins with its ZIP, so two versions are compared a few ZIPs at a time: each
 * step reads both versions' rows for those ZIPs through the record type's index and compares them
 * in memory. Linear in the rows with no sort of the whole file (the single GROUP BY this replaced
 * took 40 s and 120 MB more at 2,000,000 rows on SQLite; docs/operations/benchmarks.md).
 * `onTouched` is offered, once each, every group (TouchedGroup) where a range was added, removed
 * or changed, for the judgement of what lookups there answer (boundaries/answer-changes.ts).
 */
export async function compareVersions(
  store: Pick<Store, "db" | "sqlite">, version: string, against: string, day: string, onTouched: (group: TouchedGroup) => void = () => {},
): Promise<VersionComparison> {
  const { db } = store;
  // PostgreSQL has no statistics yet for the rows just written; without them it plans the scans of
  // the two versions blind. ANALYZE samples the table in a moment.
  if (!store.sqlite) await sql`ANALYZE boundary_records`.execute(db);
  const totals = { against_ranges: 0, compared: 0, changed: 0, added: 0, removed: 0 };
  const losses = new Map<string, JurisdictionLoss>();
  // A jurisdiction the other version names on a range; lost when the new version kept the range without it.
  const lose = (kind: "county" | "transit", code: string, lost: boolean) => {
    const key = `${kind}:${code}`;
    let sum = losses.get(key);
    if (sum === undefined) losses.set(key, (sum = { kind, code, ranges: 0, lost: 0 }));
    sum.ranges++;
    if (lost) sum.lost++;
  };
  let rows = 0;
  let duplicates = 0;
  for (const type of ["A", "4", "Z"] as const) {
    const side = (v: string, from: string, to: string, identity: boolean) => sql<{ k: string | null; s: string; d?: string }>`
      SELECT ${sql.raw(COVERAGE[type])} AS k,
        county_fips || '|' || COALESCE(transit_code, '') || '|' || CASE WHEN effective_from <= ${day} AND (effective_to IS NULL OR effective_to >= ${day}) THEN '1' ELSE '0' END AS s
        ${sql.raw(identity ? `, ${IDENTITY} AS d` : "")}
      FROM boundary_records WHERE version = ${v} AND record_type = ${sql.raw(`'${type}'`)} AND zip5 >= ${from} AND zip5 <= ${to}`;
    const { rows: zipRows } = await sql<{ zip5: string }>`
      SELECT DISTINCT zip5 FROM boundary_records WHERE version = ${version} AND record_type = ${sql.raw(`'${type}'`)}
      UNION SELECT DISTINCT zip5 FROM boundary_records WHERE version = ${against} AND record_type = ${sql.raw(`'${type}'`)}`.execute(db);
    const zips = zipRows.map((r) => r.zip5).sort();
    for (let i = 0; i < zips.length; i += ZIPS_PER_STEP) {
      const [from, to] = [zips[i]!, zips[Math.min(i + ZIPS_PER_STEP, zips.length) - 1]!];
      const ranges = new Map<string | null, RangeSides>();
      const range = (k: string | null) => {
        let r = ranges.get(k);
        if (r === undefined) ranges.set(k, (r = { inNew: [], inOld: [] }));
        return r;
      };
      const identical = new Set<string>();
      for (const row of (await side(version, from, to, true).execute(db)).rows) {
        range(row.k).inNew.push(row.s);
        rows++;
        if (identical.has(row.d!)) duplicates++;
        else identical.add(row.d!);
      }
      for (const row of (await side(against, from, to, false).execute(db)).rows) range(row.k).inOld.push(row.s);
      const touched = new Set<string>();
      for (const [k, r] of ranges) {
        if (r.inOld.length > 0) totals.against_ranges++;
        let same = false;
        if (r.inNew.length > 0 && r.inOld.length > 0) {
          totals.compared++;
          same = sameSets(r.inNew, r.inOld);
          if (!same) totals.changed++;
        } else if (r.inNew.length > 0) totals.added++;
        else totals.removed++;
        if (!same && type !== "Z" && k !== null) touched.add(groupOf(type, k));
        if (r.inOld.length === 0) continue;
        const kept = r.inNew.length > 0;
        const [newCounties, newTransits] = jurisdictionsOf(r.inNew);
        const [oldCounties, oldTransits] = jurisdictionsOf(r.inOld);
        for (const code of oldCounties) lose("county", code, kept && !newCounties.has(code));
        for (const code of oldTransits) if (code !== "") lose("transit", code, kept && !newTransits.has(code));
      }
      // A step holds its ZIPs' every range, so each group is offered once.
      for (const group of touched) {
        const cut = group.indexOf("|");
        onTouched(type === "A" ? { type, zip5: group.slice(0, cut), street: group.slice(cut + 1) } : { type: "4", zip5: group, street: null });
      }
    }
  }
  const jurisdictions = [...losses.values()].sort((a, b) => b.lost - a.lost || a.kind.localeCompare(b.kind) || a.code.localeCompare(b.code));
  return { ...totals, jurisdictions, duplicates, rows };
}

/** A group's record as a lookup reads it (CANDIDATE_COLUMNS and the odd/even flag); `query` is the group's index in the list asked for. */
export type GroupRecordRow = CandidateRow & { parity: "O" | "E" | "B" | null };

/** Groups per statement on PostgreSQL. */
const GROUPS_PER_STATEMENT = 1000;

/** Every record of a version in the groups asked for, each through its record type's index. */
export async function groupRecords(store: Pick<Store, "db" | "sqlite">, version: string, groups: readonly TouchedGroup[]): Promise<GroupRecordRow[]> {
  if (store.sqlite) {
    const address = store.sqlite.prepare<[{ version: string; zip5: string; street: string | null }], Omit<GroupRecordRow, "query">>(
      `SELECT ${CANDIDATE_COLUMNS}, parity FROM boundary_records WHERE version = @version AND record_type = 'A' AND zip5 = @zip5 AND street = @street`,
    );
    const zip4 = store.sqlite.prepare<[{ version: string; zip5: string }], Omit<GroupRecordRow, "query">>(
      `SELECT ${CANDIDATE_COLUMNS}, parity FROM boundary_records WHERE version = @version AND record_type = '4' AND zip5 = @zip5`,
    );
    return groups.flatMap((g, query) =>
      (g.type === "A" ? address.all({ version, zip5: g.zip5, street: g.street }) : zip4.all({ version, zip5: g.zip5 })).map((row) => ({ ...row, query })),
    );
  }
  const rows: GroupRecordRow[] = [];
  const columns = sql.raw([...CANDIDATE_COLUMNS.split(", "), "parity"].map((c) => `r.${c}`).join(", "));
  for (let start = 0; start < groups.length; start += GROUPS_PER_STATEMENT) {
    const chunk = groups.slice(start, start + GROUPS_PER_STATEMENT).map((g, i) => ({ ...g, query: start + i }));
    const streets = chunk.filter((g) => g.type === "A");
    const zips = chunk.filter((g) => g.type === "4");
    if (streets.length > 0) {
      const found = await sql<GroupRecordRow>`
        SELECT q.query, ${columns}
        FROM unnest(${streets.map((g) => g.query)}::int4[], ${streets.map((g) => g.zip5)}::text[], ${streets.map((g) => g.street)}::text[]) AS q(query, zip5, street)
        CROSS JOIN LATERAL (SELECT * FROM boundary_records r WHERE r.version = ${version} AND r.record_type = 'A' AND r.zip5 = q.zip5 AND r.street = q.street) r`.execute(store.db);
      rows.push(...found.rows);
    }
    if (zips.length > 0) {
      const found = await sql<GroupRecordRow>`
        SELECT q.query, ${columns}
        FROM unnest(${zips.map((g) => g.query)}::int4[], ${zips.map((g) => g.zip5)}::text[]) AS q(query, zip5)
        CROSS JOIN LATERAL (SELECT * FROM boundary_records r WHERE r.version = ${version} AND r.record_type = '4' AND r.zip5 = q.zip5) r`.execute(store.db);
      rows.push(...found.rows);
    }
  }
  return rows.map((row) => ({ ...row, query: Number(row.query), line: Number(row.line) }));
}

/** Every distinct (ZIP5, county) pair a version's records name. */
export async function zipCountyPairs(db: Db, version: string): Promise<Array<{ zip5: string; county_fips: string }>> {
  return db.selectFrom("boundary_records").select(["zip5", "county_fips"]).distinct().where("version", "=", version).execute();
}

/** The columns in the order every bulk row lists them. */
export const RECORD_COLUMNS = [
  "version", "line", "record_type", "effective_from", "effective_to", "zip5", "zip5_high", "plus4_low", "plus4_high",
  "street", "house_low", "house_high", "parity", "unit_designator", "unit_low", "unit_high", "unit_parity", "county_fips", "transit_code",
] as const satisfies readonly (keyof BoundaryRecordsTable)[];

export type RecordRow = readonly (string | number | null)[];

export interface RecordWriter {
  /** Queues a row (values in RECORD_COLUMNS order); writes a batch when enough are queued. */
  add(row: RecordRow): Promise<void>;
  /** Writes what is queued. */
  flush(): Promise<void>;
}

const SQLITE_ROWS_PER_STATEMENT = 100;
const SQLITE_ROWS_PER_TRANSACTION = 10_000;
const POSTGRES_ROWS_PER_STATEMENT = 10_000;

/**
 * SQLite: a 100-row INSERT prepared once, run in transactions of 25,000 rows. Short transactions,
 * not one for the whole file, so a running server's own writes (usage counts, job runs) wait
 * milliseconds, not the whole import; the rows are invisible to lookups until the switch anyway.
 */
function sqliteWriter(database: SQLite.Database): RecordWriter {
  const placeholders = `(${RECORD_COLUMNS.map(() => "?").join(",")})`;
  const insert = (rows: number) =>
    database.prepare(`INSERT INTO boundary_records (${RECORD_COLUMNS.join(",")}) VALUES ${Array.from({ length: rows }, () => placeholders).join(",")}`);
  const many = insert(SQLITE_ROWS_PER_STATEMENT);
  const one = insert(1);
  let queued: RecordRow[] = [];
  const write = database.transaction((rows: RecordRow[]) => {
    let i = 0;
    for (; i + SQLITE_ROWS_PER_STATEMENT <= rows.length; i += SQLITE_ROWS_PER_STATEMENT) many.run(rows.slice(i, i + SQLITE_ROWS_PER_STATEMENT).flat());
    for (; i < rows.length; i++) one.run(rows[i]);
  });
  const flush = async () => {
    if (queued.length === 0) return;
    const rows = queued;
    queued = [];
    write(rows);
    // Let the event loop breathe between transactions (a server in the same process keeps answering).
    await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    async add(row) {
      queued.push(row);
      if (queued.length >= SQLITE_ROWS_PER_TRANSACTION) await flush();
    },
    flush,
  };
}

const PG_TYPES: Record<(typeof RECORD_COLUMNS)[number], string> = {
  version: "text", line: "int4", record_type: "text", effective_from: "text", effective_to: "text", zip5: "text", zip5_high: "text",
  plus4_low: "text", plus4_high: "text", street: "text", house_low: "int4", house_high: "int4", parity: "text", unit_designator: "text",
  unit_low: "text", unit_high: "text", unit_parity: "text", county_fips: "text", transit_code: "text",
};

/** PostgreSQL: one INSERT … SELECT FROM unnest(one array per column) per 10,000 rows: 19 parameters, whatever the row count. */
function postgresWriter(db: Db): RecordWriter {
  let queued: RecordRow[] = [];
  const flush = async () => {
    if (queued.length === 0) return;
    const rows = queued;
    queued = [];
    const arrays = RECORD_COLUMNS.map((column, c) => sql`${rows.map((row) => row[c])}::${sql.raw(PG_TYPES[column])}[]`);
    await sql`INSERT INTO boundary_records (${sql.raw(RECORD_COLUMNS.join(","))}) SELECT * FROM unnest(${sql.join(arrays)})`.execute(db);
  };
  return {
    async add(row) {
      queued.push(row);
      if (queued.length >= POSTGRES_ROWS_PER_STATEMENT) await flush();
    },
    flush,
  };
}

export function recordWriter(store: Pick<Store, "db" | "sqlite">): RecordWriter {
  return store.sqlite ? sqliteWriter(store.sqlite) : postgresWriter(store.db);
}

/** What a probe reads of a candidate record. */
export interface CandidateRow {
  query: number;
  line: number;
  record_type: "A" | "4";
  county_fips: string;
  transit_code: string | null;
  effective_from: string;
  effective_to: string | null;
  house_low: number | null;
  house_high: number | null;
  plus4_low: string | null;
  plus4_high: string | null;
  unit_designator: string | null;
  unit_low: string | null;
  unit_high: string | null;
  unit_parity: "O" | "E" | "B" | null;
}

export interface AddressProbe {
  query: number;
  zip5: string;
  street: string;
  house: number;
  parity: "O" | "E";
  date: string;
}

export interface Zip4Probe {
  query: number;
  zip5: string;
  plus4: string;
  date: string;
}

const CANDIDATE_COLUMNS = "line, record_type, county_fips, transit_code, effective_from, effective_to, house_low, house_high, plus4_low, plus4_high, unit_designator, unit_low, unit_high, unit_parity";
// The record type is written as a literal, not a parameter: the planners use a partial index only for a condition they can see.
const addressMatch = (q: Record<"zip5" | "street" | "house" | "parity" | "date", string>) =>
  `r.record_type = 'A' AND r.zip5 = ${q.zip5} AND r.street = ${q.street} AND r.house_low <= ${q.house} AND r.house_high >= ${q.house} AND (r.parity = 'B' OR r.parity = ${q.parity}) AND r.effective_from <= ${q.date} AND (r.effective_to IS NULL OR r.effective_to >= ${q.date})`;
const zip4Match = (q: Record<"zip5" | "plus4" | "date", string>) =>
  `r.record_type = '4' AND r.zip5 = ${q.zip5} AND r.plus4_low <= ${q.plus4} AND r.plus4_high >= ${q.plus4} AND r.effective_from <= ${q.date} AND (r.effective_to IS NULL OR r.effective_to >= ${q.date})`;
const streetMatch = (q: Record<"zip5" | "street", string>) => `r.record_type = 'A' AND r.zip5 = ${q.zip5} AND r.street = ${q.street}`;
const LATERAL = { zip5: "q.zip5", street: "q.street", house: "q.house", parity: "q.parity", plus4: "q.plus4", date: "q.date" };

/** Does the ZIP have an address range on this street (any house number, any date)? */
export interface StreetProbe {
  query: number;
  zip5: string;
  street: string;
}

export interface CandidateFinder {
  addressCandidates(version: string, probes: readonly AddressProbe[]): Promise<CandidateRow[]>;
  zip4Candidates(version: string, probes: readonly Zip4Probe[]): Promise<CandidateRow[]>;
  /** The probes whose street the ZIP has, each once. */
  streetsFiled(version: string, probes: readonly StreetProbe[]): Promise<StreetProbe[]>;
}

/** Address probes per SQLite statement: their JSON text stays a few hundred kilobytes. */
const SQLITE_PROBES_PER_STATEMENT = 2000;

/**
 * SQLite: statements prepared once, run in the same synchronous call (no round trip to pay). The
 * address probes go many to a statement, as a JSON array joined to the records (each probe still one
 * seek on the address index): one call per probe spent more in binding its parameters and copying
 * its rows than SQLite spent finding them (1.9–2.6 s against 0.9–1.0 s CPU for 100,000 probes of the
 * state-scale bench's file, docs/operations/benchmarks.md).
 */
function sqliteFinder(database: SQLite.Database): CandidateFinder {
  const named = { zip5: "@zip5", street: "@street", house: "@house", parity: "@parity", plus4: "@plus4", date: "@date" };
  // The probe's fields by their place in its JSON array: [zip5, street, house, parity, date].
  const fromJson = { zip5: "q.value ->> 0", street: "q.value ->> 1", house: "q.value ->> 2", parity: "q.value ->> 3", date: "q.value ->> 4" };
  // CROSS JOIN keeps the probes the outer loop, so each is a seek on the address index.
  const address = database.prepare<[{ version: string; probes: string }], CandidateRow>(
    `SELECT q.key AS query, ${CANDIDATE_COLUMNS.split(", ").map((c) => `r.${c}`).join(", ")} FROM json_each(@probes) q CROSS JOIN boundary_records r WHERE r.version = @version AND ${addressMatch(fromJson)}`,
  );
  const zip4 = database.prepare<[Omit<Zip4Probe, "query"> & { version: string }], Omit<CandidateRow, "query">>(
    `SELECT ${CANDIDATE_COLUMNS} FROM boundary_records r WHERE r.version = @version AND ${zip4Match(named)}`,
  );
  // One statement per ZIP for all the streets asked of it, each street once: a miss asks 17 keys.
  const filed = database
    .prepare<[{ version: string; zip5: string; streets: string }], string>(
      `SELECT DISTINCT r.street FROM boundary_records r WHERE r.version = @version AND r.record_type = 'A' AND r.zip5 = @zip5 AND r.street IN (SELECT value FROM json_each(@streets))`,
    )
    .pluck();
  return {
    async addressCandidates(version, probes) {
      const rows: CandidateRow[] = [];
      for (let start = 0; start < probes.length; start += SQLITE_PROBES_PER_STATEMENT) {
        const some = probes.slice(start, start + SQLITE_PROBES_PER_STATEMENT);
        const json = JSON.stringify(some.map((p) => [p.zip5, p.street, p.house, p.parity, p.date]));
        for (const row of address.all({ version, probes: json })) {
          // json_each numbers the probes of this statement from 0.
          row.query = some[row.query]!.query;
          rows.push(row);
        }
      }
      return rows;
    },
    async zip4Candidates(version, probes) {
      return probes.flatMap(({ query, ...p }) => zip4.all({ ...p, version }).map((row) => ({ ...row, query })));
    },
    async streetsFiled(version, probes) {
      const byZip = new Map<string, Set<string>>();
      for (const { zip5, street } of probes) byZip.set(zip5, (byZip.get(zip5) ?? new Set()).add(street));
      const found = new Set<string>();
      for (const [zip5, streets] of byZip) {
        for (const street of filed.all({ version, zip5, streets: JSON.stringify([...streets]) })) found.add(`${zip5} ${street}`);
      }
      return probes.filter(({ zip5, street }) => found.has(`${zip5} ${street}`));
    },
  };
}

/** PostgreSQL: one statement per chunk, the probes unnested and joined LATERAL to the records. */
function postgresFinder(db: Db): CandidateFinder {
  return {
    async addressCandidates(version, probes) {
      if (probes.length === 0) return [];
      const { rows } = await sql<CandidateRow>`
        SELECT q.query, ${sql.raw(CANDIDATE_COLUMNS.split(", ").map((c) => `r.${c}`).join(", "))}
        FROM unnest(${probes.map((p) => p.query)}::int4[], ${probes.map((p) => p.zip5)}::text[], ${probes.map((p) => p.street)}::text[],
                    ${probes.map((p) => p.house)}::int4[], ${probes.map((p) => p.parity)}::text[], ${probes.map((p) => p.date)}::text[])
             AS q(query, zip5, street, house, parity, date)
        CROSS JOIN LATERAL (SELECT * FROM boundary_records r WHERE r.version = ${version} AND ${sql.raw(addressMatch(LATERAL))}) r`.execute(db);
      return rows;
    },
    async zip4Candidates(version, probes) {
      if (probes.length === 0) return [];
      const { rows } = await sql<CandidateRow>`
        SELECT q.query, ${sql.raw(CANDIDATE_COLUMNS.split(", ").map((c) => `r.${c}`).join(", "))}
        FROM unnest(${probes.map((p) => p.query)}::int4[], ${probes.map((p) => p.zip5)}::text[], ${probes.map((p) => p.plus4)}::text[], ${probes.map((p) => p.date)}::text[])
             AS q(query, zip5, plus4, date)
        CROSS JOIN LATERAL (SELECT * FROM boundary_records r WHERE r.version = ${version} AND ${sql.raw(zip4Match(LATERAL))}) r`.execute(db);
      return rows;
    },
    async streetsFiled(version, probes) {
      if (probes.length === 0) return [];
      const { rows } = await sql<StreetProbe>`
        SELECT q.query, q.zip5, q.street
        FROM unnest(${probes.map((p) => p.query)}::int4[], ${probes.map((p) => p.zip5)}::text[], ${probes.map((p) => p.street)}::text[]) AS q(query, zip5, street)
        WHERE EXISTS (SELECT 1 FROM boundary_records r WHERE r.version = ${version} AND ${sql.raw(streetMatch(LATERAL))})`.execute(db);
      return rows;
    },
  };
}

/**
 * After a version's rows are written: PostgreSQL plans the candidate queries above from the tables'
 * statistics, and a bulk load leaves them describing the tables as they were (autovacuum's analyze
 * comes a minute or more later). With the old figures the planner took a new version for a handful
 * of rows and hashed all of them for every batch of probes: 1.1 s per 10,000 address probes on
 * 200,000 records against 0.15 s once analyzed (docs/operations/benchmarks.md). SQLite keeps no
 * statistics unless ANALYZE is run, and picks the address index from the statement's shape alone.
 */
export async function refreshPlannerStatistics(store: Pick<Store, "db" | "sqlite">): Promise<void> {
  if (store.sqlite) return;
  await sql`ANALYZE boundary_records, boundary_cities`.execute(store.db);
}

export function candidateFinder(store: Pick<Store, "db" | "sqlite">): CandidateFinder {
  return store.sqlite ? sqliteFinder(store.sqlite) : postgresFinder(store.db);
}

/**
 * One jurisdiction set a ZIP's records name (county and transit code), as the ZIP summary reads it:
 * how many records in effect on the date carry it, and the one cited for it (a whole-ZIP Z record
 * when there is one, else the earliest line).
 */
export interface ZipSetRow {
  county_fips: string;
  transit_code: string | null;
  records: number;
  line: number;
  record_type: "A" | "4" | "Z";
  effective_from: string;
  effective_to: string | null;
}

/**
 * Every (county, transit code) set the version's records for a ZIP5 name in effect on the date: its
 * address ranges (A), ZIP+4 ranges (4) and the whole-ZIP ranges (Z) holding it. One statement, each
 * branch on its record type's partial index; empty when the file does not cover the ZIP.
 */
export async function zipRecordSets(db: Db, version: string, zip5: string, date: string): Promise<ZipSetRow[]> {
  const inEffect = sql`effective_from <= ${date} AND (effective_to IS NULL OR effective_to >= ${date})`;
  const { rows } = await sql<ZipSetRow>`
    SELECT county_fips, transit_code, records, line, record_type, effective_from, effective_to FROM (
      SELECT county_fips, transit_code, line, record_type, effective_from, effective_to,
             COUNT(*) OVER (PARTITION BY county_fips, transit_code) AS records,
             ROW_NUMBER() OVER (PARTITION BY county_fips, transit_code ORDER BY CASE WHEN record_type = 'Z' THEN 0 ELSE 1 END, line) AS pick
      FROM (
        SELECT county_fips, transit_code, line, record_type, effective_from, effective_to FROM boundary_records
          WHERE version = ${version} AND record_type = 'A' AND zip5 = ${zip5} AND ${inEffect}
        UNION ALL
        SELECT county_fips, transit_code, line, record_type, effective_from, effective_to FROM boundary_records
          WHERE version = ${version} AND record_type = '4' AND zip5 = ${zip5} AND ${inEffect}
        UNION ALL
        SELECT county_fips, transit_code, line, record_type, effective_from, effective_to FROM boundary_records
          WHERE version = ${version} AND record_type = 'Z' AND zip5 <= ${zip5} AND zip5_high >= ${zip5} AND ${inEffect}
      ) AS zip_records
    ) AS ranked
    WHERE pick = 1
    ORDER BY county_fips, transit_code`.execute(db);
  return rows.map((row) => ({ ...row, records: Number(row.records), line: Number(row.line) }));
}

/** Every distinct (ZIP range, county) a version's records name, any date: a Z record's range runs zip5–zip5_high. */
export async function zipRangeCounties(db: Db, version: string): Promise<Array<{ zip5: string; zip5_high: string; county_fips: string }>> {
  return db.selectFrom("boundary_records").select(["zip5", "zip5_high", "county_fips"]).distinct().where("version", "=", version).execute();
}

/** Stores the distinct (ZIP, city) pairs of a version being loaded. */
export async function writeCities(db: Db, version: string, pairs: Iterable<{ zip5: string; city: string }>): Promise<void> {
  const rows = [...pairs].map(({ zip5, city }) => ({ version, zip5, city }));
  for (let i = 0; i < rows.length; i += 500) await db.insertInto("boundary_cities").values(rows.slice(i, i + 500)).execute();
}

/** Every distinct (ZIP, street key) of a version's address ranges: the street index's streets (street-index.ts). */
export async function filedStreets(db: Db, version: string): Promise<Array<{ zip5: string; street: string }>> {
  const { rows } = await sql<{ zip5: string; street: string }>`
    SELECT DISTINCT zip5, street FROM boundary_records WHERE version = ${version} AND record_type = 'A'`.execute(db);
  return rows;
}

/** Stores a version's streets per ZIP, each ZIP's as preparedStreets (street-index.ts) wrote them. */
export async function writeStreets(db: Db, version: string, zips: Iterable<{ zip5: string; streets: string }>): Promise<void> {
  const rows = [...zips].map(({ zip5, streets }) => ({ version, zip5, streets }));
  for (let i = 0; i < rows.length; i += 100) await db.insertInto("boundary_streets").values(rows.slice(i, i + 100)).execute();
}

/** A version's prepared streets, one row per ZIP; none for a version imported before they were stored. */
export async function preparedStreetRows(db: Db, version: string): Promise<Array<{ zip5: string; streets: string }>> {
  return db.selectFrom("boundary_streets").select(["zip5", "streets"]).where("version", "=", version).execute();
}

export async function filedCities(db: Db, version: string): Promise<Array<{ zip5: string; city: string }>> {
  return db.selectFrom("boundary_cities").select(["zip5", "city"]).where("version", "=", version).execute();
}
