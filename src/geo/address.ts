/**
 * Parses a one-line US street address into the parts the Census Geocoder's `address` endpoint
 * takes, and normalises it into a cache key, so "100 North High Street, Columbus, Ohio 43215"
 * and "100 N High St Columbus OH 43215-1234" are geocoded once. Pure; the ladder (lookup/ladder.ts)
 * calls it on the answering thread for a single lookup and in a batch thread for a batch.
 */

export interface ParsedAddress {
  /** The address as sent to the geocoder: trimmed, single-spaced, ZIP+4 cut to five digits. */
  oneLine: string;
  /** Normalised form: upper case, USPS abbreviations, no punctuation. Equal keys geocode alike. */
  key: string;
  street: string | null;
  city: string | null;
  state: string | null;
  /** The five-digit ZIP at the end of the address, if any: the fallback when geocoding fails. */
  zip: string | null;
}

/** USPS Publication 28 abbreviations for the words that vary most in typed addresses. */
const ABBREVIATIONS: Record<string, string> = {
  NORTH: "N", SOUTH: "S", EAST: "E", WEST: "W", NORTHEAST: "NE", NORTHWEST: "NW", SOUTHEAST: "SE", SOUTHWEST: "SW",
  STREET: "ST", AVENUE: "AVE", AV: "AVE", ROAD: "RD", DRIVE: "DR", BOULEVARD: "BLVD", LANE: "LN", COURT: "CT",
  PLACE: "PL", PARKWAY: "PKWY", HIGHWAY: "HWY", CIRCLE: "CIR", TERRACE: "TER", SQUARE: "SQ", TRAIL: "TRL",
  PIKE: "PIKE", WAY: "WAY", APARTMENT: "APT", SUITE: "STE", OHIO: "OH",
};

const ZIP_AT_END = /[\s,]+(\d{5})(?:-?\d{4})?\s*$/;
const STATE_AT_END = /[\s,]+(OH|OHIO|[A-Z]{2})\s*$/i;

function words(text: string): string {
  return text
    .toUpperCase()
    .replace(/[.,;:'"`()]/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => ABBREVIATIONS[word] ?? word)
    .join(" ");
}

function clean(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\s*,\s*/g, ", ").replace(/^[\s,]+|[\s,]+$/g, "");
}

/**
 * "100 N High St, Columbus, OH 43215" → street "100 N High St", city "Columbus", state "OH",
 * zip "43215". Without commas the street and city cannot be told apart, so only ZIP and state
 * are split off and the geocoder gets the one-line form.
 */
export function parseAddress(input: string): ParsedAddress {
  let rest = clean(input);
  let zip: string | null = null;
  const zipMatch = ZIP_AT_END.exec(` ${rest}`);
  if (zipMatch) {
    zip = zipMatch[1] ?? null;
    rest = clean(` ${rest}`.slice(0, zipMatch.index));
  }
  let state: string | null = null;
  const stateMatch = STATE_AT_END.exec(` ${rest}`);
  if (stateMatch && rest.includes(",")) {
    state = (stateMatch[1] ?? "").toUpperCase() === "OHIO" ? "OH" : (stateMatch[1] ?? "").toUpperCase();
    rest = clean(` ${rest}`.slice(0, stateMatch.index));
  }
  const parts = rest.split(",").map((part) => part.trim()).filter(Boolean);
  const street = parts.length >= 2 ? parts.slice(0, -1).join(", ") : null;
  const city = parts.length >= 2 ? (parts.at(-1) ?? null) : null;
  const oneLine = [rest, state, zip].filter(Boolean).join(rest.includes(",") ? ", " : " ");
  const key = [words(street ?? rest), words(city ?? ""), state ?? "", zip ?? ""].join("|");
  return { oneLine, key, street, city, state, zip };
}
