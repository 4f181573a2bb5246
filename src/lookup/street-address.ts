/**
 * Splits a one-line address into its parts (house number, directionals, street name, suffix, unit,
 * city, state, ZIP and +4) without knowing which streets exist: the street line, city, state and ZIP
 * of the row sent to the Census batch geocoder for an address the boundary file did not settle
 * (ladder.ts). The boundary file itself is asked through address-match.ts, which reads a line
 * against the streets the file holds; bench/address-corpus.ts keeps this split's match rate as the
 * "before" figure. Pure.
 *
 * The written form back offices send, "1234 N High St Apt 4, Columbus, OH 43215[-1234]", is split
 * here in a few microseconds; anything else (no commas, where street and city meet; informal
 * forms) goes to parse-address (npm: a port of Geo::StreetAddress::US, with the USPS suffix,
 * directional and unit tables), which costs 100–200 µs an address: too slow for a 100,000-row
 * job on one thread, right for the odd line.
 */
import parser, { type ParsedLocation } from "parse-address";
import type { StreetAddress } from "../boundaries/boundary-index.interface.ts";
import { parseUnit, standardDirectional, standardSuffix } from "../boundaries/pub28.ts";

export interface AddressParts {
  /** null when no house number and street could be told apart: such an address is not probed. */
  street: StreetAddress | null;
  /** "100 N High St Apt 4": the street line, for the Census batch geocoder. */
  streetLine: string | null;
  city: string | null;
  state: string | null;
  zip5: string | null;
  zip4: string | null;
}

/** "1234A Oak Ave": parse-address reads the letter as part of the street name, so it is set aside first. */
const LETTERED_NUMBER = /^\s*(\d+)([A-Za-z])(?=\s)/;

/** "123 1/2 Main St": parse-address reads the fraction as the street name, so it is set aside first. */
const FRACTION_NUMBER = /^\s*(\d+)\s+([1-3]\/[2-4])(?=\s)/;

/** A house number: "1234", "1234A", "12-34", "123 1/2". */
const HOUSE = String.raw`\d+[A-Za-z]?(?:-\d+)?(?:\s+[1-3]\/[2-4])?`;

/** "1234A N High St Apt 4, Columbus, OH 43215-1234": house, street (and unit), city, state, ZIP, +4. */
const WRITTEN = new RegExp(String.raw`^\s*(${HOUSE})\s+([^,]+?)\s*,\s*([^,]+?)\s*,\s*([A-Za-z]{2}|Ohio)\.?\s+(\d{5})(?:-?(\d{4}))?\s*$`, "i");

/** "1234 N High St, OH 43215" or "1234 N High St, 43215": no city, which the ZIP makes unneeded. */
const WRITTEN_WITHOUT_CITY = new RegExp(String.raw`^\s*(${HOUSE})\s+([^,]+?)\s*,\s*(?:(OH|Ohio)\.?,?\s+)?(\d{5})(?:-?(\d{4}))?\s*$`, "i");

/** A post office box is no street: it never matches an address range (the ZIP still answers further down the ladder). */
const PO_BOX = /^\s*(?:P\.?\s*O\.?\s*|POST\s+OFFICE\s+)?BOX\b/i;

/** A unit's identifier: has a digit ("4", "12B") or is one letter ("B"); "Rd" after "Lot" is a street, not a unit. */
const UNIT_ID = /^(?=.*\d)[0-9A-Z-]{1,8}$|^[A-Z]$/i;

/** The word where a unit begins ("Apt 4", "Suite 200", "# 4", "#4"), after at least one street word; -1 without one. */
function unitStart(words: readonly string[]): number {
  for (let i = 1; i < words.length - 1; i++) {
    const unit = parseUnit(words[i]);
    if (unit?.designator && unit.number === "" && i === words.length - 2 && UNIT_ID.test(words[i + 1]!)) return i;
  }
  const last = words.length - 1;
  return last >= 1 && words[last]!.startsWith("#") ? last : -1;
}

function writtenParts(houseNumber: string, streetAndUnit: string, city: string | null, state: string | undefined, zip5: string, zip4: string | undefined): AddressParts {
  const words = streetAndUnit.split(/\s+/);
  const at = unitStart(words);
  const streetName = (at === -1 ? words : words.slice(0, at)).join(" ");
  const unit = at === -1 ? "" : words.slice(at).join(" ");
  return {
    street: { houseNumber, streetName, ...(unit !== "" && { unit }) },
    streetLine: `${houseNumber} ${streetAndUnit}`,
    city,
    state: state === undefined ? null : state.length === 2 ? state.toUpperCase() : "OH",
    zip5,
    zip4: zip4 ?? null,
  };
}

