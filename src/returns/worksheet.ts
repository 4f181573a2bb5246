/**
 * The return worksheet in the shape of Ohio's Universal Sales Tax Return (UST 1), computed from a
 * period's ledger sums: pure, no I/O (docs/guides/tax-and-returns.md, "The return").
 *
 * The county schedule has one line per reporting code the Department of Taxation gives: a county's own
 * number (01–88, alphabetical), and, for the four counties COTA's district covers in part, a second code
 * for that part (Delaware 96, Fairfield 93, Licking 94, Union 98), since its rate differs from the rest
 * of the county. TARTA's part of Wood County (Rossford) is reported under Wood's own 87. Each line's tax
 * is the tax recorded on its sales, the transit authority's share included.
 */
import type { IsoDate } from "../rates/calendar.ts";
import type { County, TransitDistrict } from "../rates/rate-table.ts";
import type { KeyEnv } from "../store/database.ts";
import { formatCents } from "./money.ts";
import type { FilingPeriod } from "./periods.ts";
import { discountCents, discountFor } from "./vendor-discount.ts";

/** The ledger a return reads: the environment of the key that asks, as every record is kept. */
export type Ledger = KeyEnv;

/** A period's sums for one county (and one transit district value) of one ledger, in signed cents. */
export interface LedgerSums extends Amounts {
  countyFips: string;
  /** What the ledger recorded as the sale's transit district; null outside any district. */
  transitDistrict: string | null;
}

export interface WorksheetInput {
  period: FilingPeriod;
  ledger: Ledger;
  organizationId: string;
  sums: readonly LedgerSums[];
  counties: ReadonlyMap<string, County>;
  /** County FIPS → the transit district covering part of it (data/transit-districts.json). */
  districts: ReadonlyMap<string, TransitDistrict>;
  today: IsoDate;
  generatedAt: string;
}

export interface CountyLine {
  county: string;
  county_fips: string;
  /** The Department of Taxation's two-digit code the line is reported under. */
  reporting_code: string;
  /** "COTA district" for the district's part of a county it splits; null for the county (or the rest of it). */
  part: string | null;
  gross_sales: string;
  exempt_sales: string;
  net_taxable_sales: string;
  tax_liability: string;
  /** The line's tax by the jurisdiction it is owed to; their sum is tax_liability. */
  tax_by_jurisdiction: { state: string; county: string; transit: string };
  /** Ledger records in the line: sales, refunds and voids. */
  records: number;
}

export interface FormLine {
  line: number;
  label: string;
  amount: string;
}

export interface Worksheet {
  form: "UST 1";
  organization_id: string;
  ledger: Ledger;
  period: string;
  filing_frequency: FilingPeriod["frequency"];
  period_start: IsoDate;
  period_end: IsoDate;
  due_date: IsoDate;
  /** "open" while the period runs (its figures may still change), "closed" once it has ended. */
  period_status: "open" | "closed";
  rounding: "cents";
  counties: CountyLine[];
  lines: FormLine[];
  discount: { rate: string; effective_from: IsoDate; source: string; applies_when: string; amount: string };
  net_amount_due: string;
  generated_at: string;
}

interface Amounts {
  gross: number;
  exempt: number;
  tax: number;
  stateTax: number;
  countyTax: number;
  transitTax: number;
  records: number;
}

const ZERO: Amounts = { gross: 0, exempt: 0, tax: 0, stateTax: 0, countyTax: 0, transitTax: 0, records: 0 };

function add(a: Amounts, b: Amounts): Amounts {
  return {
    gross: a.gross + b.gross,
    exempt: a.exempt + b.exempt,
    tax: a.tax + b.tax,
    stateTax: a.stateTax + b.stateTax,
    countyTax: a.countyTax + b.countyTax,
    transitTax: a.transitTax + b.transitTax,
    records: a.records + b.records,
  };
}

/** ODT numbers the counties 01–88 alphabetically, which is FIPS order: county FIPS 39xxx = 2 × number − 1. */
export function countyNumber(countyFips: string): string {
  return String((Number(countyFips.slice(2)) + 1) / 2).padStart(2, "0");
}

