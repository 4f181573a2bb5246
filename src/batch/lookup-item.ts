/**
 * One lookup of a batch (or the single GET /rates, which is a batch of one): validated field by
 * field with the rules of the query parameters, so a bad row becomes that row's 400 problem and
 * never fails its neighbours. CSV cells arrive as strings, JSON values as strings or numbers.
 */
import { isIsoDate, type IsoDate } from "../rates/calendar.ts";
import { failure, type ItemFailure } from "./item-result.ts";

export interface LookupItem {
  id: string | null;
  county?: string;
  zip?: string;
  address?: string;
  lat?: number;
  lon?: number;
  date: IsoDate;
}

export const ITEM_FIELDS = ["id", "county", "zip", "address", "lat", "lon", "date"] as const;

const CONTROL = /[\u0000-\u001f\u007f]/;
const DEGREES = /^[+-]?\d{1,3}(\.\d{1,15})?$/;

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return "\u0000not text";
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** A JSON number as it is; text in decimal degrees; NaN for anything else or out of range; undefined when absent. */
function degrees(value: unknown, limit: number): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && Math.abs(value) <= limit ? value : Number.NaN;
  const written = text(value);
  if (written === undefined) return undefined;
  return DEGREES.test(written) && Math.abs(Number(written)) <= limit ? Number(written) : Number.NaN;
}

function bad(param: string, reason: string): ItemFailure {
  return failure("bad-request", `Invalid ${param}: ${reason}.`, param);
}

/** Returns the validated lookup, or the 400 problem for its first bad field. */
export function readLookupItem(raw: unknown, today: IsoDate): LookupItem | ItemFailure {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return failure("bad-request", "Each lookup must be a JSON object.", null);
  const fields = raw as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !(ITEM_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) return bad(unknown[0]!, `unknown field; allowed: ${ITEM_FIELDS.join(", ")}`);

  const id = text(fields["id"]);
  if (id !== undefined && (id.length > 100 || CONTROL.test(id))) return bad("id", "must be at most 100 printable characters");
  const item: LookupItem = { id: id ?? null, date: today };

  for (const [name, max] of [["county", 64], ["address", 300]] as const) {
    const value = text(fields[name]);
    if (value === undefined) continue;
    if (CONTROL.test(value)) return bad(name, "must be text without control characters");
    if (value.length > max) return bad(name, `must be at most ${max} characters`);
    item[name] = value;
  }
  const zip = text(fields["zip"]);
  if (zip !== undefined) {
    if (!/^\d{5}$/.test(zip)) return bad("zip", "must be a 5-digit ZIP code (ZIP+4 is not accepted)");
    item.zip = zip;
  }
  const date = text(fields["date"]);
  if (date !== undefined) {
    if (!isIsoDate(date)) return bad("date", "must be a calendar date written YYYY-MM-DD");
    item.date = date;
  }
  const lat = degrees(fields["lat"], 90);
  const lon = degrees(fields["lon"], 180);
  if ((lat === undefined) !== (lon === undefined)) return bad(lat === undefined ? "lat" : "lon", "lat and lon must be sent together");
  if (lat !== undefined && lon !== undefined) {
    if (Number.isNaN(lat)) return bad("lat", "must be decimal degrees between -90 and 90");
    if (Number.isNaN(lon)) return bad("lon", "must be decimal degrees between -180 and 180");
    item.lat = lat;
    item.lon = lon;
  }
  if (item.county === undefined && item.zip === undefined && item.address === undefined && item.lat === undefined) {
    return failure("bad-request", "Send one of county, zip, address, or lat with lon.", "county");
  }
  return item;
}
