/**
 * Settings: the organization's name and its filing frequency (which drives filing.due reminders),
 * the signed-in user's password, and, read-only, the organization's limits (an operator sets them,
 * docs/operations/organization-limits.md).
 */
import type { H3 } from "h3";
import { periodDueIn } from "../../scheduled/filing-reminders.ts";
import { dateInOhio } from "../../rates/calendar.ts";
import type { FilingFrequency } from "../../store/database.ts";
import type { SessionView } from "../../store/sessions.repository.ts";
import { AccountError } from "../../accounts/accounts.ts";
import { assertSessionToken } from "../csrf.ts";
import type { DashboardDeps } from "../deps.ts";
import { html, type HtmlValue } from "../html.ts";
import { forgetDevicesBut } from "../../accounts/known-devices.ts";
import { knownDeviceFor } from "../known-device.ts";
import { badge, csrfField, minutes, notice, problemSummary, shortDate, signedInPage, textField } from "../layout.ts";
import { field, readForm, redirectTo, sendPage } from "../respond.ts";
import { requireSession } from "../session.ts";
import { dayLabel } from "../usage-chart.ts";
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE } from "../../accounts/password-policy.ts";
import type { ShownLimit } from "../../accounts/account-service.ts";
import { LIMITS } from "../../organization-limits.ts";

/** The next return due on or after `today` for this frequency (Ohio: the 23rd after the period). */
function nextDue(frequency: FilingFrequency, today: string) {
  const [year, month] = today.split("-").map(Number) as [number, number];
  for (let offset = 0; offset < 13; offset++) {
    const due = periodDueIn(frequency, year + Math.floor((month - 1 + offset) / 12), ((month - 1 + offset) % 12) + 1);
    if (due && due.due_date >= today) return due;
  }
  return undefined;
}

interface SettingsView {
  name?: string;
  frequency?: string;
  errors?: { name?: string; filing_frequency?: string };
  passwordErrors?: { current_password?: string; new_password?: string };
  message?: HtmlValue;
}

/**
 * The organization's limits in its own words: each value, and whether it was set for the
 * organization or is the standard one. In trial, the rate across keys is shared with every other
 * organization in trial unless one was set for it, and batch jobs wait for verification.
 */
function limitsCard(session: SessionView, limits: ShownLimit[]) {
  const trial = session.organizationVerifiedAt === null;
  const note = (limit: ShownLimit) => {
    if (limit.own) return "Set for your organization";
    if (trial && limit.name === "requestsPerSecondPerOrganization") return "Shared by all organizations in trial";
    if (trial && (limit.name === "jobsInFlight" || limit.name === "jobsStored" || limit.name === "rowsPerJob")) return "Once your organization is verified";
    return "Standard";
  };
  return html`<section class="card" aria-labelledby="limits-heading">
  <h2 id="limits-heading">Limits</h2>
  <p class="hint">What your organization may use. To change a limit, contact the operator of this service.</p>
  <div class="table-wrap"><table class="table responsive">
    <caption class="visually-hidden">Your organization's limits</caption>
    <thead><tr><th scope="col">Limit</th><th scope="col" class="num">Value</th><th scope="col">Source</th></tr></thead>
    <tbody>${limits.map(
      (limit) => html`<tr>
      <td data-label="Limit" class="cell-strong">${LIMITS[limit.name].customer}</td>
      <td data-label="Value" class="num">${limit.value.toLocaleString("en-US")} ${LIMITS[limit.name].unit}</td>
      <td data-label="Source">${limit.own ? badge("blue", note(limit)) : note(limit)}</td>
    </tr>`,
    )}</tbody>
  </table></div>
</section>`;
}

