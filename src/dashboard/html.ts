/**
 * The one way dashboard markup is written: an `html` tagged template that escapes every
 * interpolated value unless it is itself markup made by `html`. A label typed by a customer can
 * therefore never become markup, whichever page shows it.
 *
 *   html`<td>${key.label}</td>`            // "<script>" prints as text
 *   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** Values a template accepts: markup, text (escaped), numbers, nothing, or lists of these. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false || value === true) return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Markup from a trusted constant of ours (an inline SVG icon); never for anything a user sent. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
