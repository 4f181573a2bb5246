/**
 * Forgotten passwords (docs/guides/dashboard.md, "Forgotten passwords"): ask for a link by email,
 * then set a new password through it. The request answers the same whether or not an account has
 * the address, and the lookup and the mail happen after the answer, so neither its words nor its
 * timing tell. Without SMTP_URL the page says resets go through the operator instead.
 */
import type { H3, H3Event } from "h3";
import { emailProblem, normalizeEmail } from "../../accounts/accounts.ts";
import { RESET_TTL_MS } from "../../accounts/password-reset.ts";
import { RESET_MAIL_SPACING_MS } from "../../accounts/reset-throttle.ts";
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE } from "../../accounts/password-policy.ts";
import { resetLink, resetMail } from "../../accounts/reset-mail.ts";
import { assertSignedOutToken, CSRF_FIELD, signedOutToken } from "../csrf.ts";
import type { DashboardDeps } from "../deps.ts";
import { setFlash } from "../flash.ts";
import { html, type HtmlValue } from "../html.ts";
import { deviceToken, setDeviceCookie } from "../known-device.ts";
import { minutes, notice, problemSummary, signedOutPage, textField } from "../layout.ts";
import { field, readForm, redirectTo, sendPage } from "../respond.ts";
import { supportContact } from "../support.ts";

const BACK = html`<p class="auth-switch"><a href="/dashboard/sign-in">Back to sign in</a></p>`;

function card(title: string, body: HtmlValue) {
  return signedOutPage(title, html`<section class="card auth-card" aria-labelledby="heading">
  <h1 id="heading">${title}</h1>
  ${body}
  ${BACK}
</section>`);
}

function notConfigured(deps: DashboardDeps) {
  return card(
    "Reset your password",
    notice(
      "info",
      "Password reset by email is not set up on this server.",
      html`<p>To get a one-time link to set a new password, ${supportContact(deps.supportContact)} and give them your account's email address. They can make the link with <code>buckeye user reset-password &lt;email&gt;</code>.</p>`,
    ),
  );
}

function requestForm(event: H3Event, view: { email?: string; error?: string; message?: HtmlValue }) {
  return card(
    "Reset your password",
    html`${view.message ?? (view.error ? problemSummary("No link was sent.", [{ id: "f-email", label: "Email", message: view.error }]) : "")}
  <p class="lede">Enter your account's email address and we will send it a link to choose a new password. The link works once, for ${RESET_TTL_MS / 60_000} minutes.</p>
  <form method="post" action="/dashboard/forgot-password" novalidate>
    <input type="hidden" name="${CSRF_FIELD}" value="${signedOutToken(event)}">
    ${textField({ name: "email", label: "Email", type: "email", value: view.email ?? "", autocomplete: "username", required: true, error: view.error, autofocus: true })}
    <button class="btn btn-primary btn-block" type="submit">Send reset link</button>
  </form>`,
  );
}

function linkDead() {
  return card(
    "This reset link does not work",
    notice(
      "danger",
      "The link has expired or was already used.",
      html`<p>Each link works once, for ${RESET_TTL_MS / 60_000} minutes, and a newer link or a reset replaces older ones. <a href="/dashboard/forgot-password">Ask for a new link</a>.</p>`,
    ),
  );
}

function newPasswordForm(event: H3Event, token: string, email: string, error?: string) {
  return card(
    "Choose a new password",
    html`${error ? problemSummary("Your password was not changed.", [{ id: "f-password", label: "New password", message: error }]) : ""}
  <p class="lede">For <strong>${email}</strong>. Every device signed in to this account will be signed out.</p>
  <form method="post" action="/dashboard/reset-password" novalidate>
    <input type="hidden" name="${CSRF_FIELD}" value="${signedOutToken(event)}">
    <input type="hidden" name="token" value="${token}">
    <input type="email" name="username" value="${email}" autocomplete="username" hidden>
    ${textField({ name: "password", label: "New password", type: "password", autocomplete: "new-password", required: true, minlength: MIN_PASSWORD_LENGTH, hint: PASSWORD_RULE, error, autofocus: true })}
    <button class="btn btn-primary btn-block" type="submit">Set new password</button>
  </form>`,
  );
}

export function passwordResetRoutes(app: H3, deps: DashboardDeps): void {
  app.get("/dashboard/forgot-password", (event) => sendPage(event, deps.mail ? requestForm(event, {}) : notConfigured(deps)));

  app.post("/dashboard/forgot-password", async (event) => {
    await assertSignedOutToken(event);
    const mail = deps.mail;
    // Not a fault of the server: it was set up without mail, and the page says how to reset instead.
    if (!mail) return sendPage(event, notConfigured(deps));
    const form = await readForm(event);
    const email = normalizeEmail(field(form, "email"));
    const problem = emailProblem(email);
    if (problem) return sendPage(event, requestForm(event, { email, error: problem }), 422);
    const address = deps.clientAddress(event);
    const wait = await deps.resets.retryAfterSeconds(address);
    if (wait > 0) {
      event.res.headers.set("retry-after", String(wait));
      const message = notice("danger", "Too many reset requests from your network.", html`<p>To protect people's inboxes from a flood of mail, asking is paused for your address. Try again in ${minutes(wait)}.</p>`);
      return sendPage(event, requestForm(event, { email, message }), 429);
    }
    await deps.resets.recordRequest(address);
    const device = deviceToken(event);
    // After the answer: whether an account has the address, or was mailed a moment ago, changes neither the page nor its timing.
    void (async () => {
      const request = await deps.accounts.requestPasswordReset(email, device);
      deps.log({ level: "info", msg: "password reset requested", outcome: request.outcome });
      if (request.outcome === "mail") await mail.mailer.send(resetMail(request.issued.email, resetLink(mail.publicUrl, request.issued.token)));
    })().catch((error: unknown) => deps.log({ level: "error", msg: "password reset mail not sent", error: (error as Error).message }));
    return sendPage(
      event,
      card(
        "Check your email",
        notice(
          "success",
          "If an account uses that address, a reset link is on its way.",
          html`<p>We sent it to <strong>${email}</strong> if a Buckeye account has that address. It works once, for ${RESET_TTL_MS / 60_000} minutes. One address is sent at most one link every ${RESET_MAIL_SPACING_MS / 60_000} minutes: if one came a moment ago, use it. Nothing after a few minutes? Check your spam folder, or <a href="/dashboard/forgot-password">ask again</a> later.</p>`,
        ),
      ),
    );
  });

  app.get("/dashboard/reset-password", async (event) => {
    const token = event.url.searchParams.get("token") ?? "";
    const reset = await deps.accounts.passwordResetFor(token);
    if (!reset) return sendPage(event, linkDead(), 410);
    return sendPage(event, newPasswordForm(event, token, reset.email));
  });

  app.post("/dashboard/reset-password", async (event) => {
    await assertSignedOutToken(event);
    const form = await readForm(event);
    const token = form.get("token") ?? "";
    const result = await deps.accounts.resetPassword(token, form.get("password") ?? "", deviceToken(event));
    if (!result.ok && result.reason === "invalid-link") return sendPage(event, linkDead(), 410);
    if (!result.ok) {
      const reset = await deps.accounts.passwordResetFor(token);
      return sendPage(event, newPasswordForm(event, token, reset?.email ?? "", result.message), 422);
    }
    if (result.newDeviceToken) setDeviceCookie(event, result.newDeviceToken);
    deps.log({ level: "info", msg: "password reset", user_id: result.userId, sessions_ended: result.signedOut });
    setFlash(event, "password-reset");
    return redirectTo(event, "/dashboard/sign-in");
  });
}
