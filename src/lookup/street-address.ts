/**
 * Splits a one-line address into the parts the boundary file is keyed by (house number,
 * directionals, street name, suffix, unit, ZIP and +4), with parse-address (npm: a port of
 * Geo::StreetAddress::US, with the USPS suffix, directional and unit tables). It also splits lines
 * written without commas ("100 N High St Columbus OH 43215"), where street and city meet.
 * Standardising the parts per USPS Pub 28 is the index's job (src/boundaries/pub28.ts). Pure.
 */
import parser from "parse-address";
import type { StreetAddress } from "../boundaries/probe.ts";

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

export function addressParts(address: string): AddressParts {
  const lettered = LETTERED_NUMBER.exec(address);
  const parsed = parser.parseLocation(lettered ? address.replace(LETTERED_NUMBER, "$1") : address);
  const zip5 = parsed?.zip && /^\d{5}$/.test(parsed.zip) ? parsed.zip : null;
  const zip4 = zip5 !== null && parsed?.plus4 && /^\d{4}$/.test(parsed.plus4) ? parsed.plus4 : null;
  const city = parsed?.city ?? null;
  const state = parsed?.state ?? null;
  if (!parsed?.number || !parsed.street) return { street: null, streetLine: null, city, state, zip5, zip4 };
  const houseNumber = lettered ? `${parsed.number}${lettered[2]!.toUpperCase()}` : parsed.number;
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