function passwordForm(session: SessionView, errors: SettingsView["passwordErrors"] = {}) {
  const focus = errors.current_password ? "current_password" : errors.new_password ? "new_password" : null;
  return html`<section class="card" aria-labelledby="password-heading">
  <h2 id="password-heading">Password</h2>
  <form method="post" action="/dashboard/settings/password" class="stack" novalidate>
    ${csrfField(session)}
    ${textField({ name: "current_password", label: "Current password", type: "password", required: true, autocomplete: "current-password", error: errors.current_password, autofocus: focus === "current_password" })}
    ${textField({
      name: "new_password",
      label: "New password",
      type: "password",
      required: true,
      minlength: MIN_PASSWORD_LENGTH,
      autocomplete: "new-password",
      hint: `${PASSWORD_RULE} Every other device signed in to this account is signed out.`,
      error: errors.new_password,
      autofocus: focus === "new_password",
    })}
    <div><button class="btn btn-primary" type="submit">Change password</button></div>
  </form>
</section>`;
}

function settingsPage(session: SessionView, today: string, limits: ShownLimit[], view: SettingsView) {
  const frequency = view.frequency ?? session.filingFrequency;
  const due = nextDue(session.filingFrequency, today);
  const errors = view.errors ?? {};
  const frequencyError = errors.filing_frequency;
  // The first wrong field takes focus: the name, else the first frequency choice.
  const option = (value: FilingFrequency, title: string, text: string, first = false) =>
    html`<label class="choice"><input type="radio" name="filing_frequency" value="${value}"${first ? html` id="f-filing_frequency"` : ""}${frequency === value ? html` checked` : ""}${frequencyError ? html` aria-invalid="true" aria-describedby="frequency-hint frequency-error"` : ""}${frequencyError && first && !errors.name ? html` autofocus` : ""}> <span><strong>${title}</strong><br><span class="hint">${text}</span></span></label>`;
  return signedInPage({
    title: "Settings",
    section: "settings",
    session,
    body: html`<div class="page-head"><h1>Settings</h1></div>
${view.message ?? ""}
<section class="card" aria-labelledby="org-heading">
  <h2 id="org-heading">Organization</h2>
  <form method="post" action="/dashboard/settings" class="stack" novalidate>
    ${csrfField(session)}
    ${textField({ name: "name", label: "Organization name", value: view.name ?? session.organizationName, required: true, maxlength: 100, autocomplete: "organization", error: errors.name, autofocus: Boolean(errors.name) })}
    <fieldset class="field${frequencyError ? " field-invalid" : ""}">
      <legend>Sales tax filing frequency</legend>
      <p class="hint" id="frequency-hint">Ohio returns are due on the 23rd of the month after each period. Webhooks subscribed to <code>filing.due</code> are reminded 7 days and 1 day before.</p>
      <div class="choices">
        ${option("monthly", "Monthly", "A return for every month.", true)}
        ${option("semiannual", "Semiannual", "January–June (due July 23) and July–December (due January 23).")}
      </div>
      ${frequencyError ? html`<p class="field-error" id="frequency-error">${frequencyError}</p>` : ""}
    </fieldset>
    <div><button class="btn btn-primary" type="submit">Save changes</button></div>
  </form>
</section>
${passwordForm(session, view.passwordErrors)}
${limitsCard(session, limits)}
<section class="card" aria-labelledby="about-heading">
  <h2 id="about-heading">About this account</h2>
  <dl class="facts">
    <div><dt>Organization ID</dt><dd><code>${session.organizationId}</code></dd></div>
    <div><dt>Status</dt><dd>${session.organizationStatus === "active" ? badge("green", "Active") : badge("red", "Suspended")}</dd></div>
    <div><dt>Created</dt><dd>${shortDate(session.organizationCreatedAt)}</dd></div>
    <div><dt>Signed in as</dt><dd>${session.email} (owner)</dd></div>
    ${due ? html`<div><dt>Next return due</dt><dd>${shortDate(`${due.due_date}T12:00:00Z`)}<br><span class="hint">for ${dayLabel(due.period_start)} – ${shortDate(`${due.period_end}T12:00:00Z`)}</span></dd></div>` : ""}
  </dl>
</section>`,
  });
}

