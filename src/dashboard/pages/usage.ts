/** Usage: requests per day over the last 30 days, per key, and the rate limit that applies. */
import type { H3 } from "h3";
import { addDays, dateInOhio } from "../../rates/calendar.ts";
import { listUsage } from "../../store/usage.repository.ts";
import type { DashboardDeps } from "../deps.ts";
import { html } from "../html.ts";
import { badge, dateMinute, signedInPage } from "../layout.ts";
import { sendPage } from "../respond.ts";
import { requireSession } from "../session.ts";
import { SERIES_COLOURS, sparkline, stackedDailyChart, swatch, type Series } from "../usage-chart.ts";

const DAYS = 30;

export function usageRoutes(app: H3, deps: DashboardDeps): void {
  app.get(
    "/dashboard/usage",
    async (event) => {
      const session = event.context.session!;
      // Counts reach the database every few seconds; write this instance's now so the page is current.
      await deps.usage?.flush();
      const today = dateInOhio(deps.now());
      const first = addDays(today, -(DAYS - 1));
      const days = Array.from({ length: DAYS }, (_, i) => addDays(first, i));
      const index = new Map(days.map((d, i) => [d, i]));
      const [keys, usage] = await Promise.all([deps.accounts.listKeys(session.organizationId), listUsage(deps.db, session.organizationId, first, today)]);

      const countsByKey = new Map<string, number[]>();
      for (const row of usage) {
        const counts = countsByKey.get(row.keyId) ?? new Array<number>(DAYS).fill(0);
        counts[index.get(row.day)!] = row.count;
        countsByKey.set(row.keyId, counts);
      }
      // Every active key gets a row; a revoked key only if it was used in the window.
      const shown = keys.filter((k) => k.status === "active" || countsByKey.has(k.id));
      const rows = shown.map((key, i) => {
        const counts = countsByKey.get(key.id) ?? new Array<number>(DAYS).fill(0);
        return { key, counts, colour: SERIES_COLOURS[i % SERIES_COLOURS.length]!, total: counts.reduce((a, b) => a + b, 0) };
      });
      const series: Series[] = rows.map((r) => ({ name: `${r.key.label} (${r.key.prefix}…)`, colour: r.colour, counts: r.counts }));
      const total = rows.reduce((sum, r) => sum + r.total, 0);
      const activeKeys = keys.filter((k) => k.status === "active").length;
      // The organization's own rates where an operator set them (docs/operations/organization-limits.md).
      const limits = await deps.accounts.limits(session.organizationId);
      const limit = limits?.find((shown) => shown.name === "requestsPerSecondPerKey")?.value ?? deps.rateLimits.perKey;
      const organizationLimit = limits?.find((shown) => shown.name === "requestsPerSecondPerOrganization")?.value ?? deps.rateLimits.perOrganization;
      const description = `${total.toLocaleString("en-US")} requests from ${days[0]} to ${today} across ${rows.length} keys. The table below lists each key's numbers.`;

      const body = html`<div class="page-head">
  <h1>Usage</h1>
  <p class="lede">Requests your keys made to the API per day (Ohio time), over the last ${DAYS} days.</p>
</div>
<section class="card" aria-labelledby="chart-heading">
  <div class="card-head">
    <h2 id="chart-heading">Requests per day</h2>
    <p class="stat"><span class="stat-value">${total.toLocaleString("en-US")}</span> <span class="stat-label">requests in ${DAYS} days</span></p>
  </div>
  ${total === 0 ? html`<p class="empty">No requests in the last ${DAYS} days. Calls made with your keys appear here within seconds.</p>` : ""}
  ${stackedDailyChart(days, series, description)}
  ${rows.length ? html`<ul class="legend">${rows.map((r) => html`<li>${swatch(r.colour)} ${r.key.label} <code>${r.key.prefix}…</code></li>`)}</ul>` : ""}
</section>
<section class="card" aria-labelledby="by-key-heading">
  <h2 id="by-key-heading">By key</h2>
  ${
    rows.length === 0
      ? html`<p class="empty">No keys yet. <a href="/dashboard/keys">Create a key</a> to start.</p>`
      : html`<div class="table-wrap"><table class="table responsive">
    <caption class="visually-hidden">Requests per key over the last ${DAYS} days</caption>
    <thead><tr><th scope="col">Key</th><th scope="col">Environment</th><th scope="col" class="num">Today</th><th scope="col" class="num">${DAYS} days</th><th scope="col">Daily requests</th><th scope="col">Last used</th></tr></thead>
    <tbody>${rows.map(
      (r) => html`<tr${r.key.status === "revoked" ? html` class="row-muted"` : ""}>
      <td data-label="Key"><div><span class="cell-strong">${swatch(r.colour)} ${r.key.label}</span><br><code class="prefix">${r.key.prefix}…</code>${r.key.status === "revoked" ? html` ${badge("gray", "Revoked")}` : ""}</div></td>
      <td data-label="Environment">${r.key.env === "live" ? badge("blue", "Live") : badge("amber", "Test")}</td>
      <td data-label="Today" class="num">${r.counts[DAYS - 1]!.toLocaleString("en-US")}</td>
      <td data-label="${DAYS} days" class="num">${r.total.toLocaleString("en-US")}</td>
      <td data-label="Daily requests">${sparkline(r.counts, r.colour)}</td>
      <td data-label="Last used">${dateMinute(r.key.last_used_at)}</td>
    </tr>`,
    )}</tbody>
  </table></div>`
  }
</section>
<section class="card" aria-labelledby="limit-heading">
  <h2 id="limit-heading">Rate limit</h2>
  <p class="stat"><span class="stat-value">${limit.toLocaleString("en-US")}</span> <span class="stat-label">requests per second, per API key</span></p>
  <p class="stat"><span class="stat-value">${organizationLimit.toLocaleString("en-US")}</span> <span class="stat-label">requests per second, for your organization across all its keys</span></p>
  <p>Each key may burst to ${limit.toLocaleString("en-US")} requests and sustain ${limit.toLocaleString("en-US")} per second. With ${activeKeys} active ${activeKeys === 1 ? "key" : "keys"}, your organization can make up to ${Math.min(organizationLimit, limit * activeKeys).toLocaleString("en-US")} requests per second in all; more keys do not raise its limit of ${organizationLimit.toLocaleString("en-US")}.</p>
  <p>A request over its key's limit gets <code>429 rate-limit-exceeded</code>, one over the organization's limit <code>429 organization-rate-limit-exceeded</code>, each with a <code>Retry-After</code> header. Every response carries <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>, so a client can slow down before it is refused.</p>
</section>`;
      return sendPage(event, signedInPage({ title: "Usage", section: "usage", session, body }));
    },
    { middleware: [requireSession(deps)] },
  );
}
