/**
 * Webhooks, as the organization manages them in the dashboard: register (URL, events, the signing
 * secret shown once), send a test event, rotate the secret, delete, and each endpoint's recent
 * delivery attempts, with a Redeliver button on those that failed. The actions and their rules
 * are the webhook service's (src/webhooks/webhook-service.ts), the same the API calls; this file
 * only turns forms into those calls and their answers and refusals into pages.
 *
 * The dashboard acts for the organization rather than for a key, so the form asks which
 * environment the endpoint belongs to. A test endpoint follows the rules of one registered with
 * a tax_test_ key (plain http allowed to loopback, for local receivers); a live endpoint must be
 * https and reach only public addresses.
 */
import { getRouterParam, type H3 } from "h3";
import type { KeyEnv } from "../../store/database.ts";
import type { DeliveryWithAttempts } from "../../store/deliveries.repository.ts";
import type { SessionView } from "../../store/sessions.repository.ts";
import type { Webhook } from "../../store/webhooks.tables.ts";
import { SUBSCRIBABLE_EVENTS } from "../../webhooks/event-types.ts";
import { WebhookRefusal } from "../../webhooks/webhook-service.ts";
import { assertSessionToken } from "../csrf.ts";
import type { DashboardDeps } from "../deps.ts";
import { html, type HtmlValue, type SafeHtml } from "../html.ts";
import { badge, breakableUrl, csrfField, dateTime, notice, problemSummary, shortDate, signedInPage, textField } from "../layout.ts";
import { dashboardError, field, readForm, redirectTo, sendPage } from "../respond.ts";
import { requireSession } from "../session.ts";
import { ONCE_FIELD } from "../submit-once.ts";

const EVENT_HELP: Record<(typeof SUBSCRIBABLE_EVENTS)[number], string> = {
  "rate.changed": "A county's rate change takes effect",
  "rate.announced": "The state announces an upcoming rate change",
  "certificate.expiring": "An exemption certificate expires in 30 or 7 days",
  "filing.due": "Your sales tax return is due in 7 days or 1 day",
};

const RECENT_DELIVERIES = 25;

function eventBadges(events: string[]): SafeHtml {
  if (events.includes("*")) return html`<span class="event-list">${badge("blue", "All events")}</span>`;
  return html`<span class="event-list">${events.map((e) => html`<code>${e}</code>`)}</span>`;
}

/** Failed attempts in a row from which an endpoint reads as failing rather than having had a blip. */
const FAILING_AFTER = 3;

/**
 * The endpoint's health from its record of answers (webhooks.consecutive_failures, last_success_at):
 * "Active" only while its receiver answers; an endpoint whose attempts keep failing says so.
 */
function statusBadge(row: Webhook): SafeHtml {
  if (row.status !== "active") return badge("red", "Disabled");
  const failures = row.consecutive_failures;
  const attempts = failures === 1 ? "the last attempt" : `the last ${failures} attempts`;
  const since = row.last_success_at ? html`; last delivered ${dateTime(row.last_success_at)}` : "; none delivered yet";
  if (failures >= FAILING_AFTER) return html`${badge("red", "Failing")} <span class="hint health-note">${attempts} failed${since}</span>`;
  if (failures > 0) return html`${badge("amber", "Last attempt failed")} <span class="hint health-note">${attempts} failed${since}</span>`;
  return badge("green", "Active");
}

function envBadge(env: KeyEnv): SafeHtml {
  return env === "live" ? badge("blue", "Live") : badge("amber", "Test");
}

interface RegisterView {
  /** The one-time token of the form (submit-once.ts). */
  once: string;
  url?: string;
  env?: KeyEnv;
  events?: string[];
  errors?: { env?: string; url?: string; events?: string };
}

