/**
 * Judges a new boundary file by what lookups over it would answer, not by which rows it adds or
 * changes (docs/guides/boundary-file.md, "A change report against the active version"). A file that
 * keeps every range and adds a narrower one over it with another transit code changes no row of the
 * active version, yet every lookup inside the narrower range now answers from it: the lookup prefers
 * the most specific match (boundary-index.ts moreSpecific).
 *
 * Only a group of ranges one lookup chooses among (a street in a ZIP for address ranges, a ZIP for
 * ZIP+4 ranges) where the versions differ at all can answer differently, so only those are judged,
 * and at most MAX_GROUPS_JUDGED of them, evenly spaced: the judgement costs the same for a file that
 * touches every street as for one that touches a few thousand. In a group, every record one version
 * has and the other lacks gives a few addresses (its ends and its middle, of its parity, and its
 * units' ends): elsewhere both versions hold the same records, so lookups answer alike. Each address
 * is looked up in both versions by the lookup's own rules, on the report's day and the next days a
 * record of the group begins or ends. Pure: the records in, the judgement out.
 */
import type { CandidateRow } from "../store/boundaries.repository.ts";
import { moreSpecific, unitMatches } from "./boundary-index.ts";
import type { Unit } from "./pub28.ts";

/** One lookup's choice: a street's address ranges in a ZIP (A), or a ZIP's ZIP+4 ranges (4). */
export interface RangeGroup {
  type: "A" | "4";
  zip5: string;
  /** The street key, for address ranges; null for ZIP+4 ranges. */
  street: string | null;
}

/** A record of a group as the lookup reads it, with its odd/even flag (`query`: the group's index, unused here). */
export type GroupRecord = CandidateRow & { parity: "O" | "E" | "B" | null };

/**
 * How many groups are judged at most. A real quarter touches a few thousand of Ohio's streets; past
 * this, every n-th group is judged and what it finds is scaled by n. Each judged group costs one
 * indexed read a version.
 */
export const MAX_GROUPS_JUDGED = 10_000;

/** Dates judged per group: the report's day and the next few on which one of the group's records begins or ends. */
const MAX_DATES = 4;

/** Every n-th group offered, n doubling whenever more than `cap` are kept: an even sample in bounded memory, whatever the count. */
export class GroupSample {
  #stride = 1;
  #seen = 0;
  #kept: RangeGroup[] = [];

  constructor(readonly cap = MAX_GROUPS_JUDGED) {}

