/**
 * The return service: an organization's UST 1 worksheet for a filing period, from one ledger (the
 * asking key's environment: test keys read the test ledger, live keys the live one). The rules live
 * here once; the API and the dashboard render the worksheet or the refusal in their own way.
 */
import { dateInOhio } from "../rates/calendar.ts";
import type { RateTable } from "../rates/rate-table.ts";
import type { Db } from "../store/database.ts";
import { findOrganization } from "../store/organizations.repository.ts";
import { parsePeriod, type FilingPeriod } from "./periods.ts";
import { sumPeriod } from "./returns.repository.ts";
import { buildWorksheet, type Ledger, type Worksheet } from "./worksheet.ts";

export type ReturnRefusalCode = "invalid-return-period" | "filing-frequency-mismatch" | "return-period-not-begun";

/** A worksheet refused by a rule; `code` says which, for the adapter to render. */
export class ReturnRefusal extends Error {
  constructor(
    readonly code: ReturnRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ReturnServiceDeps {
  db: Db;
  now: () => Date;
  /** The rate source's table, read at each use: the counties' names and the districts' reporting codes. */
  rates: () => Pick<RateTable, "byFips" | "districts" | "historyStart">;
}

export interface ReturnService {
  /** The worksheet of the period a label names, once the label is checked against the organization's filing frequency and today in Ohio. */
  worksheet(organizationId: string, ledger: Ledger, label: string): Promise<Worksheet>;
}

export function createReturnService(deps: ReturnServiceDeps): ReturnService {
  /** The period a label names, or the rule it breaks. */
  async function period(organizationId: string, label: string): Promise<FilingPeriod> {
    const found = parsePeriod(label);
    if (!found) {
      throw new ReturnRefusal("invalid-return-period", `"${label.slice(0, 20)}" is not a filing period: write a month as YYYY-MM (2026-11) or a half year as YYYY-H1 or YYYY-H2.`);
    }
    const { historyStart } = deps.rates();
    if (found.start < historyStart) {
      throw new ReturnRefusal("invalid-return-period", `Period ${label} starts before ${historyStart}, where Buckeye's rate history and ledger start.`);
    }
    const organization = await findOrganization(deps.db, organizationId);
    if (!organization) throw new Error(`organization ${organizationId} of an admitted key is missing`);
    if (organization.filing_frequency !== found.frequency) {
      const example = organization.filing_frequency === "monthly" ? "a month, YYYY-MM" : "a half year, YYYY-H1 or YYYY-H2";
      throw new ReturnRefusal(
        "filing-frequency-mismatch",
        `This organization files ${organization.filing_frequency}, so its periods are ${example}; ${label} is a ${found.frequency} period. Change the filing frequency in the dashboard's settings if it has changed.`,
      );
    }
    const today = dateInOhio(deps.now());
    if (found.start > today) {
      throw new ReturnRefusal("return-period-not-begun", `Period ${label} begins on ${found.start}; today in Ohio is ${today}.`);
    }
    return found;
  }

  return {
    async worksheet(organizationId, ledger, label) {
      const filing = await period(organizationId, label);
      const sums = await sumPeriod(deps.db, { organizationId, ledger, start: filing.start, end: filing.end });
      const table = deps.rates();
      const now = deps.now();
      return buildWorksheet({
        period: filing,
        ledger,
        organizationId,
        sums,
        counties: table.byFips,
        districts: table.districts,
        today: dateInOhio(now),
        generatedAt: now.toISOString(),
      });
    },
  };
}
