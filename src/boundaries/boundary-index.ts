/**
 * The BoundaryIndex over the store (boundary-index.interface.ts). The active version is read from the pointer row and
 * cached for `refreshMs` (default 5 s): a running server, and every instance sharing a PostgreSQL
 * database, follows an import or a rollback within that time; a query always names the one
 * version read for it, so it never mixes two files.
 *
 * Matching, per query:
 * 1. with a street: address ranges (A) of that ZIP5 whose Pub 28 street key equals the query's,
 *    whose low–high holds the house number, whose odd/even flag admits it (B admits both), in effect
 *    on the date. A record with a secondary-unit range matches only a unit inside it (same
 *    designator, or "#"/none given) and then wins; records without one match any unit.
 * 1b. else, the street with a directional the caller left out, or without one the caller added
 *    (pub28.ts directionalVariants): only when it is the one street of that name and suffix filed
 *    in the ZIP, with or without any directional, at any house number or date. With "E MAIN ST"
 *    and "W MAIN ST" both in the ZIP, or "MAIN ST" and "N MAIN ST", "Main St" (or "S Main St") is
 *    no answer and the lookup goes down the ladder: a wrong record is worse than none.
 * 2. else, with a +4: ZIP+4 ranges (4) of that ZIP5 holding it, in effect on the date.
 * Among several matches the most specific wins: a unit range over none, then the narrowest range,
 * then the latest begin date, then the earliest line.
 *
 * A query whose street the address matcher found among the file's (`filedStreet`, src/lookup/address-match.ts)
 * skips 1b: the matcher has applied the directional rules already, against the street index this
 * class reads once per version (streets()).
 */
import { systemClock, type Clock } from "../clock.ts";
import type { Store } from "../store/connect.ts";
import { candidateFinder, filedCities, filedStreets, preparedStreetRows, readPointer, zipRecordSets, type AddressProbe, type CandidateRow, type StreetProbe, type Zip4Probe } from "../store/boundaries.repository.ts";
import type { BoundaryIndex, BoundaryMatch, BoundaryQuery, ZipSummary } from "./boundary-index.interface.ts";
import { directionalVariants, houseNumberValue, keyOf, parseUnit, sameStreetKeys, streetKeyParts, type KeyParts, type Unit } from "./pub28.ts";
import { StreetIndex } from "./street-index.ts";

export interface BoundaryIndexOptions {
  /** How long the active version is trusted before the pointer is read again. */
  refreshMs?: number;
  /** The service's clock (src/clock.ts): a test moves it past `refreshMs` instead of waiting. */
  clock?: Clock;
}

export const DEFAULT_REFRESH_MS = 5000;
/** Probes per statement on PostgreSQL. */
const CHUNK = 1000;
/** ZIP summaries kept (Ohio has about 1,400 ZIPs; a few dates each). */
const ZIP_SUMMARIES = 20_000;

/** Does the record's unit range admit the query's unit? The change report judges a file by these same rules (answer-changes.ts). */
export function unitMatches(row: CandidateRow, unit: Unit | null): boolean {
  if (row.unit_designator === null) return true;
  if (unit === null || unit.number === "") return false;
  if (unit.designator !== null && unit.designator !== "#" && row.unit_designator !== "#" && unit.designator !== row.unit_designator) return false;
  const [low, high, value] = [row.unit_low ?? "", row.unit_high ?? "", unit.number];
  if ([low, high, value].every((v) => /^\d+$/.test(v))) {
    const n = Number(value);
    const side = n % 2 === 1 ? "O" : "E";
    return Number(low) <= n && n <= Number(high) && (row.unit_parity === null || row.unit_parity === "B" || row.unit_parity === side);
  }
  return low <= value && value <= high;
}

function span(row: CandidateRow): number {
  if (row.record_type === "A") return row.house_high! - row.house_low!;
  return Number(row.plus4_high) - Number(row.plus4_low);
}

/** Negative when a is the more specific match: the lookup's order among matches, and the change report's (answer-changes.ts). */
export function moreSpecific(a: CandidateRow, b: CandidateRow): number {
  const unit = Number(b.unit_designator !== null) - Number(a.unit_designator !== null);
  if (unit !== 0) return unit;
  return span(a) - span(b) || b.effective_from.localeCompare(a.effective_from) || a.line - b.line;
}

