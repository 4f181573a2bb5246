/** The page shells: the signed-in frame with its navigation, and the signed-out card. */
import { REFERENCE_PATH } from "../reference-page/routes.ts";
import type { SessionView } from "../store/sessions.repository.ts";
import { CSRF_FIELD } from "./csrf.ts";
import { html, trustedHtml, type HtmlValue, type SafeHtml } from "./html.ts";

/** A buckeye: the nut's dark shell with its pale "eye". Drawn here, so no image request. */
const LOGO = trustedHtml(
  '<svg class="logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><circle cx="16" cy="17" r="13" fill="#5b3420"/><path d="M16 4c-4 0-7 3-7 7 2-1 4-1.5 7-1.5s5 .5 7 1.5c0-4-3-7-7-7z" fill="#d9b98c"/><circle cx="11.5" cy="18" r="3" fill="#7a4a2e" opacity=".7"/></svg>',
);

export type Section = "keys" | "webhooks" | "usage" | "returns" | "settings";

const SECTIONS: { id: Section; label: string; href: string }[] = [
  { id: "keys", label: "API keys", href: "/dashboard/keys" },
  { id: "webhooks", label: "Webhooks", href: "/dashboard/webhooks" },
  { id: "usage", label: "Usage", href: "/dashboard/usage" },
  { id: "returns", label: "Returns", href: "/dashboard/returns" },
  { id: "settings", label: "Settings", href: "/dashboard/settings" },
];

function head(title: string): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Buckeye</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head>`;
}

/** The hidden field every signed-in form carries. */
export function csrfField(session: SessionView): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}">`;
}

export interface SignedInPage {
  title: string;
  section: Section;
  session: SessionView;
  body: HtmlValue;
}

export function signedInPage({ title, section, session, body }: SignedInPage): SafeHtml {
  return html`${head(title)}
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="topbar">
  <div class="topbar-inner">
    <a class="brand" href="/dashboard/keys">${LOGO}<span>Buckeye</span></a>
    <span class="org-name" title="Organization">${session.organizationName}</span>
    <div class="account">
      <span class="account-email">${session.email}</span>
      <form method="post" action="/dashboard/sign-out">${csrfField(session)}<button class="btn btn-quiet" type="submit">Sign out</button></form>
    </div>
  </div>
  <nav class="tabs" aria-label="Dashboard">
    <ul>
      ${SECTIONS.map(
        (s) => html`<li><a href="${s.href}"${s.id === section ? html` aria-current="page"` : ""}>${s.label}</a></li>`,
      )}
    </ul>
  </nav>
</header>
<main id="main" class="page" tabindex="-1">
${body}
<p class="time-note">Times are Ohio time (Eastern: EST, or EDT in summer); point at one to see it in UTC.</p>
</main>
<footer class="footer"><p>Buckeye · Ohio sales tax rates · <a href="${REFERENCE_PATH}">API reference</a> · <a href="/status">Service status</a></p></footer>
</body>
</html>`;
}

export function signedOutPage(title: string, body: HtmlValue): SafeHtml {
  return html`${head(title)}
<body class="signed-out">
<main id="main" class="auth">
  <a class="brand brand-large" href="/dashboard/sign-in">${LOGO}<span>Buckeye</span></a>
  ${body}
</main>
</body>
</html>`;
}

export type Tone = "success" | "warning" | "danger" | "info";

/** A message box; `role=status` (or alert for problems) so screen readers announce it. */
export function notice(tone: Tone, title: string, text: HtmlValue = ""): SafeHtml {
  const role = tone === "danger" ? "alert" : "status";
  return html`<div class="notice notice-${tone}" role="${role}"><p class="notice-title">${title}</p>${text ? html`<div class="notice-body">${text}</div>` : ""}</div>`;
}

/** A field's problem in a refused form: the id of the control to focus, its label and what is wrong. */
export interface FormProblem {
  id: string;
  label: string;
  message: string;
}

/**
 * The banner above a refused form: every problem at once, each a link to its field (whose own
 * error sits beside it, tied by aria-describedby). The page autofocuses the first wrong field.
 */
