/**
 * Matches a one-line address as customers type it against the streets the active boundary file
 * holds (src/boundaries/street-index.ts), the way CASS-certified engines do: find the ZIP (5 or 9
 * digits at the end) or, without one, a city the file names; then read the words after the house
 * number against that ZIP's streets, each place the street could end, and keep the reading whose
 * remaining words are explained: units in any form, the city, the state. Pure, a few microseconds
 * an address; no rule per way of writing, since the file says which streets exist.
 *
 * Honest by construction (docs/guides/address-resolution.md, "Matching a typed address"): one
 * street or none; two that fit equally well are both named and neither answers; a PO box or rural
 * route box never matches a street. The house number and unit are checked against the ranges by
 * the probe (boundary-index.ts), which answers for the one street found here.
 */
import { bodyWithoutSuffix, isStreetWord, keyPartsOf, looseBody, standardDirectional, standardWordsFrom, unitDesignatorOf, type KeyParts } from "../boundaries/pub28.ts";
import type { FiledStreet, StreetFind, StreetIndex } from "../boundaries/street-index.ts";

/** Why the file could not answer an address, for the answer's `boundary_file_miss` (docs/api/README.md). */
export type MissReason = "no_zip_or_city" | "no_house_number" | "po_box" | "zip_not_in_file" | "no_street_in_zip" | "ambiguous_street" | "number_outside_ranges" | "ambiguous_record";

export interface StreetCandidate {
  readonly zip5: string;
  /** The stored street key the probe asks for. */
  readonly street: string;
}

export type AddressMatch =
  | {
      kind: "street";
      /** One, or several when only a city was given and the street runs through several of its ZIPs: the house number decides. */
      candidates: StreetCandidate[];
      houseNumber: string;
      /** "STE 300", "APT 7B", "# 4": the unit to check against a record's unit range. */
      unit: string | null;
      zip4: string | null;
    }
  | {
      kind: "miss";
      reason: MissReason;
      candidates: StreetCandidate[];
      /** The ZIP and +4 at the line's end, for a ZIP+4 range to answer instead. */
      zip5: string | null;
      zip4: string | null;
    };

interface Token {
  word: string;
  /** A comma (or semicolon) follows it: the writer ended a part there. */
  comma: boolean;
}

