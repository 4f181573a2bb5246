/**
 * One lookup, whether it comes from GET /rates's query string, an item of POST /rates/batch or a
 * row of a batch file: the same field schemas, the same rules, the same messages. Query values
 * and CSV cells arrive as text, JSON values as text or numbers; a blank value is an absent one.
 *
 * Decimal degrees: at most 15 decimal places, written as text or as a JSON number (read by its
 * shortest decimal form, as JavaScript prints it). 15 places is far below a millimetre, and the
 * shortest form of any double in Ohio's range of coordinates fits, so a client that serialises
 * a double as it is never gets refused; more places is a mistake worth reporting.
 */
import { z } from "zod";
import { dateProblem, type IsoDate } from "../rates/calendar.ts";
import { ADDRESS_COLUMNS, foldAddressColumns } from "./address-columns.ts";
import { unreadAddressColumns } from "./export-headers.ts";
import { FINDER_ROW, finderInvoice, readFinderRow } from "./finder-layout.ts";
import { failure, type ItemFailure } from "./item-result.ts";

export interface LookupItem {
  id: string | null;
  county?: string;
  /** The five-digit ZIP. */
  zip?: string;
  /** The +4 of a ZIP+4 sent as `43081-1234` or `430811234`. */
  zip4?: string;
  address?: string;
  lat?: number;
  lon?: number;
  date: IsoDate;
}

export const ITEM_FIELDS = ["id", "county", "zip", "address", "lat", "lon", "date"] as const;
export type ItemField = (typeof ITEM_FIELDS)[number];

/** Every field a batch row or item may carry: the lookup's own, and the address columns of exports (address-columns.ts). */
export const LOOKUP_COLUMNS: readonly string[] = [...ITEM_FIELDS, ...ADDRESS_COLUMNS];

/** Control characters other than the tab, which a spreadsheet puts between the cells of a pasted row. */
export const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const DEGREES = /^[+-]?\d{1,3}(\.\d{1,15})?$/;

