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
 * - Highways (§237), spelled out as the publication writes them, whatever short form was used:
 *   "SR 3", "St Rt 3", "OH-3", "Ohio 3" → STATE ROUTE 3; "CR 12", "Co Rd 12" → COUNTY ROAD 12;
 *   "TR 45", "Twp Rd 45" → TOWNSHIP ROAD 45; "US 23", "U.S. Hwy 23", "US Route 23" → US HIGHWAY 23;
 *   "I-71" → INTERSTATE 71. Only before a route number: "State St" and "Ohio Ave" keep their names.
 * - Numeric street names (§235): an ordinal spelled out becomes its numeral, FIFTH → 5TH,
 *   TWENTY-FIRST → 21ST, so "Fifth Ave" and "5th Ave" are one street.
 * - Upper case, punctuation other than "-", "/" and "#" dropped, runs of spaces collapsed.
 */
import { createRequire } from "node:module";

interface StreetType {
  suffix: string;
  abbrs: string[];
  standardAbbr: string;
}

const streetTypes = createRequire(import.meta.url)("street-types") as StreetType[];

/**
 * Every C1 spelling (primary name, common abbreviations, standard abbreviation) → the standard
 * abbreviation. A type's own name and standard abbreviation win over another type's list of common
 * ones: `street-types` lists MDW among MEADOWS' abbreviations too, and MDW is Meadow's standard.
 */
const SUFFIXES: ReadonlyMap<string, string> = new Map([
  ...streetTypes.flatMap((type) => type.abbrs.map((spelling) => [spelling.trim().toUpperCase(), type.standardAbbr] as const)),
  ...streetTypes.flatMap((type) => [type.suffix, type.standardAbbr].map((spelling) => [spelling.trim().toUpperCase(), type.standardAbbr] as const)),
]);

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
 * §237 highways: every way of writing a highway type before its number, longest first, → the
 * publication's spelled-out form. Ohio's state highways are State Routes ("Ohio 3", "OH-3" on signs);
 * ROUTE and HIGHWAY alone stay apart from them, as a caller who writes "Route 3" may mean US or SR.
 */
const HIGHWAY_FORMS: ReadonlyArray<readonly [string, string]> = (
  [
    ["STATE ROUTE", ["SR", "S R", "ST RT", "ST RTE", "ST ROUTE", "STATE RT", "STATE RTE", "STATE ROUTE", "STATE HWY", "STATE HIGHWAY", "ST HWY",
      "OH", "OHIO", "OH SR", "OHIO SR", "OH RT", "OH RTE", "OH ROUTE", "OHIO RT", "OHIO RTE", "OHIO ROUTE", "OH ST RT", "OHIO ST RT", "OH STATE ROUTE", "OHIO STATE ROUTE"]],
    ["COUNTY ROAD", ["CR", "C R", "CO RD", "CO ROAD", "CNTY RD", "CNTY ROAD", "CTY RD", "CTY ROAD", "COUNTY RD", "COUNTY ROAD"]],
    ["COUNTY HIGHWAY", ["CO HWY", "CNTY HWY", "CTY HWY", "COUNTY HWY", "COUNTY HIGHWAY"]],
    ["TOWNSHIP ROAD", ["TR", "T R", "TWP RD", "TWP ROAD", "TWNSHP RD", "TOWNSHIP RD", "TOWNSHIP ROAD"]],
    ["TOWNSHIP HIGHWAY", ["TWP HWY", "TOWNSHIP HWY", "TOWNSHIP HIGHWAY"]],
    ["US HIGHWAY", ["US", "US HWY", "US HIGHWAY", "US RT", "US RTE", "US ROUTE", "USHWY", "USRT", "UNITED STATES HIGHWAY", "UNITED STATES ROUTE"]],
    ["INTERSTATE", ["I", "IH", "INTERSTATE", "INTERSTATE HWY", "INTERSTATE HIGHWAY"]],
    ["HIGHWAY", ["HWY", "HIWAY", "HIGHWAY"]],
    ["ROUTE", ["RT", "RTE", "ROUTE"]],
  ] as const
)
  .flatMap(([standard, forms]) => forms.map((form) => [form, standard] as const))
  .sort(([a], [b]) => b.split(" ").length - a.split(" ").length);

/** The forms by their first word, longest first: a key is built for every probe, so this is the hot path. */
const HIGHWAYS_BY_FIRST_WORD: ReadonlyMap<string, ReadonlyArray<{ words: readonly string[]; standard: readonly string[] }>> = HIGHWAY_FORMS.reduce((map, [form, standard]) => {
  const words = form.split(" ");
  map.set(words[0]!, [...(map.get(words[0]!) ?? []), { words, standard: standard.split(" ") }]);
  return map;
}, new Map<string, Array<{ words: readonly string[]; standard: readonly string[] }>>());

