/** Usage: requests per day over the last 30 days, per key, and the rate limit that applies. */
import type { H3 } from "h3";
import { addDays, dateInOhio } from "../../rates/calendar.ts";
import { listUsage } from "../../store/usage.repository.ts";
import type { DashboardDeps } from "../deps.ts";
import { html } from "../html.ts";
import { badge, dateMinute, signedInPage } from "../layout.ts";
import { sendPage } from "../respond.ts";
import { requireSession } from "../session.ts";
import type { KeyEnv } from "../../store/database.ts";
import { organizationLimitLabel, rateLimitSentence } from "../rate-limit-text.ts";
import { dayLabel, NARROW, SERIES_COLOURS, sparkline, stackedDailyChart, swatch, WIDE, type Series } from "../usage-chart.ts";

const DAYS = 30;
const ENV_NAMES: Record<KeyEnv, string> = { live: "Live", test: "Test" };

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
      // Colours go to keys with traffic only, in list order, so the few that are drawn get the most distinct ones.
      let nextColour = 0;
      const rows = shown.map((key) => {
        const counts = countsByKey.get(key.id) ?? new Array<number>(DAYS).fill(0);
        const total = counts.reduce((a, b) => a + b, 0);
        const colour = total > 0 ? SERIES_COLOURS[nextColour++ % SERIES_COLOURS.length]! : null;
        return { key, counts, colour, total };
      });
      const byEnv = (env: KeyEnv) => rows.filter((r) => r.key.env === env && r.total > 0);
      const daily = (env: KeyEnv) => days.map((_, i) => byEnv(env).reduce((sum, r) => sum + r.counts[i]!, 0));
      const totals = { live: byEnv("live").reduce((s, r) => s + r.total, 0), test: byEnv("test").reduce((s, r) => s + r.total, 0) };
      const activeKeys = keys.filter((k) => k.status === "active").length;
      // The organization's own rates where an operator set them (docs/operations/organization-limits.md).
      const limits = await deps.accounts.limits(session.organizationId);
      const limit = limits?.find((shown) => shown.name === "requestsPerSecondPerKey")?.value ?? deps.rateLimits.perKey;
      const organizationRate = limits?.find((shown) => shown.name === "requestsPerSecondPerOrganization");
      const organizationLimit = organizationRate?.value ?? deps.rateLimits.perOrganization;
      // As the API decides (src/http/admit-request.ts): in trial, without a rate of its own, the organization draws from the shared trial bucket.
      const sharedByTrials = session.organizationVerifiedAt === null && organizationRate?.own !== true;

      const chartFor = (env: KeyEnv) => {
        const drawn = byEnv(env);
        if (drawn.length === 0) return "";
        const series: Series[] = drawn.map((r) => ({ name: `${r.key.label} (${r.key.prefix}…)`, colour: r.colour!, counts: r.counts }));
        const name = ENV_NAMES[env];
        const text = (size: string) => ({
          id: `chart-${env}-${size}`,
          title: `${name} requests per day, last ${DAYS} days`,
          description: `${totals[env].toLocaleString("en-US")} ${env} requests from ${dayLabel(days[0]!)} to ${dayLabel(today)} across ${drawn.length === 1 ? "1 key" : `${drawn.length} keys`}. The table “Requests per day” below gives each day's numbers.`,
          className: `chart-${size}`,
        });
        return html`<figure class="chart-figure">
    <figcaption><h3>${name} keys</h3> <span class="muted">${totals[env].toLocaleString("en-US")} requests</span></figcaption>
    ${stackedDailyChart(days, series, WIDE, text("wide"))}
    ${stackedDailyChart(days, series, NARROW, text("narrow"))}
    <ul class="legend" aria-label="${name} keys in the chart">${drawn.map((r) => html`<li>${swatch(r.colour!)} <span>${r.key.label}</span> <code>${r.key.prefix}…</code></li>`)}</ul>
  </figure>`;
      };
      const live = daily("live");
      const test = daily("test");
      const dayTable = html`<details class="day-table">
    <summary>Requests per day as a table</summary>
    <div class="table-wrap"><table class="table">
      <caption class="visually-hidden">Requests per day (Ohio dates), live and test keys, newest first</caption>
      <thead><tr><th scope="col">Day</th><th scope="col" class="num">Live</th><th scope="col" class="num">Test</th></tr></thead>
      <tbody>${[...days.keys()].reverse().map(
        (i) => html`<tr><th scope="row"><time datetime="${days[i]!}">${dayLabel(days[i]!)}</time></th><td class="num">${live[i]!.toLocaleString("en-US")}</td><td class="num">${test[i]!.toLocaleString("en-US")}</td></tr>`,
      )}</tbody>
    </table></div>
  </details>`;

      const body = html`<div class="page-head">
  <h1>Usage</h1>
  <p class="lede">Requests your keys made to the API per day, by Ohio calendar day, over the last ${DAYS} days.</p>
</div>
<section class="card" aria-labelledby="chart-heading">
  <div class="card-head">
    <h2 id="chart-heading">Requests per day</h2>
    <p class="stats"><span class="stat"><span class="stat-value">${totals.live.toLocaleString("en-US")}</span> <span class="stat-label">live</span></span> <span class="stat"><span class="stat-value">${totals.test.toLocaleString("en-US")}</span> <span class="stat-label">test requests in ${DAYS} days</span></span></p>
  </div>
  ${
    totals.live + totals.test === 0
      ? html`<p class="empty">No requests in the last ${DAYS} days. Calls made with your keys appear here within seconds.</p>`
      : html`${chartFor("live")}${chartFor("test")}${dayTable}`
  }
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
      <td data-label="Key"><div><span class="cell-strong">${r.colour ? swatch(r.colour) : ""} ${r.key.label}</span><br><code class="prefix">${r.key.prefix}…</code>${r.key.status === "revoked" ? html` ${badge("gray", "Revoked")}` : ""}</div></td>
      <td data-label="Environment">${r.key.env === "live" ? badge("blue", "Live") : badge("amber", "Test")}</td>
      <td data-label="Today" class="num">${r.counts[DAYS - 1]!.toLocaleString("en-US")}</td>
      <td data-label="${DAYS} days" class="num">${r.total.toLocaleString("en-US")}</td>
      <td data-label="Daily requests">${r.colour ? sparkline(r.counts, r.colour) : html`<span class="muted">None</span>`}</td>
      <td data-label="Last used">${dateMinute(r.key.last_used_at)}</td>
    </tr>`,
    )}</tbody>
  </table></div>`
  }
</section>
<section class="card" aria-labelledby="limit-heading">
  <h2 id="limit-heading">Rate limit</h2>
  <p class="stat"><span class="stat-value">${limit.toLocaleString("en-US")}</span> <span class="stat-label">requests per second, per API key</span></p>
  <p class="stat"><span class="stat-value">${organizationLimit.toLocaleString("en-US")}</span> <span class="stat-label">${organizationLimitLabel(sharedByTrials)}</span></p>
  <p>Each key may burst to ${limit.toLocaleString("en-US")} requests and sustain ${limit.toLocaleString("en-US")} per second. ${rateLimitSentence(activeKeys, limit, organizationLimit, sharedByTrials)}</p>
  <p>A request over its key's limit gets <code>429 rate-limit-exceeded</code>, one over the organization's limit <code>429 organization-rate-limit-exceeded</code>, each with a <code>Retry-After</code> header. Every response carries <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>, so a client can slow down before it is refused.</p>
</section>`;
      return sendPage(event, signedInPage({ title: "Usage", section: "usage", session, body }));
    },
    { middleware: [requireSession(deps)] },
  );
}