/** A JSON or CSV value as text: numbers as JavaScript prints them, blanks as absent; anything else the schema refuses. */
function asText(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : value;
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

const text = (max: number) =>
  z
    .string({ error: "must be text" })
    .refine((value) => !CONTROL.test(value), "must not contain control characters")
    // A tab is read as a space: "123 Main St<TAB>Columbus<TAB>OH<TAB>43215" pasted from a spreadsheet.
    .overwrite((value) => value.replaceAll("\t", " "))
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .optional();

const degrees = (name: "lat" | "lon", limit: number) =>
  z
    .string({ error: "must be decimal degrees" })
    .regex(DEGREES, `must be decimal degrees with at most 15 decimal places, e.g. ${name === "lat" ? "39.9612" : "-82.9988"}`)
    .refine((value) => Math.abs(Number(value)) <= limit, `must be between -${limit} and ${limit}`)
    .optional();

/**
 * Each field as text: GET /rates reads its query parameters with these (and the OpenAPI document
 * shows them); JSON items and CSV rows go through the same schemas after `asText`.
 */
export const FIELD_TEXT_SCHEMAS = {
  county: text(64),
  zip: z
    .string({ error: "must be a ZIP code" })
    .regex(/^\d{5}(-?\d{4})?$/, "must be a 5-digit ZIP code or a ZIP+4 (43081-1234 or 430811234)")
    .optional(),
  address: text(300),
  lat: degrees("lat", 90),
  lon: degrees("lon", 180),
  date: z
    .string({ error: "must be a date" })
    .check((ctx) => {
      const why = dateProblem(ctx.value);
      if (why !== null) ctx.issues.push({ code: "custom", message: why, input: ctx.value });
    })
    .optional(),
} satisfies Record<Exclude<ItemField, "id">, z.ZodType<string | undefined>>;

const ITEM_SCHEMAS: Record<ItemField, z.ZodType<string | undefined>> = {
  id: text(100),
  ...FIELD_TEXT_SCHEMAS,
};

type Fields = Partial<Record<ItemField, string | undefined>>;

function bad(param: string, reason: string): ItemFailure {
  return { ...failure("bad-request", `Invalid ${param}: ${reason}.`, param), reason };
}

/**
 * The rules between fields, once each is valid text: lat and lon together, and something to look up.
 * `ignored` names the fields the row carried that Buckeye does not read: a row left with nothing to
 * look up says which, so a misspelt `adress` is named where it cost the row its answer.
 */
export function combineFields(fields: Fields, today: IsoDate, ignored: readonly string[] = []): LookupItem | ItemFailure {
  const { id, county, zip, address, lat, lon, date } = fields;
  if ((lat === undefined) !== (lon === undefined)) return bad(lat === undefined ? "lat" : "lon", "lat and lon must be sent together");
  if (county === undefined && zip === undefined && address === undefined && lat === undefined) {
    const named = ignored.length === 0 ? "" : ` This row's ${ignored.join(", ")} ${ignored.length > 1 ? "are" : "is"} not read (the columns Buckeye reads: ${LOOKUP_COLUMNS.join(", ")}).`;
    return failure("bad-request", `Send one of county, zip, address, or lat with lon.${named}`, "county");
  }
  return {
    id: id ?? null,
    date: date ?? today,
    ...(county !== undefined && { county }),
    ...(zip !== undefined && { zip: zip.slice(0, 5) }),
    ...(zip !== undefined && zip.length > 5 && { zip4: zip.slice(-4) }),
    ...(address !== undefined && { address }),
    ...(lat !== undefined && lon !== undefined && { lat: Number(lat), lon: Number(lon) }),
  };
}

/**
 * How a lookup is resolved, the one precedence rule (docs/guides/address-resolution.md): an address wins (its ZIP is kept
 * for the fallback), then coordinates, then a county over a ZIP. A ZIP+4 without a county asks
 * the state's boundary file for its ZIP+4 range; with a county, the county decides.
 */
export type Strategy = "address" | "coordinates" | "zip4" | "county-or-zip";

export function strategyOf(item: LookupItem): Strategy {
  if (item.address !== undefined) return "address";
  if (item.lat !== undefined) return "coordinates";
  if (item.zip4 !== undefined && item.county === undefined) return "zip4";
  return "county-or-zip";
}

/** Only an address, or a ZIP+4 alone, asks the state's boundary file. */
export function asksBoundaryFile(item: LookupItem): boolean {
  const strategy = strategyOf(item);
  return strategy === "address" || strategy === "zip4";
}

/**
 * The fields of a row Buckeye does not read (a customer export's `name`, `phone`, a misspelt `adress`):
 * they are ignored, not refused, and listed where the caller sees them (docs/guides/address-resolution.md,
 * "Columns Buckeye does not read").
 */
export function ignoredFields(raw: Record<string, unknown>): string[] {
  return Object.keys(raw).filter((key) => !LOOKUP_COLUMNS.includes(key) && key !== FINDER_ROW);
}

/** Returns the validated lookup, or the 400 problem for its first bad field. */
export function readLookupItem(raw: unknown, today: IsoDate): LookupItem | ItemFailure {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return failure("bad-request", "Each lookup must be a JSON object.", null);
  if (FINDER_ROW in raw) return readFinderRow((raw as Record<string, unknown>)[FINDER_ROW], today, readLookupItem);
  const folded = foldAddressColumns(raw as Record<string, unknown>);
  if (!folded.ok) return folded.failure;
  const given = folded.fields;
  const fields: Fields = {};
  for (const name of ITEM_FIELDS) {
    const result = ITEM_SCHEMAS[name].safeParse(asText(given[name]));
    if (!result.success) return bad(name, result.error.issues[0]?.message ?? "invalid");
    fields[name] = result.data;
  }
  return combineFields(fields, today, ignoredFields(raw as Record<string, unknown>));
}

/** The id of a row that failed validation, when it has a usable one, so the caller can still match it. */
export function rawId(raw: unknown): string | null {
  const id = typeof raw === "object" && raw !== null ? (FINDER_ROW in raw ? finderInvoice((raw as Record<string, unknown>)[FINDER_ROW]) : (raw as Record<string, unknown>)["id"]) : undefined;
  return typeof id === "string" && id.length <= 100 && !CONTROL.test(id) ? id : typeof id === "number" ? String(id) : null;
}

/**
 * Raw lookups (JSON items, batch rows, or a stored chunk as its JSON text), validated; with their ids,
 * and the address-like columns a row carried that were not read (export-headers.ts), when it has some.
 */
export function readLookups(raws: readonly unknown[] | string, today: IsoDate): Array<{ id: string | null; item: LookupItem | ItemFailure; unread?: string[] }> {
  const list = typeof raws === "string" ? (JSON.parse(raws) as unknown[]) : raws;
  return list.map((raw) => {
    const item = readLookupItem(raw, today);
    const unread = unreadAddressColumns(raw);
    return { id: "kind" in item ? rawId(raw) : item.id, item, ...(unread && { unread }) };
  });
}
