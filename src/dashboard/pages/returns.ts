/**
 * Returns: the organization's UST 1 worksheet for a filing period, from the live ledger or the test
 * one (`?ledger=test`), to read and to download as CSV. The return service (src/returns/) holds the
 * rules; a period it refuses is an error page saying why.
 */
import type { H3, H3Event } from "h3";
import { dateInOhio } from "../../rates/calendar.ts";
import { recentPeriods } from "../../returns/periods.ts";
import { ReturnRefusal } from "../../returns/return-service.ts";
import { worksheetCsv, worksheetFileName } from "../../returns/worksheet-csv.ts";
import type { Worksheet } from "../../returns/worksheet.ts";
import { REFERENCE_PATH } from "../../reference-page/routes.ts";
import { findOrganization } from "../../store/organizations.repository.ts";
import type { DashboardDeps } from "../deps.ts";
import { html } from "../html.ts";
import { badge, shortDate, signedInPage } from "../layout.ts";
import { dashboardError, sendPage } from "../respond.ts";
import { requireSession } from "../session.ts";

/** The periods listed: a year of months, or three years of half years. */
const LISTED = { monthly: 12, semiannual: 6 } as const;

const LEDGER_NAMES = { live: "Live", test: "Test" } as const;

function ledgerOf(event: H3Event): "live" | "test" {
  const asked = event.url.searchParams.get("ledger");
  if (asked === null || asked === "live") return "live";
  if (asked === "test") return "test";
  throw dashboardError(400, "Unknown ledger", "Choose the live ledger or the test one.");
}

/** "$1,234.56" from the worksheet's "1234.56": the digits as they are, commas added, no float in between. */
function usd(amount: string): string {
  const negative = amount.startsWith("-");
  const [whole, cents] = amount.replace("-", "").split(".") as [string, string];
  return `${negative ? "−" : ""}$${whole.replace(/\B(?=(\d{3})+$)/g, ",")}.${cents}`;
}

async function worksheetOr404(deps: DashboardDeps, organizationId: string, ledger: "live" | "test", period: string): Promise<Worksheet> {
  try {
    return await deps.returns.worksheet(organizationId, ledger, period);
  } catch (error) {
    if (error instanceof ReturnRefusal) throw dashboardError(error.code === "return-period-not-begun" ? 404 : 400, "No return for this period", error.message);
    throw error;
  }
}

function ledgerSwitch(path: string, ledger: "live" | "test") {
  return html`<nav class="ledger-switch" aria-label="Ledger"><ul>${(["live", "test"] as const).map(
    (env) => html`<li><a href="${path}${env === "test" ? "?ledger=test" : ""}"${env === ledger ? html` aria-current="page"` : ""}>${LEDGER_NAMES[env]} ledger</a></li>`,
  )}</ul></nav>`;
}

function worksheetBody(worksheet: Worksheet) {
  const path = `/dashboard/returns/${worksheet.period}`;
  const query = worksheet.ledger === "test" ? "?ledger=test" : "";
  const line = (n: number) => worksheet.lines.find((l) => l.line === n)!.amount;
  return html`<div class="page-head">
  <p><a href="/dashboard/returns${query}">All periods</a></p>
  <h1>Return for ${worksheet.period} ${worksheet.ledger === "test" ? badge("amber", "Test ledger") : badge("blue", "Live ledger")}</h1>
  <p class="lede">Ohio's Universal Sales Tax Return (UST 1) worked out from the sales, refunds and voids recorded in the ${worksheet.ledger} ledger from ${shortDate(worksheet.period_start)} to ${shortDate(worksheet.period_end)}. Due ${shortDate(worksheet.due_date)}.${worksheet.period_status === "open" ? " The period is still under way, so these figures can change." : ""}</p>
  ${ledgerSwitch(path, worksheet.ledger)}
  <p><a class="btn btn-secondary" href="${path}/download${query}" download>Download CSV</a></p>
</div>
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Summary</h2>
  <div class="table-wrap"><table class="table return-table">
    <caption class="visually-hidden">The return's lines 1 to 9</caption>
    <thead><tr><th scope="col">Line</th><th scope="col">Item</th><th scope="col" class="num">Amount</th></tr></thead>
    <tbody>${worksheet.lines.map((l) => html`<tr><td>${l.line}</td><th scope="row">${l.label}</th><td class="num" data-line="${l.line}">${usd(l.amount)}</td></tr>`)}</tbody>
  </table></div>
  <p>The discount (line 7) is ${worksheet.discount.rate === "0.0075" ? "0.75 %" : worksheet.discount.rate} of the tax liability on line 6, ${usd(line(6))}, and applies only when ${worksheet.discount.applies_when}. Source: ${worksheet.discount.source}.</p>
</section>
<section class="card" aria-labelledby="counties-heading">
  <h2 id="counties-heading">By county</h2>
  ${
    worksheet.counties.length === 0
      ? html`<p class="empty">No sales recorded in this period.</p>`
      : html`<div class="table-wrap"><table class="table responsive return-table">
    <caption class="visually-hidden">The county schedule: one line per county, and per COTA district part</caption>
    <thead><tr><th scope="col">County</th><th scope="col">Code</th><th scope="col" class="num">Gross sales</th><th scope="col" class="num">Exempt sales</th><th scope="col" class="num">Net taxable sales</th><th scope="col" class="num">Tax</th></tr></thead>
    <tbody>${worksheet.counties.map(
      (c) => html`<tr>
      <th scope="row" data-label="County">${c.county}${c.part ? html` <span class="muted">(${c.part})</span>` : ""}</th>
      <td data-label="Code">${c.reporting_code}</td>
      <td data-label="Gross sales" class="num">${usd(c.gross_sales)}</td>
      <td data-label="Exempt sales" class="num">${usd(c.exempt_sales)}</td>
      <td data-label="Net taxable sales" class="num">${usd(c.net_taxable_sales)}</td>
      <td data-label="Tax" class="num">${usd(c.tax_liability)}</td>
    </tr>`,
    )}</tbody>
    <tfoot><tr><th scope="row">Total</th><td data-label="Code"></td><td data-label="Gross sales" class="num">${usd(line(1))}</td><td data-label="Exempt sales" class="num">${usd(line(2))}</td><td data-label="Net taxable sales" class="num">${usd(line(3))}</td><td data-label="Tax" class="num">${usd(line(6))}</td></tr></tfoot>
  </table></div>`
  }
  <p class="hint">Every amount is exact to the cent. A refund counts in the period of its own date. The API answers the same worksheet as JSON or CSV (<a href="${REFERENCE_PATH}">API reference</a>).</p>
</section>`;
}

