/**
 * A sale as the tax endpoints read it (POST /api/v1/tax, POST /api/v1/transactions), and a refund: zod
 * schemas the routes validate with and the OpenAPI document is generated from. Amounts are decimal
 * strings with at most two places, never JSON numbers, so no binary float ever holds money.
 */
import { z } from "zod";
import { isIsoDate } from "../rates/calendar.ts";
import { FIELD_TEXT_SCHEMAS } from "../lookup/lookup-item.ts";
import { isProductCategory, PRODUCT_CATEGORIES } from "../tax/categories.ts";
import { parseMoney } from "../tax/money.ts";

/** The most lines one sale may have: a cart larger than this is an export, and goes through a batch. */
const MAX_LINES = 1_000;
/** The largest line: 99,999,999.99, so a thousand of them still sum in exact integer cents. */
const MAX_LINE_CENTS = 9_999_999_999;

const text = (max: number) =>
  z
    .string({ error: "must be a string" })
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "must not contain control characters")
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

const money = z
  .string({ error: 'must be an amount written as a string, such as "19.99"' })
  .refine((value) => parseMoney(value) !== null, 'must be an amount in US dollars with at most two decimal places, such as "19.99"');

const isoDate = z.string({ error: "must be a date" }).refine(isIsoDate, "must be a calendar date written YYYY-MM-DD");

/** A JSON number for lat or lon is read as JavaScript prints it, as a lookup reads it. */
const degrees = (schema: z.ZodType<string | undefined>) => z.preprocess((value) => (typeof value === "number" ? String(value) : value), schema);

const placeSchema = z
  .strictObject({
    county: FIELD_TEXT_SCHEMAS.county,
    zip: FIELD_TEXT_SCHEMAS.zip,
    address: FIELD_TEXT_SCHEMAS.address,
    lat: degrees(FIELD_TEXT_SCHEMAS.lat),
    lon: degrees(FIELD_TEXT_SCHEMAS.lon),
  })
  .describe("A place in any form a rate lookup takes: a county, a ZIP (or ZIP+4), a street address, or lat with lon");

const lineSchema = z
  .strictObject({
    id: text(100).describe("The line's id, unique in the sale"),
    quantity: z.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be at least 1").max(1_000_000, "must be at most 1,000,000").optional().describe("Default 1"),
    unit_price: money.optional().describe("The price of one; the line's amount is quantity times it. Send unit_price or amount"),
    amount: money.optional().describe("The line's whole amount, instead of unit_price"),
    discount: money.optional().describe("Taken off the line's amount before tax (R.C. 5739.01(H)(2): a discount is not part of the price)"),
    exempt: z.boolean({ error: "must be true or false" }).optional().describe("true: the line is exempt, for the merchant's own reason"),
    exempt_reason: text(200).optional().describe("Why the line is exempt, shown in the answer"),
    category: z
      .string({ error: "must be a string" })
      .refine(isProductCategory, `must be one of ${Object.keys(PRODUCT_CATEGORIES).join(", ")}`)
      .optional()
      .describe("A product category whose Ohio answer the Revised Code states (data/SOURCES.md): taxable or exempt by it"),
  })
  .superRefine((line, ctx) => {
    if ((line.unit_price === undefined) === (line.amount === undefined)) {
      ctx.addIssue({ code: "custom", path: ["unit_price"], message: "send unit_price or amount, one of them" });
      return;
    }
    const gross = line.amount !== undefined ? parseMoney(line.amount) : (parseMoney(line.unit_price ?? "") ?? 0) * (line.quantity ?? 1);
    if (gross === null || gross > MAX_LINE_CENTS) ctx.addIssue({ code: "custom", path: ["amount"], message: "the line's amount must be at most 99999999.99" });
    else if (line.discount !== undefined && (parseMoney(line.discount) ?? 0) > gross) ctx.addIssue({ code: "custom", path: ["discount"], message: "must not be more than the line's amount" });
  });

const saleFields = {
  date: isoDate.optional().describe("The date of the sale, YYYY-MM-DD; default: today in Ohio"),
  currency: z.literal("USD", { error: "must be USD: Ohio's tax is computed in US dollars" }).optional(),
  customer_id: text(100).optional().describe("The buyer, as the organization's exemption certificates name it"),
  ship_to: placeSchema.optional().describe("Where the buyer receives the goods"),
  pickup_location_id: text(100).optional().describe("The organization's location where the buyer picks the goods up"),
  order_location_id: text(100).optional().describe("The organization's Ohio location that received the order"),
  lines: z.array(lineSchema, { error: "must be a list of lines" }).min(1, "must hold at least one line").max(MAX_LINES, `must hold at most ${MAX_LINES} lines`),
  shipping: money.optional().describe("Shipping charges: part of the price (R.C. 5739.01(H)(1))"),
  handling: money.optional().describe("Handling charges: part of the price (R.C. 5739.01(H)(1))"),
};

function uniqueLineIds(sale: { lines: Array<{ id: string }> }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  for (const [i, line] of sale.lines.entries()) {
    if (seen.has(line.id)) ctx.addIssue({ code: "custom", path: ["lines", i, "id"], message: "must be unique in the sale" });
    seen.add(line.id);
  }
}

export const saleSchema = z.strictObject(saleFields).superRefine(uniqueLineIds).describe("A sale: its date, places, lines and charges");
export type SaleRequest = z.output<typeof saleSchema>;

export const recordSaleSchema = z
  .strictObject({ order_id: text(100).describe("The merchant's own id of the order: the same id and body record one transaction"), ...saleFields })
  .superRefine(uniqueLineIds)
  .describe("A sale to record under the merchant's order id");
export type RecordSaleRequest = z.output<typeof recordSaleSchema>;

export const refundSchema = z
  .strictObject({
    refund_id: text(100).describe("The merchant's own id of the refund: the same id and body record one refund"),
    date: isoDate.optional().describe("The date of the refund; default: today in Ohio. It reduces the return of its own period"),
    lines: z
      .array(z.strictObject({ id: text(100), amount: money.describe("How much of the line's price is refunded") }), { error: "must be a list of lines" })
      .max(MAX_LINES, `must hold at most ${MAX_LINES} lines`)
      .optional(),
    delivery: money.optional().describe("How much of the shipping and handling is refunded"),
  })
  .describe("A refund of part or all of a recorded sale");
export type RefundRequestBody = z.output<typeof refundSchema>;

export const voidSchema = z
  .strictObject({ date: isoDate.optional().describe("The date of the void; default: today in Ohio") })
  .describe("A void: all that is left of the sale taken back");

export const taxSettingsSchema = z
  .strictObject({ rounding_basis: z.enum(["item", "invoice"], { error: "must be item or invoice" }).describe("Round each line (item) or the invoice's total (invoice), per jurisdiction") })
  .describe("The organization's tax settings");

export const locationSchema = z
  .strictObject({ name: text(200).describe("What the organization calls it: \"Main Street store\""), place: placeSchema })
  .describe("One of the organization's places of business");
