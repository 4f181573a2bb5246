/**
 * API keys (docs/guides/dashboard.md): the organization's keys by label, environment, public prefix and
 * dates; creating one shows the full key this once; revoking one, after a confirmation, makes
 * the API refuse it on its next request (the API reads key status on every request).
 */
import { getRouterParam, type H3 } from "h3";
import { KeyError, type CreatedKey } from "../../auth/key-service.ts";
import type { ApiKey, KeyEnv } from "../../store/database.ts";
import type { SessionView } from "../../store/sessions.repository.ts";
import { assertSessionToken } from "../csrf.ts";
import type { DataStatus } from "../../freshness/data-status.ts";
import { freshnessLine } from "../freshness-line.ts";
import type { DashboardDeps } from "../deps.ts";
import { html, type HtmlValue } from "../html.ts";
import { badge, csrfField, dateMinute, notice, shortDate, signedInPage, textField } from "../layout.ts";
import { dashboardError, field, readForm, redirectTo, sendPage } from "../respond.ts";
import { requireSession } from "../session.ts";
import { ONCE_FIELD } from "../submit-once.ts";
import { supportContact } from "../support.ts";
import { isSecureRequest } from "../../web/secure-request.ts";

interface KeysView {
  keys: ApiKey[];
  status: DataStatus;
  /** The one-time token of the create form (submit-once.ts). */
  once: string;
  /** Whom a customer in trial asks to be verified (SUPPORT_CONTACT). */
  support: string | null;
  created?: { key: CreatedKey; origin: string };
  label?: string;
  env?: KeyEnv;
  error?: string;
  message?: HtmlValue;
}

function newKeyPanel(key: CreatedKey, origin: string) {
  return html`<section class="card reveal" aria-labelledby="new-key-heading">
  <h2 id="new-key-heading" tabindex="-1" autofocus>Your new ${key.env} key “${key.label}”</h2>
  ${notice(
    "warning",
    "Copy this key now. It will not be shown again.",
    html`<p>Buckeye keeps only a fingerprint of it, so nobody, including us, can show it to you later. Store it in your secrets manager. If it is lost, create a new key and revoke this one.</p>`,
  )}
  <div class="secret">
    <code id="new-key" class="secret-value">${key.key}</code>
    <button class="btn btn-secondary" type="button" data-copy="new-key" hidden>Copy key</button>
  </div>
  <p class="copy-status" role="status" aria-live="polite"></p>
  <p class="hint" id="try-it">Try it, with the key in <code>BUCKEYE_API_KEY</code>:</p>
  <pre class="example" tabindex="0" role="region" aria-labelledby="try-it"><code>curl -H "Authorization: Bearer $BUCKEYE_API_KEY" \\
  "${origin}/api/v1/rates?county=franklin"</code></pre>
</section>`;
}

function createForm(session: SessionView, view: KeysView) {
  const env = view.env ?? "live";
  return html`<section class="card" aria-labelledby="create-heading">
  <h2 id="create-heading">Create a key</h2>
  <form method="post" action="/dashboard/keys" class="stack" novalidate>
    ${csrfField(session)}
    <input type="hidden" name="${ONCE_FIELD}" value="${view.once}">
    ${textField({
      name: "label",
      label: "Label",
      value: view.label ?? "",
      required: true,
      maxlength: 100,
      hint: "Say where the key will be used, e.g. “Checkout service, production”. The label is how you will tell keys apart.",
      error: view.error,
    })}
    <fieldset class="field">
      <legend>Environment</legend>
      <div class="choices">
        <label class="choice"><input type="radio" name="env" value="live"${env === "live" ? html` checked` : ""}> <span><strong>Live</strong> <code>tax_live_</code><br><span class="hint">Production traffic and official filings</span></span></label>
        <label class="choice"><input type="radio" name="env" value="test"${env === "test" ? html` checked` : ""}> <span><strong>Test</strong> <code>tax_test_</code><br><span class="hint">Staging, local development, test pipelines</span></span></label>
      </div>
    </fieldset>
    <div><button class="btn btn-primary" type="submit">Create key</button></div>
  </form>
</section>`;
}

