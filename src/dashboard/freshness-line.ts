/**
 * The data status (src/freshness/data-status.ts) for the signed-in organization, said first in a
 * customer's words (customer-status.ts: what it means for their answers, whether they must act),
 * with the operator's detail (reconciliation dates, boundary vintages, the state's boundary file)
 * in a <details> one click away, beside a link to the status page.
 */
import { ago, type DataStatus } from "../freshness/data-status.ts";
import { ratesVerdictOf } from "./customer-status.ts";
import { html, type SafeHtml } from "./html.ts";
import { badge, shortDate } from "./layout.ts";

export function freshnessLine(status: DataStatus): SafeHtml {
  const { confirmed_through: confirmed, last_reconciled: reconciled } = status.rates;
  const { counties, places, zctas, boundary_file: file, polygons_unavailable: missing } = status.boundaries;
  const verdict = ratesVerdictOf(status);
  const polygons = counties && places ? html`TIGER/Line ${counties.vintage} counties, ${places.vintage} places` : "no county and place polygons";
  return html`<div class="data-freshness" id="data-freshness">
  <p class="data-verdict">${badge(verdict.tone, verdict.label)} ${verdict.meaning}${
    missing ? html` Street address and point lookups are not available on this service yet (they answer 503); county and ZIP lookups work.` : ""
  }</p>
  <details class="data-details">
    <summary>Data details</summary>
    <p>Rates confirmed through ${shortDate(confirmed.date)} (${ago(confirmed.age_days)}) · last checked against the state's rate file (reconciled) ${shortDate(reconciled.date)} (${ago(reconciled.age_days)}) · boundaries: ${polygons}, ${zctas.vintage} ZIP areas · ${
      file ? html`state boundary file ${file.version} (imported ${ago(file.age_days)})` : "no state boundary file"
    }. <a href="/status">Service status</a></p>
  </details>
</div>`;
}
