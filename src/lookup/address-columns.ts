/**
 * Address columns as customer exports carry them (`street, city, state, zip`; `address1, address2,
 * postal_code`; …), folded into the one `address` line and `zip` a lookup reads, for CSV uploads,
 * NDJSON, inline batches and `buckeye batch` alike (they all go through readLookupItem). The names
 * and the precedence are documented in docs/guides/address-resolution.md ("Address columns"):
 *
 * - the street line: `address`, `street` or `address1` (one of them; two with values are a 400 for
 *   the row, never a guess);
 * - the unit: `address2`, `street2`, `unit` or `suite` (one of them), after the street line;
 * - `city`, `state`;
 * - the ZIP: `zip` or `postal_code` (both only when they agree); its +4 apart in `zip4` or `plus4`.
 *
 * Without any split column (`street`/`address1`, a unit, `city`, `state`, `postal_code`, a +4
 * column) nothing changes: `address` is the whole line, as always. With one, the line is written
 * from the columns, "street unit, city, state ZIP", and `address` is read as its street line. Pure.
 */
import { failure, type ItemFailure } from "./item-result.ts";

const STREET = ["address", "street", "address1"] as const;
const UNIT = ["address2", "street2", "unit", "suite"] as const;
const ZIP = ["zip", "postal_code"] as const;
const PLUS4 = ["zip4", "plus4"] as const;

/** The export columns read beside the lookup's own fields. */
export const ADDRESS_COLUMNS = ["street", "address1", ...UNIT, "city", "state", "postal_code", ...PLUS4] as const;

/** A header cell as a column name: any case, spaces or hyphens as underscores ("Postal Code" → postal_code), a digit joined ("Address 1", "ZIP-4" → address1, zip4). */
export function columnName(header: string): string {
  return header.trim().toLowerCase().replace(/[\s-]+/g, "_").replace(/^(address|street|zip|plus)_(\d)$/, "$1$2");
}

const valueOf = (value: unknown): string | undefined => {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return value === null || value === undefined ? undefined : String(value);
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
};

function bad(param: string, reason: string): Folded {
  return { ok: false, failure: { ...failure("bad-request", `Invalid ${param}: ${reason}.`, param), reason } };
}

export type Folded = { ok: true; fields: Record<string, unknown> } | { ok: false; failure: ItemFailure };

const WHAT = new Map<readonly string[], string>([[STREET, "street line"], [UNIT, "unit"], [ZIP, "ZIP"], [PLUS4, "+4"]]);

/** The one value of columns that name the same thing, or the problem when two carry different values. */
function oneOf(given: Record<string, unknown>, names: readonly string[], sameIf: (a: string, b: string) => boolean = (a, b) => a === b): { value: string | undefined } | Folded {
  const sent = names.flatMap((name) => {
    const value = valueOf(given[name]);
    return value === undefined ? [] : [{ name, value }];
  });
  if (sent.length > 1 && !sent.every((s) => sameIf(s.value, sent[0]!.value))) {
    return bad(sent[1]!.name, `${sent.map((s) => s.name).join(" and ")} both name the ${WHAT.get(names)}; send one`);
  }
  return { value: sent[0]?.value };
}

/** The lookup's own fields, with any export columns folded into `address` and `zip`; or the row's problem. */
export function foldAddressColumns(given: Record<string, unknown>): Folded {
  if (!ADDRESS_COLUMNS.some((name) => name in given)) return { ok: true, fields: given };
  const rest = Object.fromEntries(Object.entries(given).filter(([name]) => !(ADDRESS_COLUMNS as readonly string[]).includes(name)));
  if (!ADDRESS_COLUMNS.some((name) => valueOf(given[name]) !== undefined)) return { ok: true, fields: rest };
  const read = [oneOf(given, STREET), oneOf(given, UNIT), oneOf(given, ZIP, (a, b) => a.slice(0, 5) === b.slice(0, 5)), oneOf(given, PLUS4)];
  for (const one of read) if ("ok" in one) return one;
  const [street, unit, zip, plus4] = read.map((one) => (one as { value: string | undefined }).value);
  const [city, state] = [valueOf(given["city"]), valueOf(given["state"])];
  const plus4Column = valueOf(given["zip4"]) !== undefined ? "zip4" : "plus4";
  let fullZip = zip;
  if (plus4 !== undefined) {
    if (fullZip === undefined) return bad(plus4Column, "a +4 needs its ZIP in zip or postal_code");
    if (!/^\d{4}$/.test(plus4)) return bad(plus4Column, "must be the 4 digits of a ZIP+4");
    if (/^\d{5}$/.test(fullZip)) fullZip = `${fullZip}-${plus4}`;
    else if (fullZip.replace("-", "").slice(5) !== plus4) return bad(plus4Column, `the ZIP ${fullZip} carries another +4`);
  }
  const parts = [[street, unit].filter(Boolean).join(" "), city, [state, fullZip].filter(Boolean).join(" ")];
  const line = parts.filter((part) => part !== undefined && part !== "").join(", ");
  return { ok: true, fields: { ...rest, ...(street !== undefined && { address: line }), ...(fullZip !== undefined && { zip: fullZip }) } };
}
