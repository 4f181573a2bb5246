/** Usage: requests per day over the last 30 days, per key and by outcome, and the rate limit that applies. */
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
import { emptyTally, outcomeColumns, outcomeSummary, sumTallies, type Tally } from "../usage-outcomes.ts";
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

      const tallyByKey = new Map<string, Tally[]>();
      for (const row of usage) {
        const tallies = tallyByKey.get(row.keyId) ?? Array.from({ length: DAYS }, emptyTally);
        tallies[index.get(row.day)!] = row;
        tallyByKey.set(row.keyId, tallies);
      }
      // Every active key gets a row; a revoked key only if it was used in the window.
      const shown = keys.filter((k) => k.status === "active" || tallyByKey.has(k.id));
      // Colours go to keys with traffic only, in list order, so the few that are drawn get the most distinct ones.
      let nextColour = 0;
      const rows = shown.map((key) => {
        const tallies = tallyByKey.get(key.id) ?? Array.from({ length: DAYS }, emptyTally);
        const counts = tallies.map((t) => t.total);
        const window = sumTallies(tallies);
        const colour = window.total > 0 ? SERIES_COLOURS[nextColour++ % SERIES_COLOURS.length]! : null;
        return { key, counts, window, colour, total: window.total };
      });
      const byEnv = (env: KeyEnv) => rows.filter((r) => r.key.env === env && r.total > 0);
      const daily = (env: KeyEnv) => days.map((_, i) => sumTallies(byEnv(env).map((r) => tallyByKey.get(r.key.id)![i]!)));
      const windows = { live: sumTallies(byEnv("live").map((r) => r.window)), test: sumTallies(byEnv("test").map((r) => r.window)) };
      const totals = { live: windows.live.total, test: windows.test.total };
      // The column for requests counted before outcomes were recorded, only while such days are in the window.
      const columns = outcomeColumns([windows.live, windows.test]);
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
        const summary = outcomeSummary(windows[env], columns);
        const text = (size: string) => ({
          id: `chart-${env}-${size}`,
          title: `${name} requests per day, last ${DAYS} days`,
          description: `${summary}, from ${dayLabel(days[0]!)} to ${dayLabel(today)}, across ${drawn.length === 1 ? "1 key" : `${drawn.length} keys`}. The table “Requests per day” below gives each day's numbers by outcome.`,
          className: `chart-${size}`,
        });
        return html`<figure class="chart-figure">
    <figcaption><h3>${name} keys</h3> <span class="muted" data-outcomes="${env}">${summary}</span></figcaption>
    ${stackedDailyChart(days, series, WIDE, text("wide"))}
    ${stackedDailyChart(days, series, NARROW, text("narrow"))}
    <ul class="legend" aria-label="${name} keys in the chart">${drawn.map((r) => html`<li>${swatch(r.colour!)} <span>${r.key.label}</span> <code>${r.key.prefix}…</code></li>`)}</ul>
  </figure>`;
      };
      const perDay = { live: daily("live"), test: daily("test") };
      const envs: KeyEnv[] = ["live", "test"];
      const number = (value: number) => value.toLocaleString("en-US");
      const dayTable = html`<details class="day-table">
    <summary>Requests per day as a table</summary>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Requests per day, scrolls sideways on a narrow screen"><table class="table">
      <caption class="visually-hidden">Requests per day (Ohio dates), live and test keys, every request and by outcome, newest first</caption>
      <thead>
        <tr><th scope="col" rowspan="2">Day</th>${envs.map((env) => html`<th scope="colgroup" colspan="${columns.length + 1}" class="env-head">${ENV_NAMES[env]}</th>`)}</tr>
        <tr>${envs.map((env) => html`<th scope="col" class="num" data-env="${env}">All</th>${columns.map((c) => html`<th scope="col" class="num th-wrap" data-env="${env}">${c.label}</th>`)}`)}</tr>
      </thead>
      <tbody>${[...days.keys()].reverse().map(
        (i) => html`<tr><th scope="row"><time datetime="${days[i]!}">${dayLabel(days[i]!)}</time></th>${envs.map(
          (env) => html`<td class="num">${number(perDay[env][i]!.total)}</td>${columns.map((c) => html`<td class="num">${number(perDay[env][i]![c.field])}</td>`)}`,
        )}</tr>`,
      )}</tbody>
    </table></div>
  </details>`;

      const body = html`<div class="page-head">
  <h1>Usage</h1>
  <p class="lede">Requests your keys made to the API per day, by Ohio calendar day, over the last ${DAYS} days: each one whatever its answer, and how many were answered, refused as sent, throttled or failed on our side.</p>
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
      : html`<p>Today and ${DAYS} days count every request made with the key, whatever its answer; the columns after them split the ${DAYS} days by outcome. Requests without a valid key (401) are not counted: there is no key to count them against.</p>
  <dl class="facts outcome-terms">${columns.map((c) => html`<div><dt>${c.label}</dt><dd>${c.meaning}</dd></div>`)}</dl>
  <div class="table-wrap"><table class="table responsive">
    <caption class="visually-hidden">Requests per key over the last ${DAYS} days, every request and by outcome</caption>
    <thead><tr><th scope="col">Key</th><th scope="col" class="num">Today</th><th scope="col" class="num">${DAYS} days</th>${columns.map((c) => html`<th scope="col" class="num th-wrap">${c.label}</th>`)}<th scope="col">Daily requests</th><th scope="col">Last used</th></tr></thead>
    <tbody>${rows.map(
      (r) => html`<tr${r.key.status === "revoked" ? html` class="row-muted"` : ""}>
      <td data-label="Key"><div><span class="cell-strong">${r.colour ? swatch(r.colour) : ""} ${r.key.label}</span><br><code class="prefix">${r.key.prefix}…</code> ${r.key.env === "live" ? badge("blue", "Live") : badge("amber", "Test")}${r.key.status === "revoked" ? html` ${badge("gray", "Revoked")}` : ""}</div></td>
      <td data-label="Today" class="num">${number(r.counts[DAYS - 1]!)}</td>
      <td data-label="${DAYS} days" class="num">${number(r.total)}</td>
      ${columns.map((c) => html`<td data-label="${c.label}" class="num">${number(r.window[c.field])}</td>`)}
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
