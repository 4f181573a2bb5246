/**
 * The streets and cities one version of the boundary file holds, per ZIP, in memory: what the
 * address matcher (src/lookup/address-match.ts) matches a typed line against, the way a CASS
 * engine matches against its ZIP+4 database instead of parsing the line on its own. Built once per
 * version from the stored street keys (Ohio: about 400,000 address ranges, far fewer distinct
 * streets) and the file's city names; a few megabytes. Pure.
 *
 * A street is found by its name and suffix, every suffix word standardised (pub28.ts looseBody),
 * and then by its directionals, under the rules the probe always kept (docs/guides/address-resolution.md):
 * - the directionals the caller gave, exactly: that street;
 * - else a directional left out, or one given that the file lacks, or given on the other side:
 *   only when the street is the one of that name and suffix in the ZIP;
 * - a directional is never swapped for another (N is not S);
 * - a street given without its suffix: only when it is the one street of that name in the ZIP.
 * Two streets that fit are two candidates, never a guess.
 */
import { bodyWithoutSuffix, looseBody, streetKeyParts, type KeyParts } from "./pub28.ts";

export interface FiledStreet {
  /** The stored Pub 28 key, as the probe asks for it: "N HIGH ST". */
  readonly key: string;
  readonly pre: string | null;
  readonly post: string | null;
}

/** `exact`: filed with the very directionals typed, not found by leaving one out or adding one. */
export type StreetFind =
  | { kind: "one"; street: FiledStreet; exact: boolean }
  | { kind: "many"; streets: FiledStreet[]; exact: boolean }
  | { kind: "none" };

/** A street's stored key, or the keys of several streets: most names hold one street in a ZIP, kept as a bare string. */
type Keys = string | string[];

interface ZipStreets {
  /** looseBody → the keys of the streets of that name and suffix, whatever their directionals. */
  readonly byBody: Map<string, Keys>;
  /** The name without its suffix → the keys of the streets of that name. */
  readonly byName: Map<string, Keys>;
  /** The ZIP's city names, each as its words. */
  readonly cities: string[][];
}

function add(map: Map<string, Keys>, at: string, key: string): void {
  const held = map.get(at);
  if (held === undefined) map.set(at, key);
  else if (typeof held === "string") map.set(at, [held, key]);
  else held.push(key);
}

/** A stored key's directionals, told apart from its body (`bodyWords` long): kept as the key alone to keep the index small. */
function filed(key: string, bodyWords: number): FiledStreet {
  const words = key.split(" ");
  const extra = words.length - bodyWords;
  if (extra <= 0) return { key, pre: null, post: null };
  if (extra >= 2) return { key, pre: words[0]!, post: words[words.length - 1]! };
  const [first, last] = [DIRECTIONALS.has(words[0]!), DIRECTIONALS.has(words[words.length - 1]!)];
  if (first && !last) return { key, pre: words[0]!, post: null };
  if (last && !first) return { key, pre: null, post: words[words.length - 1]! };
  const parts = streetKeyParts({ streetName: key });
  return { key, pre: parts.preDirectional, post: parts.postDirectional };
}

function filedAll(keys: Keys | undefined, bodyWords: number): FiledStreet[] | undefined {
  if (keys === undefined) return undefined;
  return typeof keys === "string" ? [filed(keys, bodyWords)] : keys.map((k) => filed(k, bodyWords));
}

const NONE: StreetFind = { kind: "none" };
/** The standard directionals, as stored keys write them. */
const DIRECTIONALS = new Set(["N", "S", "E", "W", "NE", "NW", "SE", "SW"]);

/** Upper case, letters and digits only, as the matcher reads a typed city. */
export function cityWords(city: string): string[] {
  return city.toUpperCase().replace(/[^A-Z0-9 ]+/g, " ").split(" ").filter((w) => w !== "");
}

function allowed(typed: KeyParts, filed: FiledStreet): boolean {
  const { preDirectional: pre, postDirectional: post } = typed;
  if (pre === null && post === null) return true;
  if (pre !== null && post !== null) return filed.pre === null && filed.post === null;
  const given = pre ?? post;
  return (filed.pre === null && filed.post === null) || (pre !== null ? filed.pre === null && filed.post === given : filed.post === null && filed.pre === given);
}

function pick(typed: KeyParts, same: readonly FiledStreet[] | undefined): StreetFind {
  if (same === undefined || same.length === 0) return NONE;
  const exact = same.filter((s) => s.pre === typed.preDirectional && s.post === typed.postDirectional);
  if (exact.length === 1) return { kind: "one", street: exact[0]!, exact: true };
  if (exact.length > 1) return { kind: "many", streets: exact, exact: true };
  if (!same.some((s) => allowed(typed, s))) return NONE;
  return same.length === 1 ? { kind: "one", street: same[0]!, exact: false } : { kind: "many", streets: [...same], exact: false };
}

/**
 * What the index files a stored street under, worked out from its key: its loose body, and its name
 * without the suffix (null: its last word is no suffix); null when the key has no body. The same for
 * a street indexed from its key and one read prepared (preparedStreets).
 */
