/** Who a customer asks for help: the operator's SUPPORT_CONTACT (an email address or a URL), or, unset, the people who run this server. */
import { html, type SafeHtml } from "./html.ts";

/** "contact support at <a>…</a>" or "ask the people who run this Buckeye server", to finish a sentence. */
export function supportContact(contact: string | null): SafeHtml {
  if (!contact) return html`ask the people who run this Buckeye server (whoever gave you access to it)`;
  if (/^https?:\/\//.test(contact)) return html`contact support at <a href="${contact}">${contact}</a>`;
  return html`contact support at <a href="mailto:${contact}">${contact}</a>`;
}
