/**
 * The dashboard's error hook: anything thrown under /dashboard becomes an HTML page (the API keeps
 * its problem+json). Faults are logged with the request id and shown without any detail.
 */
import { onError, type H3Event, type HTTPError, type Middleware } from "h3";
import type { Logger } from "../log.ts";
import { html } from "./html.ts";
import { signedOutPage } from "./layout.ts";
import type { DashboardErrorData } from "./respond.ts";
import { sendPage } from "./respond.ts";
import { errorFields } from "../error-fields.ts";

const TITLES: Record<number, string> = {
  400: "That request could not be understood",
  404: "Page not found",
  405: "That action is not available here",
  413: "Form too large",
  415: "Unsupported form",
};

export function renderError(error: HTTPError, event: H3Event, log: Logger): string {
  const requestId = event.context.requestId ?? "";
  const data = error.data as Partial<DashboardErrorData> | undefined;
  const fault = error.unhandled || error.status >= 500;
  if (fault) {
    log({ level: "error", request_id: requestId, path: event.url.pathname, ...errorFields(error) });
  }
  const status = fault ? 500 : error.status;
  const title = fault ? "Something went wrong on our side" : (data?.dashboard && data.title) || TITLES[status] || "That request could not be handled";
  const detail = fault
    ? "The page could not be shown. The problem has been logged; please try again in a moment."
    : data?.dashboard
      ? error.message
      : status === 404
        ? "There is nothing at this address. Check the link, or go back to your dashboard."
        : "Go back and try again.";
  for (const [name, value] of error.headers ?? []) event.res.headers.set(name, value);
  return sendPage(
    event,
    signedOutPage(
      title,
      html`<section class="card auth-card" aria-labelledby="heading">
  <p class="error-code">Error ${status}</p>
  <h1 id="heading">${title}</h1>
  <p>${detail}</p>
  ${requestId ? html`<p class="hint">Reference: <code>${requestId}</code></p>` : ""}
  <p><a class="btn btn-primary" href="/dashboard">Back to the dashboard</a></p>
</section>`,
    ),
    status,
  );
}

export function dashboardErrors(log: Logger): Middleware {
  return onError((error, event) => renderError(error, event, log));
}
