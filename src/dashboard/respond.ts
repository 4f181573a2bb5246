/**
 * How dashboard handlers answer: HTML pages with strict security headers, 303 redirects after a
 * form post, and errors that the dashboard's error hook (error-page.ts) turns into HTML pages.
 */
import { HTTPError, type H3Event } from "h3";
import type { SafeHtml } from "./html.ts";
import { mediaType, readCapped } from "../web/read-body.ts";

/**
 * No inline script or style is allowed, so even markup that slipped past escaping could not run.
 * Pages are never cached: they show keys, secrets and account data.
 */
const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

export function sendPage(event: H3Event, page: SafeHtml, status = 200): string {
  event.res.status = status;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) event.res.headers.set(name, value);
  event.res.headers.set("content-type", "text/html; charset=utf-8");
  return page.markup;
}

/** 303 See Other: the browser follows with a GET, so a reload never re-sends the form. */
export function redirectTo(event: H3Event, location: string): string {
  event.res.status = 303;
  event.res.headers.set("location", location);
  event.res.headers.set("cache-control", "no-store");
  return "";
}

export interface DashboardErrorData {
  dashboard: true;
  title: string;
}

/** An error shown to the customer as an HTML page with this title and explanation. */
export function dashboardError(status: number, title: string, detail: string, headers: Record<string, string> = {}): HTTPError<DashboardErrorData> {
  return new HTTPError<DashboardErrorData>({ status, message: detail, data: { dashboard: true, title }, headers });
}


const MAX_FORM_BYTES = 32 * 1024;

declare module "h3" {
  interface H3EventContext {
    dashboardForm?: URLSearchParams;
  }
}

/**
 * The posted form, read once and kept on the event (the CSRF check and the handler both need it).
 * Its bytes are counted as they arrive, so a chunked body, or one longer than it declared, is
 * refused at its 32,769th byte, never held whole.
 */
export async function readForm(event: H3Event): Promise<URLSearchParams> {
  if (event.context.dashboardForm) return event.context.dashboardForm;
  if (mediaType(event) !== "application/x-www-form-urlencoded") {
    throw dashboardError(415, "Unsupported form", "This page accepts forms posted by the dashboard only.");
  }
  const bytes = await readCapped(event, MAX_FORM_BYTES, () => dashboardError(413, "Form too large", "That form was larger than any dashboard form can be."));
  event.context.dashboardForm = new URLSearchParams(bytes.toString("utf8"));
  return event.context.dashboardForm;
}

/** A single text field, trimmed; absent fields read as "". */
export function field(form: URLSearchParams, name: string): string {
  return (form.get(name) ?? "").trim();
}
