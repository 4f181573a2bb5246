/** Sign up (a new organization and its owner), sign in and sign out. */
import type { H3, H3Event } from "h3";
import { AccountError, normalizeEmail, type AccountField } from "../../accounts/accounts.ts";
import { assertSessionToken, assertSignedOutToken, CSRF_FIELD, signedOutToken } from "../csrf.ts";
import type { DashboardDeps } from "../deps.ts";
import { html, type HtmlValue } from "../html.ts";
import { minutes, notice, problemSummary, signedOutPage, textField } from "../layout.ts";
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE } from "../../accounts/password-policy.ts";
import { setFlash, takeFlash, type Flash } from "../flash.ts";
import { knownDeviceFor, rememberThisDevice } from "../known-device.ts";
import { supportContact } from "../support.ts";
import { field, readForm, redirectTo, sendPage } from "../respond.ts";
import { currentSession, endSession, requireSession, startSession } from "../session.ts";

/** Only our own dashboard paths are followed after sign-in, never another site. */
function safeNext(next: string | null | undefined): string {
  return next && /^\/dashboard\/[a-z0-9/_-]*$/i.test(next) ? next : "/dashboard/keys";
}

interface SignInView {
  email?: string;
  next?: string;
  message?: HtmlValue;
}

function signInForm(event: H3Event, view: SignInView) {
  return signedOutPage(
    "Sign in",
    html`<section class="card auth-card" aria-labelledby="heading">
  <h1 id="heading">Sign in to your dashboard</h1>
  ${view.message ?? ""}
  <form method="post" action="/dashboard/sign-in" novalidate>
    <input type="hidden" name="${CSRF_FIELD}" value="${signedOutToken(event)}">
    <input type="hidden" name="next" value="${safeNext(view.next)}">
    ${textField({ name: "email", label: "Email", type: "email", value: view.email ?? "", autocomplete: "username", required: true, autofocus: !view.email })}
    ${textField({ name: "password", label: "Password", type: "password", autocomplete: "current-password", required: true, autofocus: Boolean(view.email) })}
    <button class="btn btn-primary btn-block" type="submit">Sign in</button>
  </form>
  <p class="auth-switch"><a href="/dashboard/forgot-password">Forgot password?</a></p>
  <p class="auth-switch">New to Buckeye? <a href="/dashboard/sign-up">Create an account</a></p>
</section>`,
  );
}

interface SignUpView {
  name?: string;
  email?: string;
  error?: AccountError;
  message?: HtmlValue;
}

const SIGN_UP_FIELDS = [
  { field: "name", id: "f-organization", label: "Organization name" },
  { field: "email", id: "f-email", label: "Your work email" },
  { field: "password", id: "f-password", label: "Password" },
] as const;

function signUpForm(event: H3Event, view: SignUpView) {
  const problems = SIGN_UP_FIELDS.flatMap((f) => view.error?.problems.filter((p) => p.field === f.field).map((p) => ({ ...f, message: p.message })) ?? []);
  const errorFor = (f: AccountField) => problems.find((p) => p.field === f)?.message ?? null;
  // Focus goes to the first field to correct, or to the first field of a blank form.
  const focus = problems[0]?.field ?? "name";
  return signedOutPage(
    "Create your account",
    html`<section class="card auth-card" aria-labelledby="heading">
  <h1 id="heading">Create your Buckeye account</h1>
  <p class="lede">Set up your organization to get API keys for Ohio sales tax rates.</p>
  ${view.message ?? (problems.length > 0 ? problemSummary("Your account was not created.", problems) : "")}
  <form method="post" action="/dashboard/sign-up" novalidate>
    <input type="hidden" name="${CSRF_FIELD}" value="${signedOutToken(event)}">
    ${textField({ name: "organization", label: "Organization name", value: view.name ?? "", autocomplete: "organization", required: true, maxlength: 100, error: errorFor("name"), autofocus: focus === "name" })}
    ${textField({ name: "email", label: "Your work email", type: "email", value: view.email ?? "", autocomplete: "email", required: true, error: errorFor("email"), hint: "You sign in with it; you become the organization's owner.", autofocus: focus === "email" })}
    ${textField({ name: "password", label: "Password", type: "password", autocomplete: "new-password", required: true, minlength: MIN_PASSWORD_LENGTH, error: errorFor("password"), hint: PASSWORD_RULE, autofocus: focus === "password" })}
    <button class="btn btn-primary btn-block" type="submit">Create account</button>
  </form>
  <p class="auth-switch">Already have an account? <a href="/dashboard/sign-in">Sign in</a></p>
</section>`,
  );
}