function registerForm(session: SessionView, view: RegisterView): SafeHtml {
  const env = view.env ?? "live";
  const events = view.events ?? ["*"];
  const errors = view.errors ?? {};
  // The first wrong field takes focus (the order of the form); each group's inputs carry its error.
  const first = errors.url ? "url" : errors.env ? "env" : errors.events ? "events" : null;
  const invalid = (group: "env" | "events") => (errors[group] ? html` aria-invalid="true" aria-describedby="${group}-error"` : "");
  const checked = (name: string) => (events.includes(name) ? html` checked` : "");
  return html`<section class="card" aria-labelledby="register-heading">
  <h2 id="register-heading">Add an endpoint</h2>
  <form method="post" action="/dashboard/webhooks" class="stack" novalidate>
    ${csrfField(session)}
    <input type="hidden" name="${ONCE_FIELD}" value="${view.once}">
    ${textField({
      name: "url",
      label: "Endpoint URL",
      type: "url",
      value: view.url ?? "",
      required: true,
      maxlength: 2048,
      hint: "Where Buckeye POSTs events, e.g. https://example.com/hooks/tax. Live endpoints must use https.",
      error: errors.url,
      autofocus: first === "url",
    })}
    <fieldset class="field${errors.env ? " field-invalid" : ""}">
      <legend>Environment</legend>
      <div class="choices">
        <label class="choice"><input type="radio" name="env" value="live" id="f-env"${env === "live" ? html` checked` : ""}${invalid("env")}${first === "env" ? html` autofocus` : ""}> <span><strong>Live</strong><br><span class="hint">https to a public address</span></span></label>
        <label class="choice"><input type="radio" name="env" value="test"${env === "test" ? html` checked` : ""}${invalid("env")}> <span><strong>Test</strong><br><span class="hint">Also plain http to localhost, for a receiver on your machine</span></span></label>
      </div>
      ${errors.env ? html`<p class="field-error" id="env-error">${errors.env}</p>` : ""}
    </fieldset>
    <fieldset class="field${errors.events ? " field-invalid" : ""}">
      <legend>Events to send</legend>
      <div class="checks">
        <label class="check"><input type="checkbox" name="events" value="*" id="f-events"${checked("*")}${invalid("events")}${first === "events" ? html` autofocus` : ""}> <span><strong>All events</strong>, including ones added later</span></label>
        ${SUBSCRIBABLE_EVENTS.map(
          (name) => html`<label class="check"><input type="checkbox" name="events" value="${name}"${checked(name)}${invalid("events")}> <span><code>${name}</code> <span class="hint">${EVENT_HELP[name]}</span></span></label>`,
        )}
      </div>
      ${errors.events ? html`<p class="field-error" id="events-error">${errors.events}</p>` : ""}
    </fieldset>
    <div><button class="btn btn-primary" type="submit">Add endpoint</button></div>
  </form>
</section>`;
}

function webhookList(rows: Webhook[]): SafeHtml {
  if (rows.length === 0) return html`<p class="empty">No endpoints yet. Add one below to be told when Ohio rates change.</p>`;
  return html`<div class="table-wrap"><table class="table responsive">
  <caption class="visually-hidden">Webhook endpoints of this organization</caption>
  <thead><tr><th scope="col">Endpoint</th><th scope="col">Environment</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${rows.map((row) => {
    const events = JSON.parse(row.events) as string[];
    return html`<tr>
    <td data-label="Endpoint"><span class="endpoint-url">${breakableUrl(row.url)}</span></td>
    <td data-label="Environment">${envBadge(row.env)}</td>
    <td data-label="Events">${eventBadges(events)}</td>
    <td data-label="Status">${statusBadge(row)}</td>
    <td data-label="Created">${shortDate(row.created_at)}</td>
    <td class="cell-actions"><a class="btn btn-secondary btn-small" href="/dashboard/webhooks/${row.id}" aria-label="Manage endpoint ${row.url}">Manage</a></td>
  </tr>`;
  })}</tbody>
</table></div>`;
}

const SIGNING_GUIDE = html`<section class="card guide" aria-labelledby="verify-heading">
  <h2 id="verify-heading">Verifying deliveries</h2>
  <p>Every delivery is a JSON POST with <code>X-Webhook-ID</code>, <code>X-Webhook-Timestamp</code> and <code>X-Webhook-Signature: t=&lt;timestamp&gt;,v1=&lt;hex&gt;</code>. Compute HMAC-SHA256 of <code>&lt;timestamp&gt;.&lt;raw body&gt;</code> with your signing secret and compare it with <code>v1</code>; Stripe’s webhook libraries verify this format as they are. Answer with any 2xx within 10 seconds; failed deliveries are retried for about three days, and the same event keeps its <code>X-Webhook-ID</code>, so drop duplicates by it.</p>
</section>`;

