/** Settings: the organization's name and its filing frequency (which drives filing.due reminders). */
import type { H3 } from "h3";
import { periodDueIn } from "../../jobs/filing-reminders.ts";
import { dateInOhio } from "../../rates/calendar.ts";
import type { FilingFrequency } from "../../store/database.ts";
import { setFilingFrequency, setOrganizationName } from "../../store/organizations.repository.ts";
import type { SessionView } from "../../store/sessions.repository.ts";
import { organizationNameProblem } from "../accounts.ts";
import { assertSessionToken } from "../csrf.ts";
import type { DashboardDeps } from "../deps.ts";
import { html, type HtmlValue } from "../html.ts";
import { badge, csrfField, notice, shortDate, signedInPage, textField } from "../layout.ts";
import { field, readForm, redirectTo, sendPage } from "../respond.ts";
import { requireSession } from "../session.ts";
import { dayLabel } from "../usage-chart.ts";

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
  frequency?: FilingFrequency;
  error?: string | null;
  message?: HtmlValue;
}

function settingsPage(session: SessionView, today: string, view: SettingsView) {
  const frequency = view.frequency ?? session.filingFrequency;
  const due = nextDue(session.filingFrequency, today);
  const option = (value: FilingFrequency, title: string, text: string) =>
    html`<label class="choice"><input type="radio" name="filing_frequency" value="${value}"${frequency === value ? html` checked` : ""}> <span><strong>${title}</strong><br><span class="hint">${text}</span></span></label>`;
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
    ${textField({ name: "name", label: "Organization name", value: view.name ?? session.organizationName, required: true, maxlength: 100, autocomplete: "organization", error: view.error })}
    <fieldset class="field">
      <legend>Sales tax filing frequency</legend>
      <p class="hint">Ohio returns are due on the 23rd of the month after each period. Webhooks subscribed to <code>filing.due</code> are reminded 7 days and 1 day before.</p>
      <div class="choices">
        ${option("monthly", "Monthly", "A return for every month.")}
        ${option("semiannual", "Semiannual", "January–June (due July 23) and July–December (due January 23).")}
      </div>
    </fieldset>
    <div><button class="btn btn-primary" type="submit">Save changes</button></div>
  </form>
</section>
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

export function settingsRoutes(app: H3, deps: DashboardDeps): void {
  const signedIn = { middleware: [requireSession(deps)] };

  app.get(
    "/dashboard/settings",
    (event) => {
      const message = event.url.searchParams.has("saved") ? notice("success", "Settings saved.") : undefined;
      return sendPage(event, settingsPage(event.context.session!, dateInOhio(deps.now()), { message }));
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
      const nameIssue = organizationNameProblem(name);
      if (nameIssue || (frequency !== "monthly" && frequency !== "semiannual")) {
        const error = nameIssue;
        const message = notice("danger", nameIssue ? "Please correct the highlighted field." : "Choose monthly or semiannual filing.");
        return sendPage(event, settingsPage(session, today, { name, error, message }), 422);
      }
      await setOrganizationName(deps.db, session.organizationId, name);
      await setFilingFrequency(deps.db, session.organizationId, frequency);
      return redirectTo(event, "/dashboard/settings?saved=1");
    },
    signedIn,
  );
}
