/**
 * USPS Publication 28 street standardisation, the one key both sides of the boundary index use:
 * the importer builds it from a record's columns 7–10 and the probe from the caller's parsed
 * address, so "North High Street" and "N High St" find the same record. Pure and idempotent:
 * standardising a standardised key gives it back unchanged.
 *
 * - Directionals (Pub 28 §233, Appendix B): NORTH → N, NORTHEAST → NE, … — but a directional that is
 *   the whole street name ("North Ave", "West St") stays a word, as the publication says.
 * - Street suffixes (Appendix C1) from `street-types`, the C1 table as data: every common spelling
 *   (AVENUE, AVEN, AV) → the standard abbreviation (AVE). Only the last word (before a
 *   post-directional) is a suffix, and never when it is the only word ("Avenue D" keeps its name).
 * - Secondary unit designators (Appendix C2): APARTMENT → APT, SUITE → STE, "#" kept as "#".
 * - Upper case, punctuation other than "-", "/" and "#" dropped, runs of spaces collapsed.
 */
import { createRequire } from "node:module";

interface StreetType {
  suffix: string;
  abbrs: string[];
  standardAbbr: string;
}

const streetTypes = createRequire(import.meta.url)("street-types") as StreetType[];

/** Every C1 spelling (primary name, common abbreviations, standard abbreviation) → the standard abbreviation. */
const SUFFIXES: ReadonlyMap<string, string> = new Map(
  streetTypes.flatMap((type) => [type.suffix, type.standardAbbr, ...type.abbrs].map((spelling) => [spelling.trim().toUpperCase(), type.standardAbbr] as const)),
);

const DIRECTIONALS: ReadonlyMap<string, string> = new Map([
  ["NORTH", "N"], ["SOUTH", "S"], ["EAST", "E"], ["WEST", "W"],
  ["NORTHEAST", "NE"], ["NORTHWEST", "NW"], ["SOUTHEAST", "SE"], ["SOUTHWEST", "SW"],
  ["N", "N"], ["S", "S"], ["E", "E"], ["W", "W"], ["NE", "NE"], ["NW", "NW"], ["SE", "SE"], ["SW", "SW"],
]);

/** Appendix C2: the designators and their standard abbreviations. */
const UNIT_DESIGNATORS: ReadonlyMap<string, string> = new Map([
  ["APARTMENT", "APT"], ["APT", "APT"], ["BASEMENT", "BSMT"], ["BSMT", "BSMT"], ["BUILDING", "BLDG"], ["BLDG", "BLDG"],
  ["DEPARTMENT", "DEPT"], ["DEPT", "DEPT"], ["FLOOR", "FL"], ["FL", "FL"], ["FRONT", "FRNT"], ["FRNT", "FRNT"],
  ["HANGAR", "HNGR"], ["HNGR", "HNGR"], ["KEY", "KEY"], ["LOBBY", "LBBY"], ["LBBY", "LBBY"], ["LOT", "LOT"],
  ["LOWER", "LOWR"], ["LOWR", "LOWR"], ["OFFICE", "OFC"], ["OFC", "OFC"], ["PENTHOUSE", "PH"], ["PH", "PH"],
  ["PIER", "PIER"], ["REAR", "REAR"], ["ROOM", "RM"], ["RM", "RM"], ["SIDE", "SIDE"], ["SLIP", "SLIP"],
  ["SPACE", "SPC"], ["SPC", "SPC"], ["STOP", "STOP"], ["SUITE", "STE"], ["STE", "STE"], ["TRAILER", "TRLR"],
  ["TRLR", "TRLR"], ["UNIT", "UNIT"], ["UPPER", "UPPR"], ["UPPR", "UPPR"], ["#", "#"],
]);

export interface StreetParts {
  readonly preDirectional?: string | undefined;
  readonly streetName: string;
  readonly suffix?: string | undefined;
  readonly postDirectional?: string | undefined;
}

function words(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9#/\- ]+/g, " ")
    .split(" ")
    .filter((word) => word !== "");
}

/**
 * The index key of a street: "N HIGH ST", "MARTIN LUTHER KING JR BLVD", "MAIN ST W". Empty when
 * the parts hold no letters or digits. The parts are joined before standardising, so a parser that
 * left the directional or suffix inside the name ("North High Street" as one name) gives the same key.
 */
export function streetKey(parts: StreetParts): string {
  const all = [...words(parts.preDirectional), ...words(parts.streetName), ...words(parts.suffix), ...words(parts.postDirectional)];
  if (all.length === 0) return "";
  let end = all.length;
  // A trailing directional is a post-directional only when a name (and maybe a suffix) stands before it.
  const post = end >= 2 && DIRECTIONALS.has(all[end - 1]!) ? DIRECTIONALS.get(all[end - 1]!)! : null;
  if (post !== null) end--;
  let start = 0;
  const pre = end - start >= 2 && DIRECTIONALS.has(all[0]!) && !isLoneSuffix(all, 1, end) ? DIRECTIONALS.get(all[0]!)! : null;
  if (pre !== null) start++;
  const suffix = end - start >= 2 && SUFFIXES.has(all[end - 1]!) ? SUFFIXES.get(all[end - 1]!)! : null;
  if (suffix !== null) end--;
  return [pre, ...all.slice(start, end), suffix, post].filter((word) => word !== null).join(" ");
}

/** "NORTH AVE": the directional is the name when only a suffix follows it. */
function isLoneSuffix(all: readonly string[], from: number, end: number): boolean {
  return end - from === 1 && SUFFIXES.has(all[from]!);
}

/** The standard abbreviation of a street suffix, or null when it is not one of Pub 28's. */
export function standardSuffix(text: string): string | null {
  return SUFFIXES.get(words(text).join(" ")) ?? null;
}

/** The standard abbreviation of a directional, or null. */
export function standardDirectional(text: string): string | null {
  return DIRECTIONALS.get(words(text).join("")) ?? null;
}

export interface Unit {
  /** The standard designator, "APT", "STE", "#", … or null when the unit was given as a bare number. */
  readonly designator: string | null;
  /** "4", "200", "B" */
  readonly number: string;
}

/** "Apt 4", "apartment 4", "#4", "Suite 200", "4" → the standard designator and the unit's identifier; null when empty. */
export function parseUnit(text: string | undefined): Unit | null {
  const parts = words(text?.replace(/#/g, " # "));
  if (parts.length === 0) return null;
  const designator = UNIT_DESIGNATORS.get(parts[0]!) ?? null;
  const rest = designator === null ? parts : parts.slice(1);
  if (rest.length === 0) return designator === null ? null : { designator, number: "" };
  return { designator, number: rest.join(" ") };
}

/** The standard form of a unit designator ("Apartment" → "APT"), or the text upper-cased when it is not one of Pub 28's. */
export function standardUnitDesignator(text: string): string {
  const upper = words(text).join(" ");
  return UNIT_DESIGNATORS.get(upper) ?? upper;
}

/** The leading whole number of a house number: "1234" → 1234, "1234A" → 1234, "12-34" → 12; null without one. */
export function houseNumberValue(text: string): number | null {
  const match = /^\s*(\d{1,9})/.exec(text);
  return match ? Number(match[1]) : null;
}