  readonly add = (group: RangeGroup): void => {
    if (this.#seen++ % this.#stride !== 0) return;
    this.#kept.push(group);
    if (this.#kept.length > this.cap) {
      this.#kept = this.#kept.filter((_, i) => i % 2 === 0);
      this.#stride *= 2;
    }
  };

  /** Groups offered. */
  get seen(): number {
    return this.#seen;
  }

  get kept(): readonly RangeGroup[] {
    return this.#kept;
  }

  /** What one kept group stands for. */
  get scale(): number {
    return this.#kept.length === 0 ? 0 : this.#seen / this.#kept.length;
  }
}

/** What one group's lookups found. */
export interface GroupJudgement {
  /**
   * Ranges of the old version the new one keeps unchanged, yet at one of whose sampled addresses a
   * lookup now answers another county or transit code: a range added or narrowed over them shadows them.
   */
  shadowed: number;
  /** The counties and transit codes those ranges' lookups lost, once per range. */
  lost: Array<{ kind: "county" | "transit"; code: string }>;
  /** Addresses looked up in each version (one per address and date). */
  lookups: number;
}

/** An address a lookup could ask: a house number (with a unit or none) on the group's street, or a plus-4 in its ZIP. */
interface Address {
  value: number;
  unit: Unit | null;
}

const inEffect = (row: GroupRecord, date: string) => row.effective_from <= date && (row.effective_to === null || row.effective_to >= date);

function dayAfter(date: string): string | null {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  const text = next.toISOString().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null;
}

function judgedDates(rows: readonly GroupRecord[], day: string): string[] {
  const later = new Set<string>();
  for (const row of rows) {
    if (row.effective_from > day) later.add(row.effective_from);
    const after = row.effective_to === null ? null : dayAfter(row.effective_to);
    if (after !== null && after > day) later.add(after);
  }
  return [day, ...[...later].sort().slice(0, MAX_DATES - 1)];
}

/** What a range covers (the same fields as the store's comparison: store/boundaries.repository.ts COVERAGE). */
function coverage(row: GroupRecord): string {
  if (row.record_type === "4") return `${row.plus4_low}|${row.plus4_high}`;
  return `${row.house_low}|${row.house_high}|${row.parity}|${row.unit_designator ?? ""}|${row.unit_low ?? ""}|${row.unit_high ?? ""}|${row.unit_parity ?? ""}`;
}

const answerOf = (row: GroupRecord) => `${row.county_fips}|${row.transit_code ?? ""}`;

/** The old version's ranges the new one has with the same jurisdictions on the day: a change to these is no row's doing. */
function unchangedRanges(before: readonly GroupRecord[], after: readonly GroupRecord[], day: string): Set<string> {
  const sets = (rows: readonly GroupRecord[]) => {
    const byRange = new Map<string, Set<string>>();
    for (const row of rows) {
      const key = coverage(row);
      let set = byRange.get(key);
      if (set === undefined) byRange.set(key, (set = new Set()));
      set.add(`${answerOf(row)}|${inEffect(row, day) ? 1 : 0}`);
    }
    return byRange;
  };
  const [old, next] = [sets(before), sets(after)];
  const unchanged = new Set<string>();
  for (const [key, set] of old) {
    const other = next.get(key);
    if (other !== undefined && other.size === set.size && [...set].every((s) => other.has(s))) unchanged.add(key);
  }
  return unchanged;
}

/** A range's ends and middle, moved onto its odd or even side. */
function samples(low: number, high: number, parity: "O" | "E" | "B" | null): number[] {
  const side = (n: number) => {
    if ((parity === "O" && n % 2 === 0) || (parity === "E" && n % 2 !== 0)) return n + 1 <= high ? n + 1 : n - 1;
    return n;
  };
  return [low, Math.floor((low + high) / 2), high].map(side).filter((n) => n >= low && n <= high);
}

function addressesOf(row: GroupRecord): Address[] {
  if (row.record_type === "4") return samples(Number(row.plus4_low), Number(row.plus4_high), null).map((value) => ({ value, unit: null }));
  const houses = samples(row.house_low!, row.house_high!, row.parity);
  const addresses: Address[] = houses.map((value) => ({ value, unit: null }));
  if (row.unit_designator !== null) {
    for (const number of [row.unit_low, row.unit_high]) if (number) addresses.push({ value: houses[0]!, unit: { designator: row.unit_designator, number } });
  }
  return addresses;
}

const lowOf = (row: GroupRecord) => (row.record_type === "4" ? Number(row.plus4_low) : row.house_low!);
const highOf = (row: GroupRecord) => (row.record_type === "4" ? Number(row.plus4_high) : row.house_high!);

/** Whether the row answers the address on the date, its range known to hold the address's number. */
function admits(row: GroupRecord, address: Address, date: string): boolean {
  if (!inEffect(row, date)) return false;
  if (row.record_type === "4") return true;
  return (row.parity === "B" || row.parity === (address.value % 2 === 1 ? "O" : "E")) && unitMatches(row, address.unit);
}

/**
 * One version's records of a group, sorted by their range's low end, with the highest high end up to
 * each: a lookup finds the ranges holding a number by a binary search and a walk back that stops
 * where no earlier range reaches it, a few steps where ranges are blocks side by side.
 */
class Ranges {
  readonly #rows: GroupRecord[];
  readonly #lows: number[];
  readonly #reach: number[];

