/**
 * A CSV header as shop platforms write it, read as the lookup's columns (address-columns.ts): each
 * header cell becomes the name its values are stored under, or is left out. Pure.
 *
 * A cell is matched by its letters and digits alone, in any case ("Shipping Address1", "Shipping
 * Address 1", "shipping_address_1" and "ShippingAddress1" are one name), against, in this order:
 *
 * 1. the client's own mapping (`?columns=street=Addr 1,zip=Zip` or `buckeye batch --columns`);
 * 2. Buckeye's own names (`address`, `street`, `address1`, `zip`, …: read as before);
 * 3. the names platforms export under (EXPORT_HEADERS below, each with the platform it comes from;
 *    docs/guides/address-resolution.md lists them). Where an export carries a shipping and a billing
 *    address, the shipping address is read (where the buyer receives the goods, which is where Ohio
 *    sources a delivered sale) unless the client asks for billing; the other side's columns are left
 *    out. Where a platform writes one part twice (Shopify's `Shipping Street` beside `Shipping
 *    Address1`), the first form listed is read and the others left out.
 *
 * Every other cell is kept under its column name (unread, listed in the job's ignored_columns), so a
 * row still says which of its values were not read (`unreadAddressColumns`).
 */

/** What a column is read as: the lookup's own fields and the address columns it folds. */
export const COLUMN_TARGETS = ["id", "address", "street", "address2", "city", "state", "zip", "zip4", "county", "lat", "lon", "date"] as const;
export type ColumnTarget = (typeof COLUMN_TARGETS)[number];
export type AddressSide = "shipping" | "billing";

/** Buckeye's own names, grouped by what they name: one group is one part of the lookup. */
const GROUPS: Record<ColumnTarget, readonly string[]> = {
  id: ["id"],
  address: ["address", "street", "address1"],
  street: ["address", "street", "address1"],
  address2: ["address2", "street2", "unit", "suite"],
  city: ["city"],
  state: ["state"],
  zip: ["zip", "postal_code"],
  zip4: ["zip4", "plus4"],
  county: ["county"],
  lat: ["lat"],
  lon: ["lon"],
  date: ["date"],
};
const OWN_NAMES = new Set(Object.values(GROUPS).flat());
const groupOf = (name: string): string => Object.values(GROUPS).find((names) => names.includes(name))![0]!;

/** The parts of an address; coordinates need none of them. */
const ADDRESS_PARTS = new Set([...GROUPS.street, ...GROUPS.address2, "city", "state", ...GROUPS.zip, ...GROUPS.zip4]);

interface ExportHeader {
  target: ColumnTarget;
  side?: AddressSide;
  /** Where the name comes from (docs/guides/address-resolution.md, "Exports as platforms write them"). */
  from: string;
}

const SHOPIFY = "Shopify orders export";
const WOO = "WooCommerce order export";
const BIGCOMMERCE = "BigCommerce orders export";
const MAGENTO = "Magento (Adobe Commerce) orders grid export";
const SQUARE = "Square customer and online order exports";
const AMAZON = "Amazon Seller Central order reports";
const QUICKBOOKS = "QuickBooks Online exports and fields";
const SALESFORCE = "Salesforce Account, Order and Contact fields";
const COMMON = "common spellings (CamelCase, spaced)";

/** Both sides of one platform's address columns: `[header, target]` with `{side}` standing for "Shipping"/"Billing" (or the prefix given). */
function sides(from: string, prefixes: Record<AddressSide, string>, parts: ReadonlyArray<[string, ColumnTarget]>): Array<[string, ExportHeader]> {
  return (["shipping", "billing"] as const).flatMap((side) => parts.map(([header, target]): [string, ExportHeader] => [header.replace("{side}", prefixes[side]), { target, side, from }]));
}

const SHIPPING_BILLING = { shipping: "Shipping", billing: "Billing" };

/**
 * Header names as platforms write them, in order of preference: where two name one part of one side,
 * the first one present is read. As known from each platform's public documentation of its export or
 * fields; they were not checked against a live shop's file here.
 */