function keysTable(keys: ApiKey[]) {
  if (keys.length === 0) {
    return html`<p class="empty">No keys yet. Create one above to start calling the API.</p>`;
  }
  const sorted = [...keys].sort((a, b) => (a.status === b.status ? b.created_at.localeCompare(a.created_at) : a.status === "active" ? -1 : 1));
  return html`<div class="table-wrap"><table class="table responsive">
  <caption class="visually-hidden">API keys of this organization</caption>
  <thead><tr><th scope="col">Label</th><th scope="col">Environment</th><th scope="col">Public prefix</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>
  ${sorted.map(
    (k) => html`<tr${k.status === "revoked" ? html` class="row-muted"` : ""}>
    <td data-label="Label" class="cell-strong cell-label">${k.label}</td>
    <td data-label="Environment">${k.env === "live" ? badge("blue", "Live") : badge("amber", "Test")}</td>
    <td data-label="Public prefix"><code class="prefix">${k.prefix}…</code></td>
    <td data-label="Created">${shortDate(k.created_at)}</td>
    <td data-label="Last used">${dateMinute(k.last_used_at)}</td>
    <td data-label="Status"><div>${k.status === "active" ? badge("green", "Active") : html`${badge("gray", "Revoked")} <span class="hint">${shortDate(k.revoked_at)}</span>`}</div></td>
    <td class="cell-actions">${
      k.status === "active"
        ? html`<a class="btn btn-danger-quiet btn-small" href="/dashboard/keys/${k.id}/revoke" aria-label="Revoke key ${k.label} (${k.prefix}…)">Revoke</a>`
        : ""
    }</td>
  </tr>`,
  )}
  </tbody>
</table></div>`;
}

/** What an organization made by open sign-up gets until an operator verifies it (docs/guides/dashboard.md, "Trial organizations"). */
function trialNotice(support: string | null) {
  return notice(
    "warning",
    "Your organization is in trial.",
    html`<p>Until Buckeye verifies it, your keys share the request rate of all organizations in trial, batch jobs (<code>POST /api/v1/batches</code>) are refused with <code>403 organization-in-trial</code>, and webhooks get one delivery at a time. Single and inline lookups work. To be verified, ${supportContact(support)}.</p>`,
  );
}

const ROTATION_GUIDE = html`<section class="card guide" aria-labelledby="rotate-heading">
  <h2 id="rotate-heading">Rotating a key without downtime</h2>
  <ol class="steps">
    <li><strong>Create a second key</strong> for the same service, with a label that tells it apart (e.g. “Checkout, 2026 rotation”).</li>
    <li><strong>Deploy it</strong> everywhere the old key is configured.</li>
    <li><strong>Verify traffic on the new key’s prefix</strong>: its “Last used” date above and its line on the <a href="/dashboard/usage">Usage</a> page show requests arriving, and the old key’s stop.</li>
    <li><strong>Revoke the old key.</strong> Any request that still sends it gets <code>401 invalid-api-key</code> immediately.</li>
  </ol>
</section>`;

function keysPage(session: SessionView, view: KeysView) {
  return signedInPage({
    // A page that shows a new key says so in its title, the first thing a screen reader announces.
    title: view.created ? `New key “${view.created.key.label}” · API keys` : view.error ? "Key not created · API keys" : "API keys",
    section: "keys",
    session,
    body: html`<div class="page-head">
  <h1>API keys</h1>
  <p class="lede">Keys authenticate your calls to the Buckeye API: send one as <code>Authorization: Bearer &lt;key&gt;</code>. Each key is identified here by its public prefix, its first 16 characters.</p>
  ${freshnessLine(view.status)}
</div>
${view.message ?? ""}
${session.organizationVerifiedAt === null ? trialNotice(view.support) : ""}
${view.created ? newKeyPanel(view.created.key, view.created.origin) : ""}
${createForm(session, view)}
<section class="card" aria-labelledby="keys-heading">
  <h2 id="keys-heading">Your keys</h2>
  ${keysTable(view.keys)}
</section>
${ROTATION_GUIDE}`,
  });
}

const MESSAGES: Record<string, () => HtmlValue> = {
  welcome: () => notice("success", "Welcome to Buckeye.", html`<p>Your organization is ready. Create your first API key below to start looking up Ohio rates.</p>`),
  revoked: () => notice("success", "Key revoked.", html`<p>Requests that send it now get <code>401 invalid-api-key</code>.</p>`),
  repeated: () =>
    notice(
      "warning",
      "That form was already submitted, so no second key was created.",
      html`<p>The key it created was shown once. If you did not copy it, revoke it below and create another.</p>`,
    ),
};

