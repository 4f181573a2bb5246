/**
 * axe-core, Deque's accessibility engine, run inside the page the test has open: the WCAG 2.0 and
 * 2.1 A and AA rules, nothing else. Its source is evaluated over the DevTools protocol, which the
 * pages' strict content security policy does not govern, so the page under test is the page as
 * served. `expectAccessible` fails with each violation's rule, impact and the elements it found.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { expect } from "vitest";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: any[] }> } }).axe;
    const results = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.map((n: { target: string[]; failureSummary?: string }) => `${n.target.join(" ")}: ${n.failureSummary ?? ""}`) }));
  }, WCAG_AA);
}

/** Fails, naming `where`, when the open page breaks any WCAG 2.1 AA rule axe-core checks. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await axeViolations(page), `axe-core on ${where}`).toEqual([]);
}