const EXPORT_HEADER_LIST: Array<[string, ExportHeader]> = [
  ...sides(SHOPIFY, SHIPPING_BILLING, [["{side} Address1", "street"], ["{side} Address2", "address2"], ["{side} City", "city"], ["{side} Zip", "zip"], ["{side} Province", "state"]]),
  ...sides(WOO, SHIPPING_BILLING, [["{side} Postcode", "zip"], ["{side} State", "state"]]),
  ...sides(BIGCOMMERCE, SHIPPING_BILLING, [["{side} Street 1", "street"], ["{side} Street 2", "address2"], ["{side} Suburb", "city"], ["{side} State Abbreviation", "state"]]),
  ...sides(SALESFORCE, SHIPPING_BILLING, [["{side}PostalCode", "zip"]]),
  ...sides(AMAZON, { shipping: "ship", billing: "bill" }, [["{side}-address-1", "street"], ["{side}-address-2", "address2"], ["{side}-city", "city"], ["{side}-state", "state"], ["{side}-postal-code", "zip"]]),
  ...sides(QUICKBOOKS, { shipping: "ShipAddr", billing: "BillAddr" }, [["{side}Line1", "street"], ["{side}Line2", "address2"], ["{side}City", "city"], ["{side}CountrySubDivisionCode", "state"], ["{side}PostalCode", "zip"]]),
  ...sides(QUICKBOOKS, SHIPPING_BILLING, [["{side} ZIP Code", "zip"]]),
  // Written after the forms above: Shopify's Street repeats Address1 and Address2; Salesforce's and QuickBooks' is the whole street.
  ...sides(`${SHOPIFY}; ${SALESFORCE}; ${QUICKBOOKS}`, SHIPPING_BILLING, [["{side} Street", "street"], ["{side} Province Name", "state"]]),
  // Magento's grid and QuickBooks' customer list write each side as one line: "street, city, region, postcode".
  ...sides(`${MAGENTO}; ${QUICKBOOKS}`, SHIPPING_BILLING, [["{side} Address", "address"]]),
  ["Recipient Address", { target: "street", side: "shipping", from: SQUARE }],
  ["Recipient Address 2", { target: "address2", side: "shipping", from: SQUARE }],
  ["Recipient City", { target: "city", side: "shipping", from: SQUARE }],
  ["Recipient Region", { target: "state", side: "shipping", from: SQUARE }],
  ["Recipient Postal Code", { target: "zip", side: "shipping", from: SQUARE }],
  ["Mailing Street", { target: "street", from: SALESFORCE }],
  ["Mailing City", { target: "city", from: SALESFORCE }],
  ["Mailing State", { target: "state", from: SALESFORCE }],
  ["Mailing Postal Code", { target: "zip", from: SALESFORCE }],
  ["Order Number", { target: "id", from: WOO }],
  ["Order ID", { target: "id", from: `${BIGCOMMERCE}; ${WOO}; ${AMAZON} (order-id)` }],
  ["amazon-order-id", { target: "id", from: AMAZON }],
  ["Street Address 1", { target: "street", from: `${SQUARE}; ${COMMON}` }],
  ["Street Address 2", { target: "address2", from: `${SQUARE}; ${COMMON}` }],
  ["Street Address", { target: "street", from: COMMON }],
  ["Address Line 1", { target: "street", from: `${COMMON}; AdventureWorks' AddressLine1` }],
  ["Address Line 2", { target: "address2", from: `${COMMON}; AdventureWorks' AddressLine2` }],
  ["Addr1", { target: "street", from: COMMON }],
  ["Addr2", { target: "address2", from: COMMON }],
  ["Apt", { target: "address2", from: COMMON }],
  ["Apartment", { target: "address2", from: COMMON }],
  ["Apt/Suite", { target: "address2", from: COMMON }],
  ["Postal Code", { target: "zip", from: `${COMMON}; AdventureWorks' PostalCode; ${SQUARE}` }],
  ["ZIP Code", { target: "zip", from: COMMON }],
  ["ZIP/Postal Code", { target: "zip", from: COMMON }],
  ["Postcode", { target: "zip", from: `${COMMON}; Magento's address export` }],
  ["ZIP+4", { target: "zip4", from: COMMON }],
  ["State/Province", { target: "state", from: COMMON }],
  ["State Province", { target: "state", from: `${COMMON}; AdventureWorks' StateProvince` }],
  ["State or Province", { target: "state", from: COMMON }],
  ["Province", { target: "state", from: COMMON }],
  ["Region", { target: "state", from: "Magento's address export" }],
];

/** A header cell as the letters and digits that identify it: any case, spaces, hyphens, underscores and punctuation aside. */
export function compactName(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, "");
}

