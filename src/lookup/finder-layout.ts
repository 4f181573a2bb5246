/**
 * Ohio's Finder batch layout, read unchanged: a headerless CSV whose fields are, in order, invoice
 * number (up to 15), address (up to 61), suite (up to 61), city (up to 29), state (2), ZIP (5),
 * ZIP+4 (4), as-of date `MM/DD/YYYY`, and optionally a taxable amount. The rules below are the
 * layout's own (docs/guides/address-resolution.md, "The Finder layout"); a row that breaks one fails
 * alone, naming the field. A row is stored as `{ [FINDER_ROW]: [its fields as sent] }`, so the
 * results can give them back as they came, and is read here into the lookup every other row is.
 */
import { isIsoDate, type IsoDate } from "../rates/calendar.ts";
import { failure, type ItemFailure } from "./item-result.ts";

/** The key a Finder row is stored under (src/batch/read-batch-file.ts). */
export const FINDER_ROW = "finder";

interface FinderField {
  name: string;
  max: number;
  required: boolean;
  pattern?: { test: RegExp; says: string };
}

/** The layout's fields, in order; the ninth is optional. */
export const FINDER_FIELDS: readonly FinderField[] = [
  { name: "invoice_number", max: 15, required: false },
  { name: "address", max: 61, required: true },
  { name: "suite", max: 61, required: false },
  { name: "city", max: 29, required: true },
  { name: "state", max: 2, required: true, pattern: { test: /^OH$/i, says: "must be OH" } },
  { name: "zip", max: 5, required: true, pattern: { test: /^\d{5}$/, says: "must be the 5 digits of a ZIP code" } },
  { name: "zip4", max: 4, required: false, pattern: { test: /^\d{4}$/, says: "must be the 4 digits of a ZIP+4" } },
  { name: "as_of_date", max: 10, required: false, pattern: { test: /^\d{1,2}\/\d{1,2}\/\d{4}$/, says: "must be a date written MM/DD/YYYY" } },
  { name: "taxable_amount", max: 16, required: false, pattern: { test: /^-?\d{1,13}(\.\d{1,2})?$/, says: "must be an amount such as 125.00" } },
];

export const FINDER_REQUIRED_FIELDS = FINDER_FIELDS.length - 1;

/** The layout takes as-of dates from this day on. */
const FINDER_FIRST_DATE = "2004-01-01";

/** Control characters other than the tab (as lookup-item.ts refuses them). */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

function bad(param: string, reason: string): ItemFailure {
  return { ...failure("bad-request", `Invalid ${param}: ${reason}.`, param), reason };
}

/** The invoice number of a stored Finder row, which its results carry as the row's id. */
export function finderInvoice(fields: unknown): string | undefined {
  const invoice = Array.isArray(fields) ? fields[0] : undefined;
  return typeof invoice === "string" && invoice.trim() !== "" && invoice.length <= 15 && !CONTROL.test(invoice) ? invoice.trim() : undefined;
}

function isoDate(written: string): IsoDate | null {
  const [month, day, year] = written.split("/");
  const iso = `${year}-${month!.padStart(2, "0")}-${day!.padStart(2, "0")}`;
  return isIsoDate(iso) ? iso : null;
}

/**
 * The lookup a Finder row asks for, or the problem with its first bad field. The address fields go
 * through `read` as a customer export's `street, unit, city, state, zip, zip4` columns would.
 */
export function readFinderRow<T>(fields: unknown, today: IsoDate, read: (raw: Record<string, unknown>, today: IsoDate) => T | ItemFailure): T | ItemFailure {
  if (!Array.isArray(fields) || fields.some((field) => typeof field !== "string")) return failure("bad-request", "A Finder row must be a list of text fields.", null);
  if (fields.length !== FINDER_REQUIRED_FIELDS && fields.length !== FINDER_FIELDS.length) {
    return failure(
      "bad-request",
      `A Finder row has ${FINDER_REQUIRED_FIELDS} fields (${FINDER_FIELDS.slice(0, FINDER_REQUIRED_FIELDS).map((f) => f.name).join(", ")}), or ${FINDER_FIELDS.length} with the taxable amount; this one has ${fields.length}.`,
      null,
    );
  }
  const values: Record<string, string> = {};
  for (const [i, spec] of FINDER_FIELDS.entries()) {
    const value = ((fields[i] as string | undefined) ?? "").trim();
    if (CONTROL.test(value)) return bad(spec.name, "must not contain control characters");
    if (value === "") {
      if (spec.required) return bad(spec.name, "must not be empty (the Finder layout requires it)");
      continue;
    }
    if (value.length > spec.max) return bad(spec.name, `must be at most ${spec.max} characters (the Finder layout)`);
    if (spec.pattern && !spec.pattern.test.test(value)) return bad(spec.name, spec.pattern.says);
    values[spec.name] = value;
  }
  let date: IsoDate | undefined;
  if (values["as_of_date"] !== undefined) {
    const iso = isoDate(values["as_of_date"]);
    if (iso === null) return bad("as_of_date", "must be a calendar date written MM/DD/YYYY");
    if (iso < FINDER_FIRST_DATE) return bad("as_of_date", "must be 01/01/2004 or later (the Finder layout)");
    if (iso > today) return bad("as_of_date", "must not be in the future (the Finder layout)");
    date = iso;
  }
  return read(
    {
      id: values["invoice_number"],
      street: values["address"],
      unit: values["suite"],
      city: values["city"],
      state: values["state"]!.toUpperCase(),
      zip: values["zip"],
      zip4: values["zip4"],
      date,
    },
    today,
  );
}