export function addressParts(given: string): AddressParts {
  // "123½": the one fraction with a character of its own, written as the others are.
  const address = given.replace(/(\d)\s*½/, "$1 1/2");
  if (PO_BOX.test(address)) return { ...parsedParts(address), street: null };
  const written = WRITTEN.exec(address);
  if (written) {
    const [, house, street, city, state, zip5, zip4] = written as unknown as [string, string, string, string, string, string, string | undefined];
    return writtenParts(house, street, city, state, zip5, zip4);
  }
  const withoutCity = WRITTEN_WITHOUT_CITY.exec(address);
  if (withoutCity) {
    const [, house, street, state, zip5, zip4] = withoutCity as unknown as [string, string, string, string | undefined, string, string | undefined];
    return writtenParts(house, street, null, state, zip5, zip4);
  }
  return parsedParts(address);
}

/**
 * With no city and no commas, parse-address misreads the end of the street: "107 Main St OH 43081"
 * gives the suffix as the city, "107 State Route 37 OH 43081" keeps the state in the street. Put
 * them back. A one-word city that is also a suffix ("Union") stays a city after a highway's number.
 */
function repairNoCity(parsed: ParsedLocation): void {
  if (!parsed.type && parsed.city !== undefined && !/\s/.test(parsed.city.trim()) && standardSuffix(parsed.city) !== null && !/\d$/.test(parsed.street ?? "")) {
    parsed.type = parsed.city;
    delete parsed.city;
  }
  const state = parsed.state === undefined && parsed.street !== undefined ? /^(.*\d[A-Z]?)\s+(OH|OHIO)$/i.exec(parsed.street) : null;
  if (state) {
    parsed.street = state[1]!;
    parsed.state = "OH";
  }
}

/**
 * parse-address, with its misreadings put right. "101 E River Ave Knox OH" comes back as street "E",
 * suffix "Riv", city "Ave Knox" (a name that is also a suffix: River, Lake, Park, Spring, Hill): read
 * again without the directional, which is then put back in front.
 */
function parseWithDirectional(text: string): ParsedLocation | null {
  const parsed = parser.parseLocation(text);
  if (parsed?.street && parsed.type && !parsed.prefix && standardDirectional(parsed.street) !== null) {
    const at = new RegExp(String.raw`^(\s*\d+\s+)${parsed.street}\s+`, "i");
    const again = at.test(text) ? parser.parseLocation(text.replace(at, "$1")) : null;
    if (again?.street && again.number === parsed.number && standardDirectional(again.street) === null) {
      again.prefix = parsed.street;
      repairNoCity(again);
      return again;
    }
  }
  if (parsed !== null) repairNoCity(parsed);
  return parsed;
}

function parsedParts(address: string): AddressParts {
  const fraction = FRACTION_NUMBER.exec(address);
  const whole = fraction ? address.replace(FRACTION_NUMBER, "$1") : address;
  const lettered = LETTERED_NUMBER.exec(whole);
  const parsed = parseWithDirectional(lettered ? whole.replace(LETTERED_NUMBER, "$1") : whole);
  const zip5 = parsed?.zip && /^\d{5}$/.test(parsed.zip) ? parsed.zip : null;
  const zip4 = zip5 !== null && parsed?.plus4 && /^\d{4}$/.test(parsed.plus4) ? parsed.plus4 : null;
  const city = parsed?.city ?? null;
  const state = parsed?.state ?? null;
  if (!parsed?.number || !parsed.street) return { street: null, streetLine: null, city, state, zip5, zip4 };
  const houseNumber = lettered ? `${parsed.number}${lettered[2]!.toUpperCase()}` : fraction ? `${parsed.number} ${fraction[2]}` : parsed.number;
  const unit = [parsed.sec_unit_type, parsed.sec_unit_num].filter(Boolean).join(" ");
  const street: StreetAddress = {
    houseNumber,
    streetName: parsed.street,
    ...(parsed.prefix && { preDirectional: parsed.prefix }),
    ...(parsed.type && { suffix: parsed.type }),
    ...(parsed.suffix && { postDirectional: parsed.suffix }),
    ...(unit !== "" && { unit }),
  };
  const streetLine = [houseNumber, parsed.prefix, parsed.street, parsed.type, parsed.suffix, unit].filter(Boolean).join(" ");
  return { street, streetLine, city, state, zip5, zip4 };
}