const OWN_BY_COMPACT = new Map([...OWN_NAMES].map((name) => [compactName(name), name]));
/** By compact name; a name that is one of Buckeye's own (`Postal Code` is `postal_code`) is read as that, so it is not here. */
export const EXPORT_HEADERS: ReadonlyMap<string, ExportHeader> = new Map(EXPORT_HEADER_LIST.filter(([header]) => !OWN_BY_COMPACT.has(compactName(header))).map(([header, known]) => [compactName(header), known]));
/** Each header name as documented, with its platform (for the guide's table and its test). */
export const EXPORT_HEADER_NAMES: ReadonlyArray<{ header: string } & ExportHeader> = EXPORT_HEADER_LIST.map(([header, known]) => ({ header, ...known }));

/**
 * A column name that looks like part of an address (it holds address, street, addr, zip, postal,
 * postcode, apt, or a line number as in "line 1"), other than an e-mail or IP address: such a column
 * left unread is what a row is told about, and a file that reads no address part but has one is refused.
 */
export function looksLikeAddressPart(name: string): boolean {
  const words = name.toLowerCase();
  if (/e_?mail|(^|[^a-z])ip([^a-z]|$)|url|web/.test(words)) return false;
  return /address|street|addr|zip|postal|postcode|(^|[^a-z])apt([^a-z]|$)|(^|[^a-z])line_?\d/.test(words);
}

/** The client's mapping: which header each of Buckeye's names is read from. */
export type ColumnMapping = Partial<Record<ColumnTarget, string>>;

/** How an upload's columns are chosen, beside its header: the client's mapping and the side it reads. */
export interface ColumnChoice {
  columns?: ColumnMapping;
  side?: AddressSide;
}

/** `street=Addr 1,zip=Zip`: the mapping as a query parameter or `--columns` gives it, or why it cannot be read. */
export function parseColumnMapping(text: string): { ok: true; columns: ColumnMapping } | { ok: false; reason: string } {
  const columns: ColumnMapping = {};
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=");
    const target = pair.slice(0, at).trim() as ColumnTarget;
    const header = pair.slice(at + 1).trim();
    if (at < 0 || header === "") return { ok: false, reason: `"${pair.trim()}" is not NAME=HEADER (e.g. street=Addr 1,zip=Zip)` };
    if (!(COLUMN_TARGETS as readonly string[]).includes(target)) return { ok: false, reason: `${target} is not a column Buckeye reads; map one of ${COLUMN_TARGETS.join(", ")}` };
    if (columns[target] !== undefined) return { ok: false, reason: `${target} is mapped twice` };
    columns[target] = header;
  }
  return { ok: true, columns };
}

/** The header as read: for each cell the name its values are stored under, or null when it is left out. */
export interface HeaderReading {
  stored: Array<string | null>;
  /** Buckeye's name ← the header cell, for each cell that is read. */
  read: Array<{ name: string; header: string }>;
  /** Every cell that is not read (left out or kept unread), by its column name. */
  ignored: string[];
  side: AddressSide | null;
}

export type HeaderOutcome = ({ ok: true } & HeaderReading) | { ok: false; detail: string };

