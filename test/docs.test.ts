/**
 * The docs a newcomer reads: the generated references match the code they come from, and every
 * link between README.md and docs/ reaches a file and, with a #fragment, a heading in it. Offline:
 * http(s) links are not fetched.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIGURATION_REFERENCE, configurationReference, ERROR_REFERENCE, errorReference } from "../src/docs/references.ts";
import { PROBLEMS } from "../src/web/problem.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

function markdownFiles(dir = join(ROOT, "docs")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith(".md") ? [relative(ROOT, join(dir, entry.name))] : [],
  );
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** Code blocks and code spans may show link-like text that is not a link. */
const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");

/** Every relative link in `file` that does not reach a file, or a heading of it. */
export function brokenLinks(file: string, text: string, readOther: (path: string) => string | undefined): string[] {
  const broken: string[] = [];
  for (const [, target] of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(target!)) continue;
    const [path, fragment] = target!.split("#") as [string, string | undefined];
    const resolved = path === "" ? file : join(dirname(file), path);
    const other = readOther(resolved);
    if (other === undefined) broken.push(`${file}: ${target} (no such file)`);
    else if (fragment && resolved.endsWith(".md") && !anchors(other).has(fragment)) broken.push(`${file}: ${target} (no such heading)`);
  }
  return broken;
}

const readIfThere = (path: string) => (existsSync(join(ROOT, path)) ? (path.endsWith(".md") ? read(path) : "") : undefined);

describe("generated references", () => {
  it(`${ERROR_REFERENCE} is what npm run docs:generate makes from the problem table`, () => {
    expect(read(ERROR_REFERENCE)).toBe(errorReference());
  });

  it(`${CONFIGURATION_REFERENCE} is what npm run docs:generate makes from the config schema`, () => {
    expect(read(CONFIGURATION_REFERENCE)).toBe(configurationReference());
  });

  it("the error reference has one anchor per problem slug", () => {
    const headings = anchors(read(ERROR_REFERENCE));
    expect(Object.keys(PROBLEMS).filter((slug) => !headings.has(slug))).toEqual([]);
  });
});

describe("links in README.md and docs/", () => {
  it("every relative link reaches a file, and every #fragment a heading in it", () => {
    const files = ["README.md", ...markdownFiles()];
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => brokenLinks(file, read(file), readIfThere))).toEqual([]);
  });

  it("the check reports a missing file and a missing heading", () => {
    const pages: Record<string, string> = { "docs/a.md": "# Alpha\n\n## Two words\n" };
    const text = "[ok](a.md#two-words) [gone](b.md) [no heading](a.md#beta) `[code](x.md)`";
    expect(brokenLinks("docs/index.md", text, (path) => pages[path])).toEqual([
      "docs/index.md: b.md (no such file)",
      "docs/index.md: a.md#beta (no such heading)",
    ]);
  });
});