export function returnRoutes(app: H3, deps: DashboardDeps): void {
  const session = { middleware: [requireSession(deps)] };

  app.get(
    "/dashboard/returns",
    async (event) => {
      const current = event.context.session!;
      const ledger = ledgerOf(event);
      const organization = await findOrganization(deps.db, current.organizationId);
      const frequency = organization?.filing_frequency ?? "monthly";
      const periods = recentPeriods(frequency, dateInOhio(deps.now()), LISTED[frequency]);
      const query = ledger === "test" ? "?ledger=test" : "";
      const body = html`<div class="page-head">
  <h1>Returns</h1>
  <p class="lede">Your Ohio sales tax return (UST 1) for each ${frequency === "monthly" ? "month" : "half year"}, worked out from the transactions recorded in your ${ledger} ledger. You file ${frequency}; change it in <a href="/dashboard/settings">Settings</a>.</p>
  ${ledgerSwitch("/dashboard/returns", ledger)}
</div>
<section class="card" aria-labelledby="periods-heading">
  <h2 id="periods-heading">Filing periods</h2>
  <div class="table-wrap"><table class="table responsive return-table">
    <caption class="visually-hidden">Filing periods, newest first</caption>
    <thead><tr><th scope="col">Period</th><th scope="col">Dates</th><th scope="col">Due</th></tr></thead>
    <tbody>${periods.map(
      (p) => html`<tr><th scope="row" data-label="Period"><a href="/dashboard/returns/${p.label}${query}">${p.label}</a></th><td data-label="Dates">${shortDate(p.start)} – ${shortDate(p.end)}</td><td data-label="Due">${shortDate(p.dueDate)}</td></tr>`,
    )}</tbody>
  </table></div>
</section>`;
      return sendPage(event, signedInPage({ title: "Returns", section: "returns", session: current, body }));
    },
    session,
  );

  app.get(
    "/dashboard/returns/:period",
    async (event) => {
      const current = event.context.session!;
      const worksheet = await worksheetOr404(deps, current.organizationId, ledgerOf(event), event.context.params?.period ?? "");
      return sendPage(event, signedInPage({ title: `Return ${worksheet.period}`, section: "returns", session: current, body: worksheetBody(worksheet) }));
    },
    session,
  );

  app.get(
    "/dashboard/returns/:period/download",
    async (event) => {
      const current = event.context.session!;
      const worksheet = await worksheetOr404(deps, current.organizationId, ledgerOf(event), event.context.params?.period ?? "");
      event.res.headers.set("content-type", "text/csv; charset=utf-8");
      event.res.headers.set("content-disposition", `attachment; filename="${worksheetFileName(worksheet)}"`);
      event.res.headers.set("cache-control", "no-store");
      event.res.headers.set("x-content-type-options", "nosniff");
      return worksheetCsv(worksheet);
    },
    session,
  );
}
