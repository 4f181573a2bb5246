/**
 * The two references in docs/ that are generated, not written: the error reference from the
 * problem table (src/web/problem.ts) and the configuration reference from the config schema
 * (src/config.ts). `npm run docs:generate` writes them; test/docs.test.ts fails when the committed
 * files differ from what this module makes, so neither can drift from the code.
 */
import { z } from "zod";
import { configSchema } from "../config.ts";
import { PROBLEMS, type ProblemSlug } from "../web/problem.ts";

export const ERROR_REFERENCE = "docs/api/errors.md";
export const CONFIGURATION_REFERENCE = "docs/reference/configuration.md";

const GENERATED = (source: string) => `<!-- Generated from ${source} by \`npm run docs:generate\`; do not edit by hand. -->`;
const cell = (text: string) => text.replaceAll("|", "\\|");

export function errorReference(): string {
  const slugs = (Object.keys(PROBLEMS) as ProblemSlug[]).sort((a, b) => PROBLEMS[a].status - PROBLEMS[b].status || a.localeCompare(b));
  const lines = [
    GENERATED("src/web/problem.ts"),
    "",
    "# Errors",
    "",
    "Every error is an [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem (`application/problem+json`) with",
    "`type` (`{ERRORS_URL}/<slug>`, the contract's form), `title`, `status`, `detail` and `request_id` (also sent as",
    "`X-Request-ID` on every response); a problem about parameters or fields lists each in `invalid_params`.",
    "Each slug below is a heading whose anchor is the slug itself, so `{ERRORS_URL}` can point at this page.",
    "",
    "| status | slug | title |",
    "|---|---|---|",
    ...slugs.map((slug) => `| ${PROBLEMS[slug].status} | [\`${slug}\`](#${slug}) | ${PROBLEMS[slug].title} |`),
  ];
  for (const slug of slugs) {
    const { status, title, when } = PROBLEMS[slug];
    lines.push("", `## ${slug}`, "", `**${status} ${title}**: ${when}.`);
  }
  return `${lines.join("\n")}\n`;
}

interface FieldMeta {
  description?: string;
  shownDefault?: string;
}

/** What a variable defaults to, read from the schema: the value of its `.default()`, or unset. */
function defaultOf(schema: z.ZodType): string {
  const def = (schema as z.ZodType & { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def.type === "default") return def.defaultValue === "" ? "unset" : `\`${String(def.defaultValue)}\``;
  if (def.type === "optional") return "unset";
  if (def.type === "pipe") return defaultOf(def.in as z.ZodType);
  return "required";
}

export function configurationReference(): string {
  const lines = [
    GENERATED("the config schema in src/config.ts"),
    "",
    "# Configuration",
    "",
    "All configuration comes from environment variables, read once and validated at start-up (`src/config.ts`):",
    "a bad value stops the service with a message naming every bad variable.",
    "",
    "| variable | default | meaning |",
    "|---|---|---|",
  ];
  for (const [name, field] of Object.entries(configSchema.shape)) {
    const meta = (z.globalRegistry.get(field) ?? {}) as FieldMeta;
    if (!meta.description) throw new Error(`${name} has no description in the config schema: add .describe() to it`);
    lines.push(`| \`${name}\` | ${cell(meta.shownDefault ?? defaultOf(field))} | ${cell(meta.description)} |`);
  }
  return `${lines.join("\n")}\n`;
}
