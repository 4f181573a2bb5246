/**
 * The worksheet's JSON as a zod schema, for the OpenAPI document (src/http/openapi.ts generates the
 * API's description from it). test/openapi-contract.test.ts checks real answers against it.
 */
import { z } from "zod";

const money = z.string().regex(/^-?\d+\.\d{2}$/).describe("US dollars with two decimals, from integer cents; negative where refunds exceed sales");
const date = z.iso.date();

export const countyLineSchema = z
  .strictObject({
    county: z.string(),
    county_fips: z.string().regex(/^39\d{3}$/),
    reporting_code: z.string().regex(/^\d{2}$/).describe("The Department of Taxation's two-digit code for the line: the county's number (01–88), or a COTA district part's (Delaware 96, Fairfield 93, Licking 94, Union 98)"),
    part: z.string().nullable().describe("\"COTA district\" for a district's part of a county it splits; null for the county or the rest of it"),
    gross_sales: money,
    exempt_sales: money,
    net_taxable_sales: money.describe("gross_sales − exempt_sales"),
    tax_liability: money.describe("The tax recorded on the line's sales, the transit authority's share included"),
    tax_by_jurisdiction: z.strictObject({ state: money, county: money, transit: money }).describe("The line's tax by the jurisdiction it is owed to; they add up to tax_liability"),
    records: z.number().int().describe("Ledger records in the line: sales, refunds and voids"),
  })
  .describe("A line of the UST 1 county schedule");

export const worksheetSchema = z
  .strictObject({
    form: z.literal("UST 1"),
    organization_id: z.string(),
    ledger: z.enum(["live", "test"]).describe("The ledger read: the calling key's environment"),
    period: z.string().describe("2026-11, or 2026-H1 / 2026-H2"),
    filing_frequency: z.enum(["monthly", "semiannual"]),
    period_start: date,
    period_end: date,
    due_date: date.describe("The 23rd of the month after the period (R.C. 5739.12)"),
    period_status: z.enum(["open", "closed"]).describe("open while the period runs: its figures may still change"),
    rounding: z.literal("cents").describe("Every amount exact to the cent; the return is not rounded to whole dollars"),
    counties: z.array(countyLineSchema).describe("One line per county (or COTA district part) with records in the period, by county name"),
    lines: z.array(z.strictObject({ line: z.number().int().min(1).max(9), label: z.string(), amount: money })).describe("The form's lines 1 to 9; line 4 and line 8 are 0.00 (no clerk-of-courts sales are recorded; the additional charge is for a late return)"),
    discount: z
      .strictObject({ rate: z.string(), effective_from: date, source: z.string(), applies_when: z.string(), amount: money })
      .describe("The prompt-payment discount (line 7): the rate in force for the due date, its source, its condition and its amount"),
    net_amount_due: money.describe("Line 9: line 6 − line 7 + line 8"),
    generated_at: z.iso.datetime(),
  })
  .describe("A filing period's worksheet in the shape of Ohio's Universal Sales Tax Return (UST 1)");
