/**
 * GET /docs, the API reference, in a real browser (Debian's chromium driven by playwright-core, as
 * test/dashboard-*.test.ts): Swagger UI renders the served OpenAPI document with the bundle Buckeye
 * serves itself, under the page's content security policy, with no console error and no request
 * to any other host. The dashboard links to it.
 */
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./_browser.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationWithOwner } from "../src/accounts/accounts.ts";
import { startTestService, type TestService } from "./_setup.ts";
import { expectAccessible } from "./_axe.ts";

const PASSWORD = "correct horse battery staple";

let service: TestService & { url?: string };
let base: string;
let browser: Browser;

beforeAll(async () => {
  service = await startTestService({}, true);
  base = service.url!;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** Swagger UI parses 1.4 MB of script before the page's load event: on a loaded machine that passes playwright's 30 s default. */
const SLOW_PAGE_MS = 90_000;

/** A page that records every request it sends and every console error, CSP violations included. */
async function watchedPage(): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: base });
  context.setDefaultTimeout(SLOW_PAGE_MS);
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return { page, requests, errors };
}

describe("GET /docs: the API reference", () => {
  it("loads, lists every operation of the served document, logs no console error and sends no request off the host", async () => {
    const document = await (await fetch(`${base}/api/v1/openapi.json`)).json();
    const summaries: string[] = Object.values<Record<string, { summary: string }>>(document.paths).flatMap((operations) => Object.values(operations).map((o) => o.summary));
    expect(summaries.length).toBeGreaterThan(20);

    const { page, requests, errors } = await watchedPage();
    const response = await page.goto("/docs");
    expect(response!.status()).toBe(200);
    expect(response!.headers()["content-security-policy"]).toMatch(/script-src 'self';/);
    await page.getByRole("heading", { name: document.info.title }).first().waitFor({ timeout: 30_000 });
    for (const summary of summaries) {
      expect(await page.getByText(summary, { exact: true }).count(), summary).toBeGreaterThan(0);
    }
    // An opened operation renders parameters, schemas and highlighted examples: all within the policy too.
    await page.getByText(summaries[0]!, { exact: true }).first().click();
    await page.getByText("Parameters", { exact: true }).first().waitFor();
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== base && !url.startsWith("data:") && !url.startsWith("blob:"))).toEqual([]);
    expect(requests).toContain(`${base}/api/v1/openapi.json`);
    await page.context().close();
  }, 200_000);

  it("serves Swagger UI's bundle and stylesheet from this host, and 404 for any other asset name", async () => {
    const bundle = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await bundle.text()).length).toBeGreaterThan(1_000_000);
    const stylesheet = await fetch(`${base}/docs/assets/swagger-ui.css`);
    expect(stylesheet.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const missing = await fetch(`${base}/docs/assets/..%2Fpackage.json`);
    expect(missing.status).toBe(404);
  });

  it("the page's policy allows scripts and styles from this host alone: no inline script or style, no nonce", async () => {
    const page = await fetch(`${base}/docs`);
    const policy = page.headers.get("content-security-policy")!;
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("style-src 'self';");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
    expect(await page.text()).not.toMatch(/<script>|<style>| style="/);
  });
});

describe("GET /docs: readable by everyone, on a desktop and on a phone", () => {
  const WIDTHS = [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ];

  for (const viewport of WIDTHS) {
    it(`passes every WCAG 2.1 AA rule axe-core checks at ${viewport.width} px, as loaded and with an operation, an event and a schema opened`, async () => {
      const context = await browser.newContext({ viewport, baseURL: base });
      context.setDefaultTimeout(SLOW_PAGE_MS);
      const page = await context.newPage();
      await page.goto("/docs");
      await page.locator(".opblock-summary-control").first().waitFor({ timeout: 30_000 });
      await expectAccessible(page, `/docs at ${viewport.width} px`);
      await page.locator(".opblock-summary-control").first().click();
      await page.getByText("Parameters", { exact: true }).first().waitFor();
      await page.locator(".webhooks .opblock-summary-control").first().click();
      await page.locator(".webhooks .opblock-body").first().waitFor();
      await page.locator("section.models .json-schema-2020-12-accordion").first().click();
      await expectAccessible(page, `/docs at ${viewport.width} px, opened`);
      // Nothing scrolls sideways: the page fits the screen.
      const overflowing = await page.evaluate(() =>
        [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && ![...e.children].some((c) => c.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5))
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ${Math.round(e.getBoundingClientRect().right)}`),
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth), overflowing.join("; ")).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: new URL(`artifacts/docs-${viewport.width}.png`, import.meta.url).pathname });
      await context.close();
    }, 300_000);
  }

  it("says where API keys come from, with a link to the dashboard's keys", async () => {
    const context = await browser.newContext({ baseURL: base });
    context.setDefaultTimeout(SLOW_PAGE_MS);
    const page = await context.newPage();
    await page.goto("/docs");
    expect(await page.locator(".keys-note").textContent()).toContain("Create keys in the dashboard");
    await page.locator(".keys-note").getByRole("link", { name: "dashboard" }).click();
    await page.waitForURL(/\/dashboard\/sign-in/);
    await context.close();
  }, 200_000);

  it("without JavaScript, points to the OpenAPI document and the Markdown reference in docs/api/", async () => {
    // Chromium with scripts disabled by the DevTools protocol still parses <noscript> as if they ran, so the
    // fallback is read as served and drawn on its own, as a browser without JavaScript draws it.
    const served = await (await fetch(`${base}/docs`)).text();
    const fallback = /<noscript>([\s\S]*?)<\/noscript>/.exec(served)?.[1];
    expect(fallback).toBeDefined();
    const context = await browser.newContext({ baseURL: base, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.setContent(fallback!);
    expect(await page.getByText("This page draws the reference with JavaScript").textContent()).toContain("docs/api/");
    expect(await page.getByRole("link", { name: "/api/v1/openapi.json" }).getAttribute("href")).toBe("/api/v1/openapi.json");
    await context.close();
  }, 200_000);

  it("gives each section its own heading: the webhook endpoints' operations and the events Buckeye posts are not both called Webhooks", async () => {
    const context = await browser.newContext({ baseURL: base });
    context.setDefaultTimeout(SLOW_PAGE_MS);
    const page = await context.newPage();
    await page.goto("/docs");
    await page.locator(".webhooks h2").waitFor({ timeout: 30_000 });
    // A tag's heading reads its name, then its description.
    const headings = (await page.locator("h2, h3").allTextContents()).map((t) => t.trim());
    expect(headings.filter((t) => t.startsWith("Webhooks"))).toEqual(["Webhooks"]);
    expect(headings.filter((t) => t.startsWith("Webhook endpoints"))).toHaveLength(1);
    await context.close();
  }, 200_000);
});

describe("the dashboard links to the API reference", () => {
  it("from the footer of a signed-in page", async () => {
    await createOrganizationWithOwner(service.service.store.db, { organizationName: "Reference Readers", email: "ref@example.com", password: PASSWORD });
    const { page } = await watchedPage();
    await page.goto("/dashboard/sign-in");
    await page.getByLabel("Email").fill("ref@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/dashboard/keys");
    await page.getByRole("link", { name: "API reference" }).click();
    await page.waitForURL("**/docs");
    await page.getByRole("heading", { name: "Buckeye: Ohio sales tax rates" }).first().waitFor({ timeout: 30_000 });
    await page.context().close();
  }, 200_000);
});