function listPage(session: SessionView, rows: Webhook[], view: RegisterView & { message?: HtmlValue }) {
  return signedInPage({
    title: "Webhooks",
    section: "webhooks",
    session,
    body: html`<div class="page-head">
  <h1>Webhooks</h1>
  <p class="lede">Buckeye POSTs signed events to your endpoints when rates change, when changes are announced and before filings are due.</p>
</div>
${view.message ?? ""}
<section class="card" aria-labelledby="endpoints-heading">
  <h2 id="endpoints-heading">Endpoints</h2>
  ${webhookList(rows)}
</section>
${registerForm(session, view)}
${SIGNING_GUIDE}`,
  });
}

function secretPanel(secret: string, heading: string, extra: HtmlValue): SafeHtml {
  return html`<section class="card reveal" aria-labelledby="secret-heading">
  <h2 id="secret-heading">${heading}</h2>
  ${notice("warning", "Copy this signing secret now. It will not be shown again.", html`<p>Your receiver needs it to check each delivery’s <code>X-Webhook-Signature</code>. ${extra}</p>`)}
  <div class="secret">
    <code id="signing-secret" class="secret-value">${secret}</code>
    <button class="btn btn-secondary" type="button" data-copy="signing-secret" hidden>Copy secret</button>
  </div>
  <p class="copy-status" role="status" aria-live="polite"></p>
</section>`;
}

/** Shown on the newest row of a delivery that failed or was cancelled: replays its event. */
function redeliverButton(session: SessionView, delivery: DeliveryWithAttempts): HtmlValue {
  if (delivery.status !== "failed" && delivery.status !== "cancelled") return "";
  return html`<form method="post" action="/dashboard/webhooks/${delivery.webhook_id}/deliveries/${delivery.id}/redeliver" class="inline-form">${csrfField(session)}<button class="btn btn-secondary btn-small" type="submit" aria-label="Redeliver this ${delivery.event_type} event">Redeliver</button></form>`;
}

