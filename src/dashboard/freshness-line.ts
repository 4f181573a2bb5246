/**
 * The data status (src/freshness/data-status.ts) in one line for the signed-in organization: how
 * far its rates are confirmed and when they were last reconciled, and how old the boundaries
 * are, so an integrator knows from which date answers carry `beyond_confirmed`.
 */
import { ago, type DataStatus } from "../freshness/data-status.ts";
import { html, type SafeHtml } from "./html.ts";
import { badge, shortDate } from "./layout.ts";

export function freshnessLine(status: DataStatus): SafeHtml {
  const { confirmed_through: confirmed, last_reconciled: reconciled, stale } = status.rates;
  const { counties, places, zctas, boundary_file: file } = status.boundaries;
  const polygons = counties && places ? html`TIGER/Line ${counties.vintage} counties, ${places.vintage} places` : "no county and place polygons";
  // Answers for later dates carry beyond_confirmed; the title says so without lengthening the line.
  const beyondTitle = `Answers for dates after ${confirmed.date} carry beyond_confirmed.`;
  return html`<p class="data-freshness" id="data-freshness"><strong>Data:</strong> <span title="${beyondTitle}">rates confirmed through ${shortDate(confirmed.date)} (${ago(confirmed.age_days)})</span> · last reconciled ${shortDate(reconciled.date)} (${ago(reconciled.age_days)})${
    stale ? html` ${badge("amber", "Stale")}` : ""
  } · boundaries: ${polygons}, ${zctas.vintage} ZIP areas · ${file ? html`state boundary file ${file.version} (imported ${ago(file.age_days)})` : "no state boundary file"}</p>`;
}