export function problemSummary(title: string, problems: readonly FormProblem[]): SafeHtml {
  const count = problems.length === 1 ? "1 field needs" : `${problems.length} fields need`;
  return notice("danger", title, html`<p>${count} correcting:</p><ul class="problem-list">${problems.map((p) => html`<li><a href="#${p.id}">${p.label}</a>: ${p.message}</li>`)}</ul>`);
}

export interface FieldSpec {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "url";
  value?: string;
  hint?: string;
  error?: string | null;
  autocomplete?: string;
  required?: boolean;
  maxlength?: number;
  minlength?: number;
  autofocus?: boolean;
}

/** A labelled input with its hint and error tied to it by aria-describedby. */
export function textField(f: FieldSpec): SafeHtml {
  const id = `f-${f.name}`;
  const described = [f.hint ? `${id}-hint` : "", f.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return html`<div class="field${f.error ? " field-invalid" : ""}">
  <label for="${id}">${f.label}</label>
  ${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ""}
  <input id="${id}" name="${f.name}" type="${f.type ?? "text"}"${f.value !== undefined && f.type !== "password" ? html` value="${f.value}"` : ""}${
    f.autocomplete ? html` autocomplete="${f.autocomplete}"` : ""
  }${f.required ? html` required` : ""}${f.maxlength ? html` maxlength="${f.maxlength}"` : ""}${f.minlength ? html` minlength="${f.minlength}"` : ""}${
    described ? html` aria-describedby="${described}"` : ""
  }${f.error ? html` aria-invalid="true"` : ""}${f.autofocus ? html` autofocus` : ""}>
  ${f.error ? html`<p class="field-error" id="${id}-error">${f.error}</p>` : ""}
</div>`;
}

/** A wait in whole minutes, rounded up: "1 minute", "15 minutes". */
export function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return m === 1 ? "1 minute" : `${m} minutes`;
}

/**
 * Times on every page are Ohio's (Eastern, EST or EDT, named with each time), the zone the usage
 * days are counted in; each `<time>` carries the UTC instant in `datetime` and its title
 * (docs/guides/dashboard.md, "Times").
 */
export const OHIO_TIME_ZONE = "America/New_York";

/** "2026-11-03" (a calendar date, shown as it is) or an instant (shown as its Ohio date). */
function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}

/** Dates as customers read them: "Nov 21, 2026", the Ohio date of an instant, with the exact instant in a title. */
export function shortDate(iso: string | null): SafeHtml {
  if (!iso) return html`<span class="muted">Never</span>`;
  const calendar = isCalendarDate(iso);
  const text = new Date(calendar ? `${iso}T12:00:00Z` : iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: calendar ? "UTC" : OHIO_TIME_ZONE });
  return html`<time datetime="${iso}" title="${calendar ? iso : utcTitle(iso)}">${text}</time>`;
}

function utcTitle(iso: string): string {
  return `${new Date(iso).toISOString().replace("T", " ").replace(/\.\d{3}Z$/, "")} UTC`;
}

function ohioTime(iso: string, withSeconds: boolean): string {
  return new Date(iso).toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    ...(withSeconds ? { second: "2-digit" } : {}),
    hourCycle: "h23",
    timeZone: OHIO_TIME_ZONE,
    timeZoneName: "short",
  });
}

/** "Nov 21, 09:05 EST": for when something last happened, where the day alone says too little. */
export function dateMinute(iso: string | null): SafeHtml {
  if (!iso) return html`<span class="muted">Never</span>`;
  return html`<time datetime="${new Date(iso).toISOString()}" title="${utcTitle(iso)}">${ohioTime(iso, false)}</time>`;
}

/** "Nov 21, 09:05:12 EST": delivery attempts and expiries, to the second. */
export function dateTime(iso: string): SafeHtml {
  return html`<time datetime="${new Date(iso).toISOString()}" title="${utcTitle(iso)}">${ohioTime(iso, true)}</time>`;
}

export function badge(tone: "green" | "gray" | "blue" | "amber" | "red", text: string): SafeHtml {
  return html`<span class="badge badge-${tone}">${text}</span>`;
}

/**
 * A URL that wraps after its "/", "?", "&" and "." rather than at a hyphen inside a word: each part
 * is kept whole (.url-part) unless it alone is wider than the line.
 */
export function breakableUrl(url: string): SafeHtml {
  return html`${url.split(/(?<=[/?&.])/).map((part) => html`<span class="url-part">${part}</span>`)}`;
}