function toMatch(version: string, row: CandidateRow): BoundaryMatch {
  return {
    version,
    recordType: row.record_type,
    countyFips: row.county_fips,
    transitCode: row.transit_code,
    line: Number(row.line),
    effectiveFrom: row.effective_from,
    effectiveTo: row.effective_to,
  };
}

const ZIP5 = /^\d{5}$/;
const PLUS4 = /^\d{4}$/;

export class StoreBoundaryIndex implements BoundaryIndex {
  readonly #store: Store;
  readonly #finder;
  readonly #refreshMs: number;
  readonly #clock: Clock;
  #active: string | null = null;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<string | null> | null = null;
  /** version|zip5|date → the summary (null: the file does not cover the ZIP then), or the read under way. */
  readonly #zips = new Map<string, Promise<ZipSummary | null>>();
  /** The street index of the version last asked for, or its read under way. */
  #streets: { version: string; index: Promise<StreetIndex> } | null = null;

  constructor(store: Store, options: BoundaryIndexOptions = {}) {
    this.#store = store;
    this.#finder = candidateFinder(store);
    this.#refreshMs = options.refreshMs ?? DEFAULT_REFRESH_MS;
    this.#clock = options.clock ?? systemClock;
  }

  activeVersion(): string | null {
    return this.#active;
  }