/** "S.E." → "SE", "U.S." → "US", "P.O." → "PO": points between single letters join them; other points are spaces. */
function tokens(text: string): Token[] {
  const cleaned = text
    .toUpperCase()
    .replace(/(\d)\s*½/g, "$1 1/2")
    .replace(/\b([A-Z])\.(?=[A-Z]\b)/g, "$1")
    // What a street key keeps (pub28.ts): letters, digits, "-", "/" and "#"; "O'Brien" is O BRIEN there too.
    .replace(/[^A-Z0-9#/\-\s,;]+/g, " ");
  const out: Token[] = [];
  for (const part of cleaned.match(/[^\s,;]+|[,;]/g) ?? []) {
    const last = out[out.length - 1];
    if (part === "," || part === ";") {
      if (last !== undefined) last.comma = true;
    } else if (last !== undefined && !last.comma && /^[EW]$/.test(part) && /^[NS]$/.test(last.word)) {
      // "S E", "N. W.": one directional written as two letters.
      last.word += part;
    } else out.push({ word: part, comma: false });
  }
  return out;
}

const ZIP = /^(\d{5})(?:-?(\d{4}))?$/;
const PLUS4 = /^\d{4}$/;
const STATE = new Set(["OH", "OHIO"]);
const COUNTRIES = [["USA"], ["US"], ["UNITED", "STATES"], ["UNITED", "STATES", "OF", "AMERICA"]];

/** How many words of a country name end the line ("USA", "United States"), or 0. */
function countryAtEnd(list: readonly Token[]): number {
  for (const country of COUNTRIES) {
    if (country.length <= list.length && country.every((w, k) => list[list.length - country.length + k]!.word === w)) return country.length;
  }
  return 0;
}
/** "1234", "1234A", "12-34". */
const HOUSE = /^\d{1,9}(?:[A-Z]|-\d{1,6})?$/;
const FRACTION = /^[1-3]\/[2-4]$/;
/** A unit's identifier: has a digit ("4", "12B", "2-A") or is one letter ("B"). */
const UNIT_ID = /^(?=.*\d)[0-9A-Z-]{1,8}$|^[A-Z]$/;
/** A designator glued to its identifier: "SUITE210", "APT4", "#4", "STE-300". */
const GLUED_UNIT = /^([A-Z]+|#)-?(\d+[A-Z]?)$/;
/** Designators as exports often shorten them, beside Appendix C2's own spellings. */
const UNIT_SPELLINGS = new Map([["BLD", "BLDG"], ["BLG", "BLDG"], ["FLR", "FL"], ["STE#", "STE"], ["APT#", "APT"], ["UNIT#", "UNIT"]]);
const designatorOf = (word: string) => unitDesignatorOf(word) ?? UNIT_SPELLINGS.get(word) ?? null;

/** Designators that stand without an identifier (Pub 28 Appendix C2). */
const ALONE = new Set(["BSMT", "FRNT", "LBBY", "LOWR", "OFC", "PH", "REAR", "SIDE", "UPPR"]);
/** "THIRD FLOOR", "3RD FL": an ordinal before FLOOR. */
const ORDINALS = new Map(["FIRST", "SECOND", "THIRD", "FOURTH", "FIFTH", "SIXTH", "SEVENTH", "EIGHTH", "NINTH", "TENTH"].map((w, i) => [w, String(i + 1)]));
const NUMBERED = /^(\d{1,3})(?:ST|ND|RD|TH)$/;
const LEVEL = new Set(["LEVEL", "LVL", "FLOOR", "FL"]);

function words(list: readonly Token[]): string[] {
  return list.map((t) => t.word);
}

/** The box or rural route a line begins with ("PO Box 12", "P O Box", "Post Office Box", "Box 12", "RR 2 Box 5"), or a PO box after the street. */
function isBox(list: readonly string[]): boolean {
  const first = list.slice(0, 3).join(" ");
  if (/^(?:PO |P O |POB |POST OFFICE )?BOX\b|^POB\b|^(?:RR|RURAL ROUTE|HC)\s+\d/.test(first)) return true;
  return list.some((w, i) => (w === "PO" || w === "POB") && list[i + 1] === "BOX");
}

interface Tail {
  /** Every word is a unit, the city, or the state. */
  clean: boolean;
  /** The first word after the street is unexplained and could continue it (a suffix or directional word): the street may be longer than the one found. */
  risky: boolean;
  unit: string | null;
}

/** A unit beginning at `at`: its standard form and how many words it takes; null when there is none. */
function unitAt(list: readonly string[], at: number): { unit: string; length: number } | null {
  const word = list[at]!;
  const next = list[at + 1];
  const ordinal = ORDINALS.get(word) ?? NUMBERED.exec(word)?.[1];
  if (ordinal !== undefined && next !== undefined && LEVEL.has(next)) return { unit: `FL ${ordinal}`, length: 2 };
  const designator = designatorOf(word);
  if (designator !== null) {
    if (next !== undefined && UNIT_ID.test(next)) {
      // "APT 7 B": a letter after a number belongs to it.
      const letter = list[at + 2];
      if (/^\d+$/.test(next) && letter !== undefined && /^[A-Z]$/.test(letter) && letter !== "N" && letter !== "S" && letter !== "E" && letter !== "W") {
        return { unit: `${designator} ${next}${letter}`, length: 3 };
      }
      // "Unit 2 East", "# 3 South": a wing's directional after the number belongs to it.
      if (letter !== undefined && standardDirectional(letter) !== null) return { unit: `${designator} ${next}${standardDirectional(letter)}`, length: 3 };
      return { unit: `${designator} ${next}`, length: 2 };
    }
    // "LOWER LEVEL", "REAR": a designator with no identifier.
    return { unit: designator, length: next !== undefined && LEVEL.has(next) && ALONE.has(designator) ? 2 : 1 };
  }
  const glued = GLUED_UNIT.exec(word);
  const gluedDesignator = glued ? designatorOf(glued[1]!) : null;
  if (glued && gluedDesignator !== null) return { unit: `${gluedDesignator} ${glued[2]}`, length: 1 };
  return null;
}

/** Reads what follows a street: units, the city (one of the ZIP's), the state; anything else is unexplained. */
function readTail(list: readonly string[], cities: readonly string[][]): Tail {
  let clean = true;
  let risky = false;
  const units: string[] = [];
  for (let i = 0; i < list.length; ) {
    const unit = unitAt(list, i);
    if (unit !== null) {
      units.push(unit.unit);
      i += unit.length;
      continue;
    }
    const city = cities.find((c) => c.every((w, k) => list[i + k] === w));
    if (city !== undefined) {
      i += city.length;
      continue;
    }
    if (STATE.has(list[i]!)) {
      i++;
      continue;
    }
    clean = false;
    if (i === 0 && isStreetWord(list[i]!)) risky = true;
    i++;
  }
  // "Bldg 2 Ste 300": the last unit with an identifier is the one a record's unit range holds.
  const unit = [...units].reverse().find((u) => u.includes(" ")) ?? null;
  return { clean, risky, unit };
}

interface Reading {
  zip5: string;
  found: Exclude<StreetFind, { kind: "none" }>;
  tail: Tail;
  /** 3: units, city and state only, after a comma; 2: the same without the comma; 1: unexplained words after a comma; 0: without. */
  rank: number;
  /** How many typed words the street takes. */
  words: number;
}

const streetOf = (zip5: string) => (s: FiledStreet): StreetCandidate => ({ zip5, street: s.key });

/** The street readings of `rest` (the words after the house number) in one ZIP, one per place the street could end. */
function readingsIn(index: StreetIndex, zip5: string, rest: readonly Token[], partsAt: ReadonlyArray<Prefix | null>): Reading[] {
  const cities = index.cities(zip5);
  const readings: Reading[] = [];
  for (let end = partsAt.length; end >= 1; end--) {
    const prefix = partsAt[end - 1];
    if (prefix == null) continue;
    const { parts, body, suffixed } = prefix;
    let found = index.find(zip5, parts, body);
    let withoutSuffix = false;
    // Only a street typed with no suffix is looked for by its name alone: "Harbor St" is not HARBOR ST PKWY.
    if (found.kind === "none" && !suffixed) {
      found = index.findWithoutSuffix(zip5, parts, body);
      withoutSuffix = true;
    }
    if (found.kind === "none") continue;
    const tail = readTail(words(rest.slice(end)), cities);
    const comma = end === rest.length || rest[end - 1]!.comma;
    // A street cut short of words that could continue it ("Oak St Hill Rd" read as OAK ST, "K St, NW" as K ST) is another
    // street; other unexplained words after it (a building's name, "Attn …", a misspelt city) are let be.
    if (!tail.clean && (withoutSuffix || tail.risky)) continue;
    readings.push({ zip5, found, tail, rank: (tail.clean ? 2 : 0) + (comma ? 1 : 0), words: end });
  }
  return readings;
}

/**
 * The key parts of every prefix of the words, as the file's keys are made (pub28.ts), the street
 * ending after each word; null after a word that is not a whole standard word ("TWENTY" of "TWENTY FIRST").
 * The words are standardised once: a line's prefixes are read in one pass.
 */
function prefixParts(list: readonly string[]): Array<Prefix | null> {
  const { words: all, from } = standardWordsFrom(list);
  const prefixes: Array<Prefix | null> = list.map(() => null);
  for (let k = 0; k < all.length; k++) {
    if (from[k] === -1 || from[k + 1] === from[k]) continue;
    const parts = keyPartsOf(all.slice(0, k + 1));
    prefixes[from[k]!] = { parts, body: looseBody(parts.body), suffixed: bodyWithoutSuffix(parts.body) !== null };
  }
  return prefixes;
}

/** A prefix of the words read as a street, with what every ZIP's lookup of it needs worked out once. */
interface Prefix {
  parts: KeyParts;
  /** looseBody of its body. */
  body: string;
  /** Its last word is a suffix. */
  suffixed: boolean;
}

/**
 * How many of the words the street may take: a writer's comma ends it, but for the directionals
 * right after it ("900 K Street, NW, …").
 */
function streetEnd(list: readonly Token[]): number {
  let end = list.findIndex((t) => t.comma) + 1;
  if (end === 0) return list.length;
  while (end < list.length && standardDirectional(list[end]!.word) !== null) end++;
  return end;
}

/**
 * The words after the house number as typed, then, only if the file holds no street for them,
 * as they are sometimes typed instead: a letter of the house number written apart ("4922 B South
 * Cornell Ave", "6910 # G Mary Caroline Cir"), a post-directional written before the suffix
 * ("3419 Saint John W St").
 */
function* retries(rest: readonly Token[]): Generator<readonly Token[]> {
  yield rest;
  const first = rest[0]?.word ?? "";
  const letter = first === "#" ? 2 : /^[A-Z]-?$/.test(first) && !/^[NSEW]$/.test(first) ? 1 : 0;
  if (letter > 0 && (letter === 1 || /^[A-Z]$/.test(rest[1]?.word ?? "")) && rest.length > letter) yield rest.slice(letter);
  const at = rest.findIndex((t, k) => k > 0 && standardDirectional(t.word) !== null && isStreetWord(rest[k + 1]?.word ?? "") && standardDirectional(rest[k + 1]!.word) === null);
  if (at > 0) yield [...rest.slice(0, at), rest[at + 1]!, rest[at]!, ...rest.slice(at + 2)];
}

/**
 * The street a typed line names, in `zip` when the caller gave it apart (it wins over a ZIP in the
 * line), else in the ZIP at the line's end, else in the ZIPs of a city the file names.
 */
export function matchAddress(text: string, index: StreetIndex, zip: string | null = null): AddressMatch {
  let zip5: string | null = null;
  let zip4: string | null = null;
  const miss = (reason: MissReason, candidates: StreetCandidate[] = []): AddressMatch => ({ kind: "miss", reason, candidates, zip5, zip4 });
  let list = tokens(text);
  for (let country = countryAtEnd(list); country > 0; country = countryAtEnd(list)) list = list.slice(0, -country);

  const last = list[list.length - 1]?.word ?? "";
  const beforeLast = list[list.length - 2]?.word ?? "";
  if (PLUS4.test(last) && ZIP.test(beforeLast) && beforeLast.length === 5) {
    [zip5, zip4] = [beforeLast, last];
    list = list.slice(0, -2);
  } else {
    const found = ZIP.exec(last) ?? /^(\d{5})(\d{4})$/.exec(last);
    if (found) {
      [zip5, zip4] = [found[1]!, found[2] ?? null];
      list = list.slice(0, -1);
    }
  }
  while (list.length > 0 && STATE.has(list[list.length - 1]!.word)) list = list.slice(0, -1);
  if (isBox(words(list))) return miss("po_box");

  let houseAt = 1;
  const house = list[0]?.word ?? "";
  if (!HOUSE.test(house)) return miss("no_house_number");
  let houseNumber = house;
  if (list[1] && FRACTION.test(list[1].word)) {
    houseNumber = `${house} ${list[1].word}`;
    houseAt = 2;
  }
  let rest = list.slice(houseAt);

  let zips: string[];
  if (zip !== null || zip5 !== null) zips = [zip ?? zip5!];
  else {
    const city = index.cityAtEnd(words(rest));
    if (city === null) return miss("no_zip_or_city");
    zips = city.zips;
    rest = rest.slice(0, rest.length - city.length);
  }
  if (!zips.some((z) => index.hasStreets(z))) return miss("zip_not_in_file");
  if (rest.length === 0) return miss("no_street_in_zip");

  let readings: Reading[] = [];
  for (const words of retries(rest)) {
    const partsAt = prefixParts(words.slice(0, streetEnd(words)).map((t) => t.word));
    readings = zips.flatMap((z) => readingsIn(index, z, words, partsAt));
    if (readings.length > 0) break;
  }
  if (readings.length === 0) return miss("no_street_in_zip");
  const best = Math.max(...readings.map((r) => r.rank));
  let top = readings.filter((r) => r.rank === best);
  // A street with the very directionals typed wins over one that takes a directional left out or added, as
  // within one ZIP (street-index.ts), so across a city's ZIPs too.
  if (top.some((r) => r.found.exact)) top = top.filter((r) => r.found.exact);
  // Neither tail explained ("Peachtree Rd NE Tower Place"): the reading that takes more of the words wins.
  if (best <= 1) {
    const longest = Math.max(...top.map((r) => r.words));
    top = top.filter((r) => r.words === longest);
  }
  const candidates = new Map<string, StreetCandidate>();
  for (const r of top) {
    for (const s of r.found.kind === "one" ? [r.found.street] : r.found.streets) candidates.set(`${r.zip5} ${s.key}`, streetOf(r.zip5)(s));
  }
  // One street per ZIP: in several ZIPs of one city, the house number decides which (the probe).
  const perZip = new Set([...candidates.values()].map((c) => c.zip5));
  if (top.some((r) => r.found.kind === "many") || perZip.size !== candidates.size) return miss("ambiguous_street", [...candidates.values()]);
  const unit = top[0]!.tail.unit;
  return { kind: "street", candidates: [...candidates.values()], houseNumber, unit, zip4: zip !== null && zip !== zip5 ? null : zip4 };
}