/** Pretty JSON when it parses (the payload always does), else the text as it came. */
function readable(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** "2nd delivery" and on: a redelivery (or a recovery) of an event this endpoint was sent before. */
function deliveryNote(delivery: DeliveryWithAttempts): HtmlValue {
  const n = delivery.event_delivery_number ?? 1;
  return n > 1 ? html`<br>${badge("blue", "Redelivery")} <span class="hint">delivery ${n} of this event</span>` : "";
}

/** What was sent and what came back, folded: the payload, and the receiver's status and the start of its answer. */
function exchange(delivery: DeliveryWithAttempts, attempt: DeliveryWithAttempts["attempt_log"][number] | null): SafeHtml {
  const answer =
    attempt === null
      ? html`<p class="hint">Not sent yet.</p>`
      : attempt.status_code === null
        ? html`<p class="hint">No HTTP answer: ${attempt.error ?? "none"}.</p>`
        : html`<p>HTTP ${attempt.status_code}${
            attempt.response_excerpt === null
              ? html` <span class="hint">(its body was not recorded: this attempt predates the log keeping answers)</span>`
              : attempt.response_excerpt === ""
                ? html` <span class="hint">with an empty body</span>`
                : ""
          }</p>${
            attempt.response_excerpt
              ? html`<pre class="exchange-body">${attempt.response_excerpt}</pre>${attempt.response_truncated ? html`<p class="hint">The first 2 KB of the answer; the rest was not kept.</p>` : ""}`
              : ""
          }`;
  return html`<details class="exchange"><summary>Payload and response</summary>
    <h3>Sent</h3>
    <p class="exchange-note">Event <code>${delivery.event_id}</code> (the <code>X-Webhook-ID</code> header)</p>
    <pre class="exchange-body">${readable(delivery.payload ?? "")}</pre>
    <h3>Received</h3>
    ${answer}
  </details>`;
}

function attemptRows(session: SessionView, deliveries: DeliveryWithAttempts[]): SafeHtml[] {
  const rows: SafeHtml[] = [];
  for (const delivery of deliveries) {
    if (delivery.attempt_log.length === 0) {
      rows.push(html`<tr>
      <td data-label="Time">${dateTime(delivery.created_at)}</td>
      <td data-label="Event"><code>${delivery.event_type}</code></td>
      <td data-label="Status code" class="num">–</td>
      <td data-label="Latency" class="num">–</td>
      <td data-label="Attempt" class="num">–${deliveryNote(delivery)}</td>
      <td data-label="Result"><div>${delivery.status === "pending" ? badge("gray", "Queued") : badge("gray", delivery.status === "cancelled" ? "Cancelled" : delivery.status)}${redeliverButton(session, delivery)}</div></td>
      <td data-label="Sent and received">${exchange(delivery, null)}</td>
    </tr>`);
      continue;
    }
    for (const [index, attempt] of [...delivery.attempt_log].reverse().entries()) {
      const result =
        attempt.outcome === "delivered"
          ? badge("green", "Delivered")
          : attempt.outcome === "retry"
            ? badge("amber", "Will retry")
            : badge("red", attempt.outcome === "gone" ? "Gone (410)" : "Failed");
      rows.push(html`<tr>
      <td data-label="Time">${dateTime(attempt.attempted_at)}</td>
      <td data-label="Event"><code>${delivery.event_type}</code></td>
      <td data-label="Status code" class="num">${attempt.status_code ?? html`<span class="muted">none</span>`}</td>
      <td data-label="Latency" class="num">${attempt.latency_ms.toLocaleString("en-US")} ms</td>
      <td data-label="Attempt" class="num">${(delivery.earlier_attempts ?? 0) + attempt.number}${deliveryNote(delivery)}</td>
      <td data-label="Result"><div>${result}${attempt.error && attempt.outcome !== "delivered" ? html`<br><span class="hint">${attempt.error}</span>` : ""}${index === 0 ? redeliverButton(session, delivery) : ""}</div></td>
      <td data-label="Sent and received">${exchange(delivery, attempt)}</td>
    </tr>`);
    }
  }
  return rows;
}

function deliveriesTable(session: SessionView, deliveries: DeliveryWithAttempts[]): SafeHtml {
  if (deliveries.length === 0) return html`<p class="empty">Nothing sent yet. Send a test event to check your receiver.</p>`;
  return html`<div class="table-wrap"><table class="table responsive deliveries">
  <caption class="visually-hidden">Recent delivery attempts to this endpoint, newest first</caption>
  <thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col" class="num">Status code</th><th scope="col" class="num">Latency</th><th scope="col" class="num">Attempt of this event</th><th scope="col">Result</th><th scope="col">Sent and received</th></tr></thead>
  <tbody>${attemptRows(session, deliveries)}</tbody>
</table></div>`;
}

interface DetailView {
  secret?: { value: string; heading: string; extra: HtmlValue };
  message?: HtmlValue;
}

function detailPage(session: SessionView, row: Webhook, deliveries: DeliveryWithAttempts[], now: Date, view: DetailView) {
  const events = JSON.parse(row.events) as string[];
  const rotating = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now.toISOString();
  return signedInPage({
    title: "Webhook endpoint",
    section: "webhooks",
    session,
    body: html`<div class="page-head">
  <p><a href="/dashboard/webhooks">← All endpoints</a></p>
  <h1>Webhook endpoint</h1>
  <p class="endpoint-url endpoint-title">${breakableUrl(row.url)}</p>
</div>
${view.message ?? ""}
${view.secret ? secretPanel(view.secret.value, view.secret.heading, view.secret.extra) : ""}
<section class="card" aria-labelledby="details-heading">
  <h2 id="details-heading">Endpoint</h2>
  <dl class="facts">
    <div><dt>Status</dt><dd>${statusBadge(row)}${row.status === "disabled" && row.disabled_reason ? html`<br><span class="hint">${row.disabled_reason}</span>` : ""}</dd></div>
    <div><dt>Environment</dt><dd>${envBadge(row.env)}</dd></div>
    <div><dt>Events</dt><dd>${eventBadges(events)}</dd></div>
    <div><dt>Created</dt><dd>${shortDate(row.created_at)}</dd></div>
    <div><dt>Endpoint ID</dt><dd><code>${row.id}</code></dd></div>
    ${rotating ? html`<div><dt>Previous secret</dt><dd>Still signs until ${dateTime(row.previous_secret_expires_at!)}</dd></div>` : ""}
  </dl>
  <div class="actions">
    <form method="post" action="/dashboard/webhooks/${row.id}/test">${csrfField(session)}<button class="btn btn-primary" type="submit">Send test event</button></form>
    ${
      row.status === "disabled"
        ? html`<form method="post" action="/dashboard/webhooks/${row.id}/enable">${csrfField(session)}<button class="btn btn-secondary" type="submit">Re-enable</button></form>`
        : ""
    }
    <a class="btn btn-secondary" href="/dashboard/webhooks/${row.id}/rotate">Rotate secret</a>
    <a class="btn btn-danger-quiet" href="/dashboard/webhooks/${row.id}/delete">Delete endpoint</a>
  </div>
</section>
<section class="card" aria-labelledby="deliveries-heading">
  <div class="card-head">
    <h2 id="deliveries-heading">Recent deliveries</h2>
    <a class="btn btn-quiet btn-small" href="/dashboard/webhooks/${row.id}">Refresh</a>
  </div>
  ${deliveriesTable(session, deliveries)}
</section>`,
  });
}

function confirmPage(session: SessionView, row: Webhook, action: "rotate" | "delete") {
  const rotate = action === "rotate";
  return signedInPage({
    title: rotate ? "Rotate signing secret" : "Delete endpoint",
    section: "webhooks",
    session,
    body: html`<section class="card confirm" aria-labelledby="confirm-heading">
  <h1 id="confirm-heading">${rotate ? "Rotate the signing secret?" : "Delete this endpoint?"}</h1>
  <p class="endpoint-url">${breakableUrl(row.url)}</p>
  ${
    rotate
      ? notice(
          "info",
          "Both secrets sign for 24 hours.",
          html`<p>You get a new secret now. For the next 24 hours every delivery carries two <code>v1=</code> signatures, one per secret, so your receiver keeps working while you deploy the new secret. After that only the new one signs.</p>`,
        )
      : notice("warning", "This cannot be undone.", html`<p>Events stop going to this URL at once, queued deliveries are dropped, and its delivery history is deleted.</p>`)
  }
  <form method="post" action="/dashboard/webhooks/${row.id}/${action}" class="actions">
    ${csrfField(session)}
    <button class="btn ${rotate ? "btn-primary" : "btn-danger"}" type="submit">${rotate ? "Rotate secret" : "Delete endpoint"}</button>
    <a class="btn btn-secondary" href="/dashboard/webhooks/${row.id}">Cancel</a>
  </form>
</section>`,
  });
}

/** The chosen events: "*" alone when "All events" is ticked. */
function chosenEvents(form: URLSearchParams): string[] {
  const events = [...new Set(form.getAll("events"))];
  return events.includes("*") ? ["*"] : events;
}

const LIST_MESSAGES: Record<string, () => HtmlValue> = {
  deleted: () => notice("success", "Endpoint deleted."),
  repeated: () =>
    notice(
      "warning",
      "That form was already submitted, so no second endpoint was added.",
      html`<p>Its signing secret was shown once. If you did not copy it, open the endpoint and rotate its secret.</p>`,
    ),
};

const DETAIL_MESSAGES: Record<string, () => HtmlValue> = {
  sent: () =>
    notice("success", "Test event queued.", html`<p>A <code>webhook.test</code> event is on its way; its attempt appears under Recent deliveries within seconds. Use Refresh to update the list.</p>`),
  enabled: () => notice("success", "Endpoint re-enabled.", html`<p>New events are delivered to it again.</p>`),
  redelivered: () =>
    notice(
      "success",
      "Event queued again.",
      html`<p>It goes out with the same <code>X-Webhook-ID</code>, so a receiver that already has it can drop the copy. Use Refresh to follow the attempt.</p>`,
    ),
  pending: () => notice("info", "That event is already queued for this endpoint.", html`<p>Nothing more was queued. Its next attempt appears under Recent deliveries.</p>`),
  disabled: () => notice("warning", "The endpoint is disabled.", html`<p>Re-enable it first, then redeliver the event.</p>`),
};

/** The refusal of the webhook service a page answers in its own way, or null for any other error. */
function refusalOf(error: unknown, code: WebhookRefusal["refusal"]["code"]): WebhookRefusal | null {
  return error instanceof WebhookRefusal && error.refusal.code === code ? error : null;
}

export function webhookRoutes(app: H3, deps: DashboardDeps): void {
  const signedIn = { middleware: [requireSession(deps)] };
  const { webhooks } = deps;

  /** The organization's webhook; a missing one is the dashboard's 404 page. */
  const requireWebhook = async (organizationId: string, id: string) => {
    try {
      return await webhooks.find(organizationId, id);
    } catch (error) {
      if (refusalOf(error, "webhook-not-found")) throw dashboardError(404, "Endpoint not found", "There is no such webhook endpoint in your organization. It may have been deleted.");
      throw error;
    }
  };
  const showDetail = async (session: SessionView, row: Webhook, view: DetailView) =>
    detailPage(session, row, (await webhooks.deliveries(session.organizationId, row.id, RECENT_DELIVERIES)).deliveries, deps.now(), view);

  app.get(
    "/dashboard/webhooks",
    async (event) => {
      const session = event.context.session!;
      const flag = ["deleted", "repeated"].find((name) => event.url.searchParams.has(name)) ?? "";
      const rows = await webhooks.list(session.organizationId);
      return sendPage(event, listPage(session, rows, { once: deps.once.newToken(), message: LIST_MESSAGES[flag]?.() }));
    },
    signedIn,
  );

  app.post(
    "/dashboard/webhooks",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const form = await readForm(event);
      const url = field(form, "url");
      const env = field(form, "env");
      const events = chosenEvents(form);
      const view: RegisterView = { once: deps.once.newToken(), url, env: env === "test" ? "test" : "live", events };
      const errors: NonNullable<RegisterView["errors"]> = {};
      const refuse = async () => {
        const rows = await webhooks.list(session.organizationId);
        const labels = { url: "Endpoint URL", env: "Environment", events: "Events to send" } as const;
        const problems = (["url", "env", "events"] as const).flatMap((name) => (errors[name] ? [{ id: `f-${name}`, label: labels[name], message: errors[name] }] : []));
        return sendPage(event, listPage(session, rows, { ...view, errors, message: problemSummary("The endpoint was not added.", problems) }), 422);
      };
      // The rules are the webhook service's; this only words its reasons for the form's fields.
      for (const problem of await webhooks.problemsWith(env, { url, events })) {
        const name = problem.name === "env" || problem.name === "events" ? problem.name : "url";
        errors[name] ??=
          name === "env" ? "Choose Live or Test." : name === "events" && events.length === 0 ? "Choose at least one event, or All events." : `This ${name === "url" ? "URL" : "list"} ${problem.reason}.`;
      }
      if (errors.url || errors.env || errors.events) return refuse();
      if (!(await deps.once.first(session.sessionId, field(form, ONCE_FIELD)))) return redirectTo(event, "/dashboard/webhooks?repeated=1");
      let row: Webhook;
      try {
        row = await webhooks.register(session.organizationId, view.env!, { url, events });
      } catch (error) {
        const full = refusalOf(error, "webhook-limit-reached");
        if (full) {
          const rows = await webhooks.list(session.organizationId);
          const message = notice("danger", "The endpoint was not added.", html`<p>${full.message}</p>`);
          return sendPage(event, listPage(session, rows, { ...view, message }), 409);
        }
        const refused = refusalOf(error, "invalid-url");
        if (!refused || refused.refusal.code !== "invalid-url") throw error;
        errors.url = `This URL ${refused.refusal.problems.map((p) => p.reason).join("; ")}.`;
        return refuse();
      }
      const page = await showDetail(session, row, {
        message: notice("success", "Endpoint added."),
        secret: { value: row.secret, heading: "Your signing secret", extra: "Send a test event below to check your receiver end to end." },
      });
      return sendPage(event, page, 201);
    },
    signedIn,
  );

  app.get(
    "/dashboard/webhooks/:id",
    async (event) => {
      const session = event.context.session!;
      const row = await requireWebhook(session.organizationId, getRouterParam(event, "id") ?? "");
      const flag = Object.keys(DETAIL_MESSAGES).find((name) => event.url.searchParams.has(name)) ?? "";
      return sendPage(event, await showDetail(session, row, { message: DETAIL_MESSAGES[flag]?.() }));
    },
    signedIn,
  );

  app.post(
    "/dashboard/webhooks/:id/test",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const row = await requireWebhook(session.organizationId, getRouterParam(event, "id") ?? "");
      await webhooks.sendTest(session.organizationId, row.id, "A test event sent from the Buckeye dashboard. Verify its signature, then answer 2xx.");
      return redirectTo(event, `/dashboard/webhooks/${row.id}?sent=1`);
    },
    signedIn,
  );

  app.post(
    "/dashboard/webhooks/:id/enable",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const row = await requireWebhook(session.organizationId, getRouterParam(event, "id") ?? "");
      await webhooks.update(session.organizationId, row.env, row.id, { status: "active" });
      return redirectTo(event, `/dashboard/webhooks/${row.id}?enabled=1`);
    },
    signedIn,
  );

  app.post(
    "/dashboard/webhooks/:id/deliveries/:delivery_id/redeliver",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const row = await requireWebhook(session.organizationId, getRouterParam(event, "id") ?? "");
      try {
        await webhooks.redeliver(session.organizationId, row.id, getRouterParam(event, "delivery_id") ?? "");
      } catch (error) {
        if (refusalOf(error, "webhook-disabled")) return redirectTo(event, `/dashboard/webhooks/${row.id}?disabled=1`);
        if (refusalOf(error, "delivery-pending")) return redirectTo(event, `/dashboard/webhooks/${row.id}?pending=1`);
        if (refusalOf(error, "delivery-not-found")) throw dashboardError(404, "Delivery not found", "That delivery is not one of this endpoint's.");
        throw error;
      }
      return redirectTo(event, `/dashboard/webhooks/${row.id}?redelivered=1`);
    },
    signedIn,
  );

  for (const action of ["rotate", "delete"] as const) {
    app.get(
      `/dashboard/webhooks/:id/${action}`,
      async (event) => {
        const session = event.context.session!;
        const row = await requireWebhook(session.organizationId, getRouterParam(event, "id") ?? "");
        return sendPage(event, confirmPage(session, row, action));
      },
      signedIn,
    );
  }

  app.post(
    "/dashboard/webhooks/:id/rotate",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const id = getRouterParam(event, "id") ?? "";
      let row: Webhook;
      try {
        row = await webhooks.rotateSecret(session.organizationId, id);
      } catch (error) {
        if (refusalOf(error, "webhook-not-found")) throw dashboardError(404, "Endpoint not found", "There is no such webhook endpoint in your organization. It may have been deleted.");
        throw error;
      }
      const page = await showDetail(session, row, {
        secret: { value: row.secret, heading: "Your new signing secret", extra: "The previous secret keeps signing alongside it for 24 hours." },
      });
      return sendPage(event, page);
    },
    signedIn,
  );

  app.post(
    "/dashboard/webhooks/:id/delete",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const row = await requireWebhook(session.organizationId, getRouterParam(event, "id") ?? "");
      await webhooks.remove(session.organizationId, row.id);
      return redirectTo(event, "/dashboard/webhooks?deleted=1");
    },
    signedIn,
  );
}