const MESSAGES: Record<string, () => HtmlValue> = {
  saved: () => notice("success", "Settings saved."),
  password: () => notice("success", "Password changed.", html`<p>Other devices signed in to this account were signed out.</p>`),
};

/** The organization's limits; its session proves it exists. */
async function limitsOf(deps: DashboardDeps, session: SessionView): Promise<ShownLimit[]> {
  return (await deps.accounts.limits(session.organizationId)) ?? [];
}

export function settingsRoutes(app: H3, deps: DashboardDeps): void {
  const signedIn = { middleware: [requireSession(deps)] };

  app.get(
    "/dashboard/settings",
    async (event) => {
      const flag = Object.keys(MESSAGES).find((name) => event.url.searchParams.has(name)) ?? "";
      const message = MESSAGES[flag]?.();
      return sendPage(event, settingsPage(event.context.session!, dateInOhio(deps.now()), await limitsOf(deps, event.context.session!), { message }));
    },
    signedIn,
  );

  app.post(
    "/dashboard/settings",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const form = await readForm(event);
      const name = field(form, "name");
      const frequency = field(form, "filing_frequency");
      const today = dateInOhio(deps.now());
      try {
        await deps.accounts.updateSettings(session.organizationId, { name, filingFrequency: frequency });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        const labels = { name: ["f-name", "Organization name"], filing_frequency: ["f-filing_frequency", "Sales tax filing frequency"] } as const;
        const errors: NonNullable<SettingsView["errors"]> = {};
        const problems = error.problems.flatMap((p) => {
          if (p.field !== "name" && p.field !== "filing_frequency") return [];
          errors[p.field] = p.message;
          return [{ id: labels[p.field][0], label: labels[p.field][1], message: p.message }];
        });
        return sendPage(event, settingsPage(session, today, await limitsOf(deps, session), { name, frequency, errors, message: problemSummary("Settings were not saved.", problems) }), 422);
      }
      return redirectTo(event, "/dashboard/settings?saved=1");
    },
    signedIn,
  );

  app.post(
    "/dashboard/settings/password",
    async (event) => {
      const session = event.context.session!;
      await assertSessionToken(event, session.csrfToken);
      const form = await readForm(event);
      const today = dateInOhio(deps.now());
      // A wrong current password counts as a failed sign-in: a borrowed session must not become a way to guess it.
      const attempt = { email: session.email, address: deps.clientAddress(event), device: await knownDeviceFor(event, deps, session.email) };
      const wait = await deps.throttle.retryAfterSeconds(attempt);
      if (wait > 0) {
        event.res.headers.set("retry-after", String(wait));
        const message = notice("danger", "Too many wrong passwords.", html`<p>Changing the password is paused for ${minutes(wait)}.</p>`);
        return sendPage(event, settingsPage(session, today, await limitsOf(deps, session), { message }), 429);
      }
      const result = await deps.accounts.changePassword(session, form.get("current_password") ?? "", form.get("new_password") ?? "");
      if (!result.ok) {
        if (result.currentWrong) await deps.throttle.recordFailure(attempt);
        const labels = { current_password: "Current password", new_password: "New password" };
        const message = problemSummary("The password was not changed.", result.problems.map((p) => ({ id: `f-${p.field}`, label: labels[p.field], message: p.message })));
        return sendPage(event, settingsPage(session, today, await limitsOf(deps, session), { passwordErrors: Object.fromEntries(result.problems.map((p) => [p.field, p.message])), message }), 422);
      }
      await forgetDevicesBut(deps.db, session.userId, attempt.device);
      deps.log({ level: "info", msg: "password changed", user_id: session.userId, other_sessions_ended: result.signedOut });
      return redirectTo(event, "/dashboard/settings?password=1#password-heading");
    },
    signedIn,
  );
}
