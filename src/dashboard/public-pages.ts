/**
 * The two pages outside /dashboard that a browser lands on: `/`, which says what Buckeye is and links
 * to the dashboard, the API reference and the docs, and `/status`, the service's state in a
 * customer's words (customer-status.ts) from the same check GET /readyz reports to operators
 * (src/freshness/readiness.ts). An API client asking `/` for JSON keeps the problem+json 404 it always
 * had: only an Accept that names text/html gets the page.
 */
import type { H3, H3Event } from "h3";
import { REFERENCE_PATH } from "../reference-page/routes.ts";
import { problem } from "../web/problem.ts";
import type { DashboardDeps } from "./deps.ts";
import { overall, statusLines } from "./customer-status.ts";
import { html } from "./html.ts";
import { badge, dateTime, signedOutPage } from "./layout.ts";
import { sendPage } from "./respond.ts";
import { dateInOhio } from "../rates/calendar.ts";

export const STATUS_PATH = "/status";

function wantsHtml(event: H3Event): boolean {
  return /\btext\/html\b/.test(event.req.headers.get("accept") ?? "");
}

const LANDING = signedOutPage(
  "Ohio sales tax rates",
  html`<section class="card auth-card public-card" aria-labelledby="heading">
  <h1 id="heading">Ohio sales tax rates, by API</h1>
  <p>Buckeye answers the statutory Ohio sales tax rate for a county, a ZIP code, a street address or a point, for any date from 2018, one at a time or 100,000 in a batch.</p>
  <ul class="public-links">
    <li><a href="/dashboard">Dashboard</a>: sign up or sign in, create API keys, watch usage, set up webhooks.</li>
    <li><a href="${REFERENCE_PATH}">API reference</a>: every endpoint, with “Try it out”.</li>
    <li><a href="/api/v1/openapi.json">OpenAPI document</a> (JSON), for client generators; the guides are in the <code>docs/</code> folder of Buckeye's source.</li>
    <li><a href="${STATUS_PATH}">Service status</a>: whether every kind of lookup is working, and how current the rates are.</li>
  </ul>
</section>`,
);

export function publicRoutes(app: H3, deps: DashboardDeps): void {
  app.get("/", (event) => {
    event.res.headers.set("vary", "accept");
    if (!wantsHtml(event)) throw problem("not-found", `Nothing is served at /. The API is under /api/v1 (its description: /api/v1/openapi.json); the reference is at ${REFERENCE_PATH}.`);
    return sendPage(event, LANDING);
  });

  app.get(STATUS_PATH, async (event) => {
    const checkedAt = deps.now().toISOString();
    const readiness = await deps.readiness();
    const lines = statusLines(readiness, dateInOhio(deps.now()));
    const head = overall(lines);
    const rec = readiness.reconciliation;
    const geo = readiness.boundaries;
    return sendPage(
      event,
      signedOutPage(
        "Service status",
        html`<section class="card auth-card public-card" aria-labelledby="heading">
  <h1 id="heading">Service status</h1>
  <p class="status-headline">${badge(head.tone, head.label)} ${head.meaning}</p>
  <ul class="status-lines">
    ${lines.map((l) => html`<li><h2>${l.name}</h2><p>${badge(l.verdict.tone, l.verdict.label)} ${l.verdict.meaning}</p></li>`)}
  </ul>
  <p class="hint">Checked ${dateTime(checkedAt)}, when this page was loaded. Reload for a fresh check.</p>
  <details class="data-details">
    <summary>Details for operators</summary>
    <ul>
      <li>Database: ${readiness.database.ok ? "answering" : `unreachable (${readiness.database.error})`}</li>
      <li>Rate tables: ${readiness.rates.counties} of 88 counties, ${readiness.rates.zips} ZIP codes</li>
      <li>Boundary polygons: ${geo.state === "ready" ? `loaded (TIGER/Line ${geo.countyVintage} counties, ${geo.placeVintage} places; ${geo.threads} worker threads)` : geo.state === "loading" ? "loading" : `unavailable: ${geo.reason}`}</li>
      <li>Last successful reconciliation: ${rec.lastReconciled}, ${rec.ageDays} days ago (stale after ${rec.staleAfterDays} days, RECONCILE_STALE_AFTER_DAYS); confirmed through ${rec.confirmedThrough}</li>
    </ul>
    <p>The same check, for load balancers: <a href="/readyz">/readyz</a> (JSON). Liveness: <a href="/healthz">/healthz</a>.</p>
  </details>
  <p><a href="/">Buckeye</a> · <a href="/dashboard">Dashboard</a> · <a href="${REFERENCE_PATH}">API reference</a></p>
</section>`,
      ),
    );
  });
}