function filing(street: string): { body: string; name: string | null } | null {
  const parts = streetKeyParts({ streetName: street });
  if (parts.body.length === 0) return null;
  return { body: looseBody(parts.body), name: bodyWithoutSuffix(parts.body) };
}

/**
 * A ZIP's streets as an import stores them beside its records (boundaries.repository.ts writeStreets):
 * one line per street, "key TAB loose body TAB name", the body left empty when it is the key itself and
 * the name when there is none; in key order, as the records' address index lists them, so two streets of
 * one name are named in the same order either way. Building the index from these skips standardising
 * 800,000 keys again in every batch thread (2–3 s at the state's size, docs/operations/benchmarks.md).
 */
export function preparedStreets(streets: Iterable<string>): string {
  const lines: string[] = [];
  for (const street of [...streets].sort()) {
    const filed = filing(street);
    if (filed !== null) lines.push(`${street}\t${filed.body === street ? "" : filed.body}\t${filed.name ?? ""}`);
  }
  return lines.join("\n");
}

export class StreetIndex {
  readonly #zips = new Map<string, ZipStreets>();
  /** City words joined by a space → the ZIPs the file names it in. */
  readonly #cityZips = new Map<string, Set<string>>();
  /** The most words a city name has. */
  #longestCity = 0;

  constructor(streets: Iterable<{ zip5: string; street: string }>, cities: Iterable<{ zip5: string; city: string }>) {
    for (const { zip5, street } of streets) {
      const filed = filing(street);
      if (filed !== null) this.#add(this.#zip(zip5), street, filed.body, filed.name);
    }
    for (const { zip5, city } of cities) {
      const words = cityWords(city);
      if (words.length === 0) continue;
      const key = words.join(" ");
      const zip = this.#zip(zip5);
      if (!zip.cities.some((c) => c.join(" ") === key)) zip.cities.push(words);
      this.#cityZips.set(key, (this.#cityZips.get(key) ?? new Set()).add(zip5));
      this.#longestCity = Math.max(this.#longestCity, words.length);
    }
  }

  /** The index from each ZIP's prepared streets (preparedStreets), as an import stored them. */
  static fromPrepared(zips: Iterable<{ zip5: string; streets: string }>, cities: Iterable<{ zip5: string; city: string }>): StreetIndex {
    const index = new StreetIndex([], cities);
    for (const { zip5, streets } of zips) {
      const zip = index.#zip(zip5);
      for (let at = 0; at < streets.length; ) {
        const newline = streets.indexOf("\n", at);
        const end = newline === -1 ? streets.length : newline;
        const tab = streets.indexOf("\t", at);
        const tab2 = streets.indexOf("\t", tab + 1);
        const street = streets.slice(at, tab);
        index.#add(zip, street, tab2 === tab + 1 ? street : streets.slice(tab + 1, tab2), tab2 + 1 === end ? null : streets.slice(tab2 + 1, end));
        at = end + 1;
      }
    }
    return index;
  }

  #add(zip: ZipStreets, street: string, body: string, name: string | null): void {
    // Most keys are their own loose body ("OAK ST"): one string serves as both.
    add(zip.byBody, body === street ? street : body, street);
    if (name !== null) add(zip.byName, name, street);
  }

  #zip(zip5: string): ZipStreets {
    let zip = this.#zips.get(zip5);
    if (zip === undefined) this.#zips.set(zip5, (zip = { byBody: new Map(), byName: new Map(), cities: [] }));
    return zip;
  }

  /** Does the file hold any street for the ZIP? */
  hasStreets(zip5: string): boolean {
    return (this.#zips.get(zip5)?.byBody.size ?? 0) > 0;
  }

  /** The street (or streets) the typed parts can mean in the ZIP; `body` is looseBody(typed.body), when the caller has it already. */
  find(zip5: string, typed: KeyParts, body: string = looseBody(typed.body)): StreetFind {
    const zip = this.#zips.get(zip5);
    if (zip === undefined || typed.body.length === 0) return NONE;
    return pick(typed, filedAll(zip.byBody.get(body), typed.body.length));
  }

  /** A street typed without its suffix ("100 Oak"): the streets of that name in the ZIP, by the same directional rules. */
  findWithoutSuffix(zip5: string, typed: KeyParts, body: string = looseBody(typed.body)): StreetFind {
    const zip = this.#zips.get(zip5);
    if (zip === undefined || typed.body.length === 0) return NONE;
    return pick(typed, filedAll(zip.byName.get(body), typed.body.length + 1));
  }

  /** The ZIP's city names, as words. */
  cities(zip5: string): readonly string[][] {
    return this.#zips.get(zip5)?.cities ?? [];
  }

  /** The longest city name ending `words`: its word count and the ZIPs the file names it in; null when none. */
  cityAtEnd(words: readonly string[]): { length: number; zips: string[] } | null {
    for (let n = Math.min(this.#longestCity, words.length); n >= 1; n--) {
      const zips = this.#cityZips.get(words.slice(words.length - n).join(" "));
      if (zips !== undefined) return { length: n, zips: [...zips].sort() };
    }
    return null;
  }

  get zipCount(): number {
    return this.#zips.size;
  }
}