/** The notices the server set as it sent the visitor here (flash.ts); never read from the address. */
function flashNotice(flash: Flash | null, support: string | null): HtmlValue {
  switch (flash) {
    case "signed-out":
      return notice("success", "You have signed out.");
    case "suspended":
      return notice(
        "danger",
        "Your organization is suspended.",
        html`<p>You were signed out. Its API keys are refused and the dashboard is closed until the organization is reactivated. To resolve it, ${supportContact(support)}.</p>`,
      );
    case "password-reset":
      return notice("success", "Your password was changed.", html`<p>Every device that was signed in to this account was signed out. Sign in with the new password.</p>`);
    case null:
      return undefined;
  }
}

export function accountRoutes(app: H3, deps: DashboardDeps): void {
  app.get("/dashboard/sign-in", async (event) => {
    if (await currentSession(event, deps)) return redirectTo(event, "/dashboard/keys");
    return sendPage(event, signInForm(event, { next: event.url.searchParams.get("next") ?? undefined, message: flashNotice(takeFlash(event), deps.supportContact) }));
  });

  app.post("/dashboard/sign-in", async (event) => {
    await assertSignedOutToken(event);
    const form = await readForm(event);
    const email = normalizeEmail(field(form, "email"));
    const password = form.get("password") ?? "";
    const next = field(form, "next");
    const attempt = { email, address: deps.clientAddress(event), device: await knownDeviceFor(event, deps, email) };

    const wait = await deps.throttle.retryAfterSeconds(attempt);
    if (wait > 0) {
      event.res.headers.set("retry-after", String(wait));
      const message = notice(
        "danger",
        "Too many failed sign-in attempts.",
        attempt.device
          ? html`<p>This browser's wrong passwords paused signing in here. Try again in ${minutes(wait)}.</p>`
          : html`<p>To protect this account from guessing, signing in from a new browser is paused. Try again in ${minutes(wait)}, or sign in from a browser you have signed in with before: it is not paused. If you are the owner, <a href="/dashboard/forgot-password">resetting your password</a> lifts the pause.</p>`,
      );
      return sendPage(event, signInForm(event, { email, next, message }), 429);
    }

    const result = await deps.accounts.checkSignIn(email, password);
    if (!result.ok && result.reason === "wrong-credentials") {
      await deps.throttle.recordFailure(attempt);
      return sendPage(event, signInForm(event, { email, next, message: notice("danger", "That email and password do not match an account.") }), 401);
    }
    await deps.throttle.recordSuccess(attempt);
    if (!result.ok) {
      const message = notice(
        "danger",
        `${result.organization.name} is suspended.`,
        html`<p>Its API keys are refused with <code>401 invalid-api-key</code> and its dashboard is closed until the organization is reactivated. To resolve it, ${supportContact(deps.supportContact)}.</p>`,
      );
      return sendPage(event, signInForm(event, { email, next, message }), 403);
    }
    if (!attempt.device) await rememberThisDevice(event, deps, result.user.id);
    await startSession(event, deps, result.user.id);
    return redirectTo(event, safeNext(next));
  });

  app.get("/dashboard/sign-up", async (event) => {
    if (await currentSession(event, deps)) return redirectTo(event, "/dashboard/keys");
    return sendPage(event, signUpForm(event, {}));
  });

  app.post("/dashboard/sign-up", async (event) => {
    await assertSignedOutToken(event);
    const form = await readForm(event);
    const view = { name: field(form, "organization"), email: field(form, "email") };
    const address = deps.clientAddress(event);
    const wait = await deps.signUps.retryAfterSeconds(address);
    if (wait > 0) {
      event.res.headers.set("retry-after", String(wait));
      const message = notice("danger", "Too many sign-ups from your network.", html`<p>Creating accounts is paused for your address. Try again in ${minutes(wait)}.</p>`);
      return sendPage(event, signUpForm(event, { ...view, message }), 429);
    }
    await deps.signUps.recordAttempt(address);
    try {
      // Open sign-up makes a trial organization: anyone can make many (docs/guides/dashboard.md, "Trial organizations").
      const { owner } = await deps.accounts.signUp({ organizationName: view.name, email: view.email, password: form.get("password") ?? "" }, { trial: true });
      await startSession(event, deps, owner.id);
      return redirectTo(event, "/dashboard/keys?welcome=1");
    } catch (error) {
      if (error instanceof AccountError) return sendPage(event, signUpForm(event, { ...view, error }), 422);
      throw error;
    }
  });

  app.post(
    "/dashboard/sign-out",
    async (event) => {
      await assertSessionToken(event, event.context.session!.csrfToken);
      await endSession(event, deps, event.context.session);
      setFlash(event, "signed-out");
      return redirectTo(event, "/dashboard/sign-in");
    },
    { middleware: [requireSession(deps)] },
  );
}
