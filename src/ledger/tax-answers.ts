/**
 * What the tax endpoints answer, as zod schemas: the routes type their answers with them and the OpenAPI
 * document is generated from them. Amounts are decimal strings with two places; rates are decimal strings
 * ("0.0575"); an unrounded tax is a decimal string with every digit kept.
 */
import { z } from "zod";
import { boundaryRecordSchema, resolvedBySchema } from "../rates/record-schemas.ts";

const amount = z.string().regex(/^-?\d+\.\d{2}$/).describe("US dollars, two decimal places");
const rate = z.string().regex(/^\d+\.\d{4,6}$/).describe("A decimal rate: 0.0575 is 5.75 %");
const unrounded = z.string().regex(/^-?\d+\.\d{6,8}$/).describe("The tax before rounding, in dollars, every digit kept");

const jurisdictionTaxSchema = z
  .strictObject({
    jurisdiction: z.enum(["state", "county", "transit"]),
    name: z.string().describe("Ohio, the county, or the transit authority; none when no transit levy applies"),
    rate,
    taxable: amount,
    unrounded,
    tax: amount.describe("Rounded by the state's rule, on the basis the answer names"),
  })
  .describe("One jurisdiction's tax, computed on its own");

const taxLineSchema = z.strictObject({
  id: z.string(),
  quantity: z.number().int(),
  unit_price: amount.nullable(),
  gross: amount.describe("Quantity times unit price, or the amount sent"),
  discount: amount,
  net: amount.describe("gross − discount: the line's price"),
  exempt: amount,
  taxable: amount,
  exempt_reason: z.string().nullable().describe("Why the line is exempt: a certificate, a statute, or the merchant's reason; null when taxable"),
  taxes: z.array(jurisdictionTaxSchema).nullable().describe("On an item basis, the line's own rounded tax per jurisdiction; null on an invoice basis"),
});

export const taxAnswerSchema = z
  .strictObject({
    settled: z.literal(true),
    date: z.string(),
    currency: z.literal("USD"),
    sourcing: z.strictObject({
      rule: z.enum(["pickup", "origin", "destination"]),
      statute: z.string(),
      reason: z.string(),
      location_id: z.string().nullable().describe("The organization's location the sale is sourced to; null when sourced to ship_to"),
    }),
    location: z.strictObject({
      county: z.string(),
      fips: z.string(),
      transit_district: z.strictObject({ authority: z.string(), status: z.enum(["inside", "outside"]) }).nullable(),
      resolved_by: resolvedBySchema,
      boundary_record: boundaryRecordSchema.nullable(),
    }),
    rounding: z.strictObject({
      basis: z.enum(["item", "invoice"]),
      rule: z.string(),
    }),
    exemption: z
      .strictObject({ certificate_id: z.string(), customer_id: z.string(), exempt_reason: z.string(), expires_on: z.string() })
      .nullable()
      .describe("The customer's exemption certificate valid on the sale's date, which makes every line exempt; null when none"),
    lines: z.array(taxLineSchema),
    delivery: z.strictObject({ amount, taxable: amount, exempt: amount, taxes: z.array(jurisdictionTaxSchema).nullable() }).describe("Shipping and handling together"),
    jurisdictions: z.array(jurisdictionTaxSchema),
    totals: z.strictObject({ gross: amount, exempt: amount, taxable: amount, tax: amount, unrounded }),
    computed_from: z.strictObject({
      rate_data_version: z.string().describe("The state's rate file the shipped rates come from, and the reconciliation laid over them (+id:periods) when there is one"),
      boundary_version: z.string().nullable().describe("The state's boundary file whose record placed the address; null when none did"),
      resolved_by: resolvedBySchema,
      last_reconciled: z.string(),
    }),
    request_id: z.string(),
  })
  .describe("The tax on one sale, every jurisdiction separately, with what it was computed from");
export type TaxAnswer = z.infer<typeof taxAnswerSchema>;

export const unsettledAnswerSchema = z
  .strictObject({
    settled: z.literal(false),
    date: z.string(),
    message: z.string(),
    candidates: z.array(
      z.strictObject({
        county: z.string(),
        fips: z.string(),
        transit_district: z.enum(["inside", "outside"]).nullable(),
        combined_rate: rate,
      }),
    ),
    request_id: z.string(),
  })
  .describe("A place that rates cannot settle (a ZIP that spans counties, a county a transit district splits): the candidates, and no tax until an address settles it");
export type UnsettledAnswer = z.infer<typeof unsettledAnswerSchema>;

export const transactionRecordSchema = z
  .strictObject({
    id: z.string(),
    kind: z.enum(["sale", "refund", "void"]),
    reference: z.string().describe("The merchant's id: a sale's order_id, a refund's refund_id, a void's sale order_id"),
    sale_id: z.string().nullable().describe("For a refund or void: the sale it reduces"),
    ledger: z.enum(["live", "test"]).describe("The environment of the key that recorded it"),
    date: z.string(),
    county_fips: z.string(),
    transit_district: z.string().nullable(),
    amounts: z
      .strictObject({ gross: amount, exempt: amount, taxable: amount, tax: amount, state_tax: amount, county_tax: amount, transit_tax: amount })
      .describe("A sale's positive, a refund's or void's negative"),
    calculation: z.record(z.string(), z.unknown()).describe("What the record was computed from: the sale's answer (rates, versions, resolution), or the refund's lines"),
    created_at: z.string(),
  })
  .describe("One record of the tax ledger");
export type TransactionRecord = z.infer<typeof transactionRecordSchema>;

export const replaySchema = z
  .strictObject({
    transaction_id: z.string(),
    as_recorded: z.strictObject({
      computed_from: z.record(z.string(), z.unknown()),
      amounts: z.record(z.string(), amount),
      matches_record: z.boolean().describe("The record's cited rates and basis, computed again, give the recorded amounts"),
    }),
    today: z
      .strictObject({
        computed_from: z.record(z.string(), z.unknown()).nullable(),
        amounts: z.record(z.string(), amount).nullable(),
        problem: z.string().nullable().describe("Why today's data gives no amount (the place no longer resolves, a location was deleted); null otherwise"),
      })
      .describe("The same sale, on its own date, placed and rated with today's data"),
    differs: z.boolean().describe("Today's data gives another amount than the record"),
    differences: z.array(z.strictObject({ field: z.string(), recorded: z.string(), today: z.string() })),
  })
  .describe("A recorded sale computed again: from the versions it cites, and from today's data");
export type ReplayAnswer = z.infer<typeof replaySchema>;

export const locationRecordSchema = z
  .strictObject({ id: z.string(), name: z.string(), place: z.record(z.string(), z.string()), created_at: z.string() })
  .describe("One of the organization's places of business");