export function keyRoutes(app: H3, deps: DashboardDeps): void {
  const signedIn = { middleware: [requireSession(deps)] };

  app.get(
    "/dashboard/keys",
    async (event) => {
      const session = event.context.session!;
      const flag = ["welcome", "revoked", "repeated"].find((name) => event.url.searchParams.has(name)) ?? "";
      // "Last used" is how a rotation is verified: write this instance's pending counts first.
      await deps.usage?.flush();
      const [keys, status] = await Promise.all([deps.accounts.listKeys(session.organizationId), deps.dataStatus()]);
      return sendPage(event, keysPage(session, { keys, status, once: deps.once.newToken(), support: deps.supportContact, message: MESSAGES[flag]?.() }));
    },
    signedIn,
  );

  app.post(
    "/dashboard/keys",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const form = await readForm(event);
      const label = field(form, "label");
      const env = field(form, "env");
      const again = async (error: string) =>
        sendPage(event, keysPage(session, { keys: await deps.accounts.listKeys(session.organizationId), status: await deps.dataStatus(), once: deps.once.newToken(), support: deps.supportContact, label, error }), 422);
      if (env !== "live" && env !== "test") return again("Choose Live or Test.");
      if (!label) return again("Enter a label that says where the key will be used.");
      if (!(await deps.once.first(session.sessionId, field(form, ONCE_FIELD)))) return redirectTo(event, "/dashboard/keys?repeated=1");
      let created: CreatedKey;
      try {
        created = await deps.accounts.createKey(session.organizationId, label, env);
      } catch (error) {
        if (error instanceof KeyError) return again(`${error.message[0]!.toUpperCase()}${error.message.slice(1)}.`);
        throw error;
      }
      const [keys, status] = await Promise.all([deps.accounts.listKeys(session.organizationId), deps.dataStatus()]);
      const origin = `${isSecureRequest(event) ? "https" : "http"}://${event.req.headers.get("host") ?? "localhost"}`;
      return sendPage(event, keysPage(session, { keys, status, once: deps.once.newToken(), support: deps.supportContact, created: { key: created, origin } }), 201);
    },
    signedIn,
  );

  const findKey = async (organizationId: string, id: string) => {
    const key = (await deps.accounts.listKeys(organizationId)).find((k) => k.id === id);
    if (!key) throw dashboardError(404, "Key not found", "There is no such key in your organization. It may have been deleted, or the link is wrong.");
    return key;
  };

  app.get(
    "/dashboard/keys/:id/revoke",
    async (event) => {
      const session = event.context.session!;
      const key = await findKey(session.organizationId, getRouterParam(event, "id") ?? "");
      if (key.status !== "active") return redirectTo(event, "/dashboard/keys");
      return sendPage(
        event,
        signedInPage({
          title: `Revoke key “${key.label}” · API keys`,
          section: "keys",
          session,
          body: html`<section class="card confirm" aria-labelledby="confirm-heading">
  <h1 id="confirm-heading">Revoke “${key.label}”?</h1>
  <dl class="facts"><div><dt>Public prefix</dt><dd><code>${key.prefix}…</code></dd></div><div><dt>Environment</dt><dd>${key.env}</dd></div><div><dt>Last used</dt><dd>${dateMinute(key.last_used_at)}</dd></div></dl>
  ${notice("warning", "This cannot be undone.", html`<p>Every request that sends this key will get <code>401 invalid-api-key</code>, starting with the next one. Deploy a replacement key first if anything still uses it.</p>`)}
  <form method="post" action="/dashboard/keys/${key.id}/revoke" class="actions">
    ${csrfField(session)}
    <button class="btn btn-danger" type="submit">Revoke key</button>
    <a class="btn btn-secondary" href="/dashboard/keys">Cancel</a>
  </form>
</section>`,
        }),
      );
    },
    signedIn,
  );

  app.post(
    "/dashboard/keys/:id/revoke",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const key = await findKey(session.organizationId, getRouterParam(event, "id") ?? "");
      await deps.accounts.revokeKey(key.id, session.organizationId);
      return redirectTo(event, "/dashboard/keys?revoked=1");
    },
    signedIn,
  );
}