/** A route number: "3", "23", "3A". */
const ROUTE_NUMBER = /^\d{1,4}[A-Z]?$/;
/** A highway type glued to its number or joined by a hyphen: "SR3", "OH-3", "I-71", "US-23". */
const GLUED_HIGHWAY = /^(SR|CR|TR|US|OH|I|IH|RT|RTE|HWY)-?(\d{1,4}[A-Z]?)$/;

const UNITS = ["", "FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH"];
const TEENS = ["TENTH", "ELEVENTH", "TWELFTH", "THIRTEENTH", "FOURTEENTH", "FIFTEENTH", "SIXTEENTH", "SEVENTEENTH", "EIGHTEENTH", "NINETEENTH"];
const TENS = ["", "", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY"];
const TENTHS = ["", "", "TWENTIETH", "THIRTIETH", "FORTIETH", "FIFTIETH", "SIXTIETH", "SEVENTIETH", "EIGHTIETH", "NINETIETH"];

function numeral(n: number): string {
  const last = n % 10;
  const ending = n % 100 >= 11 && n % 100 <= 13 ? "TH" : last === 1 ? "ST" : last === 2 ? "ND" : last === 3 ? "RD" : "TH";
  return `${n}${ending}`;
}

/** Spelled-out ordinals (§235) → numerals: FIFTH → 5TH; a compound as one word or two: TWENTY-FIRST, TWENTY FIRST → 21ST. */
const ORDINAL_WORDS: ReadonlyMap<string, string> = new Map([
  ...UNITS.slice(1).map((word, i) => [word, numeral(i + 1)] as const),
  ...TEENS.map((word, i) => [word, numeral(i + 10)] as const),
  ...TENTHS.slice(2).map((word, i) => [word, numeral((i + 2) * 10)] as const),
  ["HUNDREDTH", "100TH"],
]);
const TENS_WORDS: ReadonlyMap<string, number> = new Map(TENS.slice(2).map((word, i) => [word, (i + 2) * 10] as const));

/** Words in their standard spelling: "U S" and glued or hyphenated highway numbers split, ordinals as numerals, highway types spelled out. */
function standardWords(raw: readonly string[]): string[] {
  return standardWordsFrom(raw).words;
}

/**
 * The standard words, each with the index of the last raw word it was made from (-1 inside a
 * highway type spelled out from fewer words): a caller that reads a street out of a longer line
 * standardises the line once and cuts it only after a whole raw word.
 */
export function standardWordsFrom(raw: readonly string[]): { words: string[]; from: number[] } {
  const split: string[] = [];
  const origin: number[] = [];
  raw.forEach((word, r) => {
    const glued = GLUED_HIGHWAY.exec(word);
    // "TWENTY-FIRST" is two words of one ordinal.
    const [tens, unit] = word.split("-");
    const parts = glued ? [glued[1]!, glued[2]!] : unit !== undefined && TENS_WORDS.has(tens!) && ORDINAL_WORDS.has(unit) ? [tens!, unit] : [word];
    for (const part of parts) {
      split.push(part);
      origin.push(r);
    }
  });
  const out: string[] = [];
  const from: number[] = [];
  for (let i = 0; i < split.length; i++) {
    const word = split[i]!;
    // "U.S." loses its points to the punctuation rule: put it back together.
    if (word === "U" && split[i + 1] === "S") {
      out.push("US");
      from.push(origin[++i]!);
      continue;
    }
    const tens = TENS_WORDS.get(word);
    const unit = tens === undefined ? undefined : UNITS.indexOf(split[i + 1] ?? "");
    if (tens !== undefined && unit !== undefined && unit > 0) {
      out.push(numeral(tens + unit));
      from.push(origin[++i]!);
      continue;
    }
    out.push(ORDINAL_WORDS.get(word) ?? word);
    from.push(origin[i]!);
  }
  return highways(out, from);
}

function highways(words: readonly string[], origin: readonly number[]): { words: string[]; from: number[] } {
  const out: string[] = [];
  const from: number[] = [];
  for (let i = 0; i < words.length; ) {
    const form = HIGHWAYS_BY_FIRST_WORD.get(words[i]!)?.find((f) => {
      const next = words[i + f.words.length];
      return next !== undefined && ROUTE_NUMBER.test(next) && f.words.every((part, k) => words[i + k] === part);
    });
    if (form) {
      out.push(...form.standard);
      for (let k = 0; k < form.standard.length; k++) from.push(k === form.standard.length - 1 ? origin[i + form.words.length - 1]! : -1);
      i += form.words.length;
    } else {
      out.push(words[i]!);
      from.push(origin[i++]!);
    }
  }
  return { words: out, from };
}

/** A street key in its parts: the directionals apart, so a lookup can try the street with and without them. */
export interface KeyParts {
  readonly preDirectional: string | null;
  /** The name and its suffix: "HIGH ST", "STATE ROUTE 3", "5TH AVE". */
  readonly body: readonly string[];
  readonly postDirectional: string | null;
}

export function streetKeyParts(parts: StreetParts): KeyParts {
  return keyPartsOf(standardWords([...words(parts.preDirectional), ...words(parts.streetName), ...words(parts.suffix), ...words(parts.postDirectional)]));
}

/** The key parts of words already standardised (standardWordsFrom): directionals and suffix told apart by their place. */
export function keyPartsOf(all: readonly string[]): KeyParts {
  let end = all.length;
  // A trailing directional is a post-directional only when a name (and maybe a suffix) stands before it.
  const post = end >= 2 && DIRECTIONALS.has(all[end - 1]!) ? DIRECTIONALS.get(all[end - 1]!)! : null;
  if (post !== null) end--;
  let start = 0;
  const pre = end - start >= 2 && DIRECTIONALS.has(all[0]!) && !isLoneSuffix(all, 1, end) ? DIRECTIONALS.get(all[0]!)! : null;
  if (pre !== null) start++;
  const suffix = end - start >= 2 && SUFFIXES.has(all[end - 1]!) ? SUFFIXES.get(all[end - 1]!)! : null;
  if (suffix !== null) end--;
  return { preDirectional: pre, body: [...all.slice(start, end), ...(suffix === null ? [] : [suffix])], postDirectional: post };
}

const joinKey = (pre: string | null, body: readonly string[], post: string | null) => [pre, ...body, post].filter((word) => word !== null).join(" ");

/**
 * The index key of a street: "N HIGH ST", "MARTIN LUTHER KING JR BLVD", "MAIN ST W", "STATE ROUTE 3".
 * Empty when the parts hold no letters or digits. The parts are joined before standardising, so a
 * parser that left the directional or suffix inside the name ("North High Street" as one name)
 * gives the same key.
 */
export function streetKey(parts: StreetParts): string {
  return keyOf(streetKeyParts(parts));
}

export function keyOf({ preDirectional, body, postDirectional }: KeyParts): string {
  return joinKey(preDirectional, body, postDirectional);
}

const ALL_DIRECTIONALS = ["N", "S", "E", "W", "NE", "NW", "SE", "SW"];

/** Every key of the street's name and suffix: without a directional, and with each one before or after it. */
export function sameStreetKeys({ body }: KeyParts): string[] {
  if (body.length === 0) return [];
  return [joinKey(null, body, null), ...ALL_DIRECTIONALS.flatMap((d) => [joinKey(d, body, null), joinKey(null, body, d)])];
}

/**
 * The keys a street may be filed under when its own key finds nothing: without a directional, each
 * directional before or after the name ("High St" → "N HIGH ST", "HIGH ST N", …); with one, the name
 * without it and the same directional on the other side ("N High St" → "HIGH ST", "HIGH ST N").
 * A directional is never swapped for another: "S High St" is not "N HIGH ST". The caller answers
 * only when one of these is the only one of sameStreetKeys filed in the ZIP.
 */
export function directionalVariants({ preDirectional: pre, body, postDirectional: post }: KeyParts): string[] {
  if (body.length === 0) return [];
  if (pre === null && post === null) return ALL_DIRECTIONALS.flatMap((d) => [joinKey(d, body, null), joinKey(null, body, d)]);
  if (pre !== null && post !== null) return [joinKey(null, body, null)];
  return [joinKey(null, body, null), pre !== null ? joinKey(null, body, pre) : joinKey(post, body, null)];
}

/**
 * The words of a street's name and suffix with every suffix word in its standard abbreviation, not
 * only the last: "HARBOR STREET PKWY" and "HARBOR ST PKWY" are one street (two suffix words,
 * Pub 28 §234.2), whichever of them the file or the caller spelled out.
 */
export function looseBody(body: readonly string[]): string {
  return body.map((word) => SUFFIXES.get(word) ?? word).join(" ");
}

/** The name of a street without its suffix ("OAK" of "OAK ST"), or null when its last word is no suffix. */
export function bodyWithoutSuffix(body: readonly string[]): string | null {
  return body.length >= 2 && SUFFIXES.has(body[body.length - 1]!) ? looseBody(body.slice(0, -1)) : null;
}

/** A word a street's parts are made of (a suffix or a directional in any spelling): one that may continue a street, not begin a city. */
export function isStreetWord(word: string): boolean {
  return SUFFIXES.has(word) || DIRECTIONALS.has(word);
}

/** Upper case, the characters a key keeps ("-", "/", "#"), split into words: as the file's streets are read. */
export function keyWords(text: string): string[] {
  return words(text);
}

/** The standard Appendix C2 designator of one word ("SUITE" → "STE"), or null. */
export function unitDesignatorOf(word: string): string | null {
  return UNIT_DESIGNATORS.get(word) ?? null;
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