  constructor(rows: readonly GroupRecord[]) {
    this.#rows = [...rows].sort((a, b) => lowOf(a) - lowOf(b));
    this.#lows = this.#rows.map(lowOf);
    let reach = Number.NEGATIVE_INFINITY;
    this.#reach = this.#rows.map((row) => (reach = Math.max(reach, highOf(row))));
  }

  /** The record a lookup answers from: of those that admit the address, the most specific (boundary-index.ts moreSpecific). */
  answering(address: Address, date: string): GroupRecord | undefined {
    let [lo, hi] = [0, this.#lows.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#lows[mid]! <= address.value) lo = mid + 1;
      else hi = mid;
    }
    let best: GroupRecord | undefined;
    for (let i = lo - 1; i >= 0 && this.#reach[i]! >= address.value; i--) {
      const row = this.#rows[i]!;
      if (highOf(row) >= address.value && admits(row, address, date) && (best === undefined || moreSpecific(row, best) < 0)) best = row;
    }
    return best;
  }
}

const rowKey = (row: GroupRecord) => `${coverage(row)}|${row.county_fips}|${row.transit_code ?? ""}|${row.effective_from}|${row.effective_to ?? ""}`;

/**
 * The records one version has and the other lacks (as many times as it lacks them). An address only
 * records both versions share hold has the same candidates in both, so the same answer: only
 * addresses in these ranges are looked up.
 */
function differingRows(before: readonly GroupRecord[], after: readonly GroupRecord[]): GroupRecord[] {
  const unmatched = new Map<string, number>();
  for (const row of before) unmatched.set(rowKey(row), (unmatched.get(rowKey(row)) ?? 0) + 1);
  const differing: GroupRecord[] = [];
  for (const row of after) {
    const key = rowKey(row);
    const left = unmatched.get(key) ?? 0;
    if (left > 0) unmatched.set(key, left - 1);
    else differing.push(row);
  }
  for (const row of before) {
    const key = rowKey(row);
    const left = unmatched.get(key) ?? 0;
    if (left > 0) {
      unmatched.set(key, left - 1);
      differing.push(row);
    }
  }
  return differing;
}

/** One group's records in the old version (`before`) and the new one (`after`), judged by what lookups answer. */
export function judgeGroup(before: readonly GroupRecord[], after: readonly GroupRecord[], day: string): GroupJudgement {
  const unchanged = unchangedRanges(before, after, day);
  const [old, next] = [new Ranges(before), new Ranges(after)];
  const addresses = new Map<string, Address>();
  for (const row of differingRows(before, after)) {
    for (const address of addressesOf(row)) addresses.set(`${address.value}|${address.unit?.designator ?? ""}|${address.unit?.number ?? ""}`, address);
  }
  const dates = judgedDates([...before, ...after], day);
  // The old records of unchanged ranges, by their range: a lookup answered by any other moves nothing this judges.
  const kept = new Map<GroupRecord, string>();
  for (const row of before) {
    const key = coverage(row);
    if (unchanged.has(key)) kept.set(row, key);
  }
  /** Old ranges whose lookups moved, and the codes they lost ("county|39049"). */
  const moved = new Map<string, Set<string>>();
  for (const date of dates) {
    for (const address of addresses.values()) {
      const was = old.answering(address, date);
      const key = was === undefined ? undefined : kept.get(was);
      if (was === undefined || key === undefined) continue;
      const is = next.answering(address, date);
      if (is === undefined || (is.county_fips === was.county_fips && is.transit_code === was.transit_code)) continue;
      let lost = moved.get(key);
      if (lost === undefined) moved.set(key, (lost = new Set()));
      if (is.county_fips !== was.county_fips) lost.add(`county|${was.county_fips}`);
      if (was.transit_code !== null && is.transit_code !== was.transit_code) lost.add(`transit|${was.transit_code}`);
    }
  }
  const lost = [...moved.values()].flatMap((codes) =>
    [...codes].map((code) => {
      const [kind, value] = code.split("|") as ["county" | "transit", string];
      return { kind, code: value };
    }),
  );
  return { shadowed: moved.size, lost, lookups: addresses.size * dates.length };
}