  /** Reads the pointer now (one read shared by concurrent callers). */
  refresh(): Promise<string | null> {
    this.#reading ??= readPointer(this.#store.db)
      .then((pointer) => {
        this.#active = pointer.version;
        this.#checkedAt = this.#clock.now().getTime();
        // An index that has matched addresses reads the new version's streets now, so no lookup waits for them
        // (about 0.7 s for 900,000 address ranges on SQLite); one that never has does not spend the memory.
        if (this.#streets !== null && pointer.version !== null && this.#streets.version !== pointer.version) void this.streets().catch(() => null);
        return pointer.version;
      })
      .finally(() => {
        this.#reading = null;
      });
    return this.#reading;
  }

  async version(): Promise<string | null> {
    const elapsed = this.#clock.now().getTime() - this.#checkedAt;
    // A clock set back (an operator's correction, a test) must not stretch the cache past refreshMs.
    return elapsed >= this.#refreshMs || elapsed < 0 ? this.refresh() : this.#active;
  }

  async probe(query: BoundaryQuery): Promise<BoundaryMatch | null> {
    return (await this.probeMany([query]))[0]!;
  }

  async probeMany(queries: readonly BoundaryQuery[]): Promise<(BoundaryMatch | null)[]> {
    const answers: (BoundaryMatch | null)[] = queries.map(() => null);
    const version = await this.version();
    if (version === null || queries.length === 0) return answers;
    for (let start = 0; start < queries.length; start += CHUNK) {
      await this.#probeChunk(version, queries, start, Math.min(start + CHUNK, queries.length), answers);
    }
    return answers;
  }

  async #probeChunk(version: string, queries: readonly BoundaryQuery[], from: number, to: number, answers: (BoundaryMatch | null)[]): Promise<void> {
    const addresses: AddressProbe[] = [];
    const units = new Map<number, Unit | null>();
    const keyParts = new Map<number, KeyParts>();
    for (let i = from; i < to; i++) {
      const q = queries[i]!;
      if (!q.street || !ZIP5.test(q.zip5)) continue;
      const house = houseNumberValue(q.street.houseNumber);
      const parts = q.filedStreet === undefined ? streetKeyParts(q.street) : null;
      const street = q.filedStreet ?? keyOf(parts!);
      if (house === null || street === "") continue;
      if (parts !== null) keyParts.set(i, parts);
      addresses.push({ query: i, zip5: q.zip5, street, house, parity: house % 2 === 1 ? "O" : "E", date: q.date });
      units.set(i, parseUnit(q.street.unit));
    }
    const best = new Map<number, CandidateRow>();
    const keep = (row: CandidateRow) => {
      const query = Number(row.query);
      const current = best.get(query);
      if (current === undefined || moreSpecific(row, current) < 0) best.set(query, row);
    };
    for (const row of await this.#finder.addressCandidates(version, addresses)) {
      if (unitMatches(row, units.get(Number(row.query)) ?? null)) keep(row);
    }
    // A street the matcher found among the file's is the one meant: its directionals are not tried again.
    const unmatched = addresses.filter((a) => !best.has(a.query) && keyParts.has(a.query));
    if (unmatched.length > 0) {
      // Every street of that name in the ZIP counts, the caller's own key too: "Main St" with MAIN ST and
      // N MAIN ST both filed is two streets, and so is "S Main St" with MAIN ST and N MAIN ST.
      const keys = (a: AddressProbe) => [...new Set([a.street, ...sameStreetKeys(keyParts.get(a.query)!)])];
      const variants: StreetProbe[] = unmatched.flatMap((a) => keys(a).map((street) => ({ query: a.query, zip5: a.zip5, street })));
      const filed = new Map<number, string[]>();
      for (const found of await this.#finder.streetsFiled(version, variants)) filed.set(Number(found.query), [...(filed.get(Number(found.query)) ?? []), found.street]);
      const retries = unmatched.flatMap((a) => {
        const streets = filed.get(a.query) ?? [];
        return streets.length === 1 && directionalVariants(keyParts.get(a.query)!).includes(streets[0]!) ? [{ ...a, street: streets[0]! }] : [];
      });
      for (const row of await this.#finder.addressCandidates(version, retries)) {
        if (unitMatches(row, units.get(Number(row.query)) ?? null)) keep(row);
      }
    }
    const zip4s: Zip4Probe[] = [];
    for (let i = from; i < to; i++) {
      const q = queries[i]!;
      if (!best.has(i) && q.zip4 !== undefined && ZIP5.test(q.zip5) && PLUS4.test(q.zip4)) zip4s.push({ query: i, zip5: q.zip5, plus4: q.zip4, date: q.date });
    }
    for (const row of await this.#finder.zip4Candidates(version, zip4s)) keep(row);
    for (const [query, row] of best) answers[query] = toMatch(version, row);
  }

  async zipSummary(zip5: string, date: string): Promise<ZipSummary | null> {
    const version = await this.version();
    if (version === null || !ZIP5.test(zip5)) return null;
    const key = `${version}|${zip5}|${date}`;
    let summary = this.#zips.get(key);
    if (summary === undefined) {
      if (this.#zips.size >= ZIP_SUMMARIES) this.#zips.clear();
      summary = zipRecordSets(this.#store.db, version, zip5, date).then((rows): ZipSummary | null =>
        rows.length === 0
          ? null
          : {
              version, zip5, date,
              sets: rows.map((row) => ({
                countyFips: row.county_fips,
                transitCode: row.transit_code,
                records: row.records,
                record: { recordType: row.record_type, line: row.line, effectiveFrom: row.effective_from, effectiveTo: row.effective_to },
              })),
            },
      );
      this.#zips.set(key, summary);
      // A failed read is not kept: the next lookup asks again.
      summary.catch(() => this.#zips.delete(key));
    }
    return summary;
  }

  async streets(): Promise<StreetIndex | null> {
    const version = await this.version();
    if (version === null) return null;
    if (this.#streets?.version !== version) {
      const db = this.#store.db;
      const index = Promise.all([preparedStreetRows(db, version), filedCities(db, version)]).then(async ([prepared, cities]) =>
        // A version imported before its streets were stored beside its records is read from the records.
        prepared.length > 0 ? StreetIndex.fromPrepared(prepared, cities) : new StreetIndex(await filedStreets(db, version), cities),
      );
      const entry = { version, index };
      this.#streets = entry;
      // A failed read is not kept: the next lookup reads again.
      index.catch(() => {
        if (this.#streets === entry) this.#streets = null;
      });
    }
    return this.#streets.index;
  }

  async close(): Promise<void> {
    await this.#reading?.catch(() => null);
  }
}

/** The index over the configured store; closing it leaves the store open (its owner closes it). */
export function openBoundaryIndex(store: Store, options: BoundaryIndexOptions = {}): StoreBoundaryIndex {
  return new StoreBoundaryIndex(store, options);
}