interface LineKey {
  fips: string;
  code: string;
  part: string | null;
}

/** The county schedule's line a sale is reported on: its county's, or the district part's where ODT gives that its own code. */
export function lineOf(sums: Pick<LedgerSums, "countyFips" | "transitDistrict">, districts: ReadonlyMap<string, TransitDistrict>): LineKey {
  const district = districts.get(sums.countyFips);
  if (!district) return { fips: sums.countyFips, code: countyNumber(sums.countyFips), part: null };
  const inside = sums.transitDistrict !== null && district.reportingCodes.district !== district.reportingCodes.rest;
  return inside
    ? { fips: sums.countyFips, code: district.reportingCodes.district, part: `${district.authority} district` }
    : { fips: sums.countyFips, code: district.reportingCodes.rest, part: null };
}

export function buildWorksheet(input: WorksheetInput): Worksheet {
  const lines = new Map<string, { key: LineKey; amounts: Amounts }>();
  for (const sums of input.sums) {
    const key = lineOf(sums, input.districts);
    const id = `${key.fips}:${key.code}`;
    lines.set(id, { key, amounts: add(lines.get(id)?.amounts ?? ZERO, sums) });
  }
  const nameOf = (fips: string) => input.counties.get(fips)?.name ?? fips;
  const counties = [...lines.values()]
    .sort((a, b) => nameOf(a.key.fips).localeCompare(nameOf(b.key.fips)) || Number(a.key.part !== null) - Number(b.key.part !== null))
    .map(({ key, amounts }): CountyLine => ({
      county: nameOf(key.fips),
      county_fips: key.fips,
      reporting_code: key.code,
      part: key.part,
      gross_sales: formatCents(amounts.gross),
      exempt_sales: formatCents(amounts.exempt),
      net_taxable_sales: formatCents(amounts.gross - amounts.exempt),
      tax_liability: formatCents(amounts.tax),
      tax_by_jurisdiction: { state: formatCents(amounts.stateTax), county: formatCents(amounts.countyTax), transit: formatCents(amounts.transitTax) },
      records: amounts.records,
    }));
  const total = [...lines.values()].reduce((sum, line) => add(sum, line.amounts), ZERO);
  const discount = discountFor(input.period.dueDate);
  const discounted = discountCents(total.tax, discount.basisPoints);
  const net = total.tax - discounted;
  const netTaxable = total.gross - total.exempt;
  return {
    form: "UST 1",
    organization_id: input.organizationId,
    ledger: input.ledger,
    period: input.period.label,
    filing_frequency: input.period.frequency,
    period_start: input.period.start,
    period_end: input.period.end,
    due_date: input.period.dueDate,
    period_status: input.today > input.period.end ? "closed" : "open",
    rounding: "cents",
    counties,
    lines: [
      { line: 1, label: "Gross sales", amount: formatCents(total.gross) },
      { line: 2, label: "Exempt sales", amount: formatCents(total.exempt) },
      { line: 3, label: "Net taxable sales", amount: formatCents(netTaxable) },
      // Motor vehicles and watercraft taxed at the clerk of courts: Buckeye's ledger records none.
      { line: 4, label: "Sales upon which tax was paid to clerks of courts", amount: formatCents(0) },
      { line: 5, label: "Reportable taxable sales", amount: formatCents(netTaxable) },
      { line: 6, label: "Tax liability on sales reported on line 5", amount: formatCents(total.tax) },
      { line: 7, label: "Discount", amount: formatCents(discounted) },
      // The additional charge falls on a late return, which a worksheet made before filing is not.
      { line: 8, label: "Additional charge", amount: formatCents(0) },
      { line: 9, label: "Net amount due", amount: formatCents(net) },
    ],
    discount: {
      rate: `0.${String(discount.basisPoints).padStart(4, "0")}`,
      effective_from: discount.effectiveFrom,
      source: discount.source,
      applies_when: `the return and full payment reach the Department of Taxation by ${input.period.dueDate}`,
      amount: formatCents(discounted),
    },
    net_amount_due: formatCents(net),
    generated_at: input.generatedAt,
  };
}