/** Reads a header's cells; `columnName` is how an unread cell is named (address-columns.ts). */
export function readHeader(cells: readonly string[], choice: ColumnChoice, columnName: (header: string) => string): HeaderOutcome {
  const compact = cells.map(compactName);
  // undefined: not read, kept under its column name; null: left out; else the name it is read as.
  const stored: Array<string | null | undefined> = cells.map(() => undefined);
  const taken = new Set<string>();
  for (const [target, header] of Object.entries(choice.columns ?? {}) as Array<[ColumnTarget, string]>) {
    const at = compact.indexOf(compactName(header));
    if (at < 0) return { ok: false, detail: `columns maps ${target} to "${header}", which the header does not have (its columns: ${cells.join(", ")}).` };
    stored[at] = target;
    taken.add(groupOf(target));
  }
  const mapped = new Set(taken);
  cells.forEach((_, i) => {
    const own = OWN_BY_COMPACT.get(compact[i]!);
    if (stored[i] !== undefined || own === undefined) return;
    // One of Buckeye's own names beside a mapped column for the same part is left out: the mapping says which is read.
    stored[i] = mapped.has(groupOf(own)) ? null : own;
    if (stored[i] !== null) taken.add(groupOf(own));
  });
  const known = compact.map((name, i) => (stored[i] === undefined ? EXPORT_HEADERS.get(name) : undefined));
  const present = new Set(known.flatMap((header) => (header?.side ? [header.side] : [])));
  if (choice.side !== undefined && !present.has(choice.side)) {
    return { ok: false, detail: `address_side is ${choice.side}, but the header has no ${choice.side} address columns Buckeye knows (its columns: ${cells.join(", ")}).` };
  }
  const side = choice.side ?? (present.has("shipping") ? "shipping" : present.has("billing") ? "billing" : null);
  const byExportName = new Set<string>();
  // In the table's order, so that the preferred form of a part is read where a platform writes two.
  for (const [name, header] of EXPORT_HEADERS) {
    const i = compact.indexOf(name);
    if (i < 0 || stored[i] !== undefined) continue;
    const group = groupOf(header.target);
    if ((header.side !== undefined && header.side !== side) || byExportName.has(group)) stored[i] = null;
    else if (!taken.has(group)) {
      stored[i] = header.target;
      taken.add(group);
      byExportName.add(group);
    }
    // A part already read from Buckeye's own name or the mapping: this column stays unread, and each row that holds a value in it says so.
  }
  return {
    ok: true,
    stored: stored.map((name, i) => (name === undefined ? columnName(cells[i]!) : name)),
    read: stored.flatMap((name, i) => (typeof name === "string" ? [{ name, header: cells[i]! }] : [])),
    ignored: stored.flatMap((name, i) => (typeof name === "string" ? [] : [columnName(cells[i]!)])),
    side,
  };
}

/** Whether the columns read give an address part, or coordinates (which need none). */
export function readsLocation(names: readonly string[]): boolean {
  return names.some((name) => ADDRESS_PARTS.has(name)) || (names.includes("lat") && names.includes("lon"));
}

/** What a column that looks like an address part most likely is, for the mapping a refusal suggests. */
function likelyTarget(name: string): ColumnTarget {
  if (/zip|postal|postcode/.test(name)) return "zip";
  if (/apt|suite|unit|line_?2|(address|street|addr)_?2/.test(name)) return "address2";
  return "street";
}

/**
 * Why a header is refused: no column is read as an address part (nor coordinates), but some look like
 * one. Read as it is, every row would be answered from less than it carries (a ZIP alone, a county) or
 * fail; so the file is refused before anything is stored, naming what was read and the mapping to send.
 */
export function unreadAddressRefusal(read: ReadonlyArray<{ name: string; header: string }>, headers: readonly string[]): string | null {
  if (readsLocation(read.map((r) => r.name))) return null;
  const readHeaders = new Set(read.map((r) => r.header));
  const looking = headers.filter((header) => !readHeaders.has(header) && looksLikeAddressPart(header.toLowerCase().replace(/[^a-z0-9]+/g, "_")));
  if (looking.length === 0) return null;
  const used = new Set<ColumnTarget>();
  const suggestion = looking.flatMap((header) => {
    const target = likelyTarget(header.toLowerCase().replace(/[^a-z0-9]+/g, "_"));
    if (used.has(target)) return [];
    used.add(target);
    return [`${target}=${header}`];
  });
  const readText = read.length === 0 ? "no column" : read.map((r) => (r.name === r.header ? r.name : `${r.name} (from "${r.header}")`)).join(", ");
  return (
    `No column of this file is read as part of an address, but ${looking.map((h) => `"${h}"`).join(", ")} look${looking.length === 1 ? "s" : ""} like one: every row would be answered from less than it carries, or fail. ` +
    `Read: ${readText}. Say which column is which with the columns parameter (?columns=${suggestion.join(",")}; buckeye batch --columns ${suggestion.join(",")}), ` +
    "or name them as Buckeye reads them (street, address2, city, state, zip). Nothing was stored."
  );
}

/**
 * The columns of a row, as stored, that look like part of an address, hold a value and were not read:
 * a row answered without them says so (`unread_columns` on its result). Its own names, and the other
 * side's columns an export carries, are never among them (the latter are not stored).
 */
export function unreadAddressColumns(raw: unknown): string[] | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  let unread: string[] | undefined;
  for (const [name, value] of Object.entries(raw)) {
    if (OWN_NAMES.has(name) || !looksLikeAddressPart(name)) continue;
    if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) continue;
    (unread ??= []).push(name);
  }
  return unread;
}
