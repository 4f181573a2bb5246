/**
 * The pages a browser lands on outside /dashboard (src/dashboard/public-pages.ts), in a real browser:
 * `/`, a landing page that links to the dashboard, the reference and the docs (an API client still
 * gets its problem+json), and `/status`, which says in a customer's words what GET /readyz says to
 * operators, from the same check. The dashboard's data line says the same in the same words, with the
 * operator's detail one click away. This service's rates count as stale from the day after their
 * last reconciliation (RECONCILE_STALE_AFTER_DAYS=0), so what the pages say about it can be checked.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationWithOwner } from "../src/accounts/accounts.ts";
import { launchChromium } from "./_browser.ts";
import { expectAccessible } from "./_axe.ts";
import { startTestService, type TestService } from "./_setup.ts";
import { ratesVerdict } from "../src/dashboard/customer-status.ts";

const PASSWORD = "correct horse battery staple";
const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

let service: TestService & { url?: string };
let base: string;
let browser: Browser;

beforeAll(async () => {
  service = await startTestService({ RECONCILE_STALE_AFTER_DAYS: "0" }, true);
  base = service.url!;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

async function open(path: string, viewport = WIDTHS[0]!): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: base });
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe("GET /: the landing page", () => {
  it("a browser gets a page that links to the dashboard, the API reference, the OpenAPI document and the status page", async () => {
    const page = await open("/");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ohio sales tax rates, by API");
    const links = Object.fromEntries(await Promise.all(["Dashboard", "API reference", "OpenAPI document", "Service status"].map(async (name) => [name, await page.getByRole("link", { name, exact: true }).getAttribute("href")])));
    expect(links).toEqual({ Dashboard: "/dashboard", "API reference": "/docs", "OpenAPI document": "/api/v1/openapi.json", "Service status": "/status" });
    await page.getByRole("link", { name: "API reference", exact: true }).click();
    await page.waitForURL("**/docs");
    await page.context().close();
  }, 60_000);

  for (const viewport of WIDTHS) {
    it(`passes axe-core's WCAG 2.1 AA rules and fits the screen at ${viewport.width} px`, async () => {
      const page = await open("/", viewport);
      await expectAccessible(page, `/ at ${viewport.width} px`);
      await fitsWidth(page, viewport.width);
      await page.context().close();
    }, 60_000);
  }

  it("an API client asking for JSON still gets a problem+json 404 that points to the API and its reference", async () => {
    const res = await fetch(`${base}/`, { headers: { accept: "application/json" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("vary")).toMatch(/accept/i);
    expect((await res.json()).detail).toContain("/api/v1/openapi.json");
  });
});

describe("GET /status: the service's state in a customer's words", () => {
  it("says what /readyz says: every lookup works, and the rates are overdue for their quarterly check (with what that means and that the customer need not act)", async () => {
    const readyz = (await (await fetch(`${base}/readyz`)).json()) as { status: string; checks: Record<string, string> };
    expect(readyz.status).toBe("stale");
    const page = await open("/status");
    expect(await page.title()).toBe("Service status · Buckeye");
    expect(await page.locator(".status-headline").textContent()).toContain("Working, with a notice");
    const line = async (name: string) => (await page.locator(".status-lines li").filter({ has: page.getByRole("heading", { name, exact: true }) }).textContent())!;
    expect(await line("Rate data")).toContain("Rate check overdue");
    expect(await line("Rate data")).toContain("Your integration needs no change");
    // The test service has its polygons; the check warms the pool, so address lookups read Working or, for a moment, Starting.
    expect(await line("Address and point lookups")).toMatch(/Working|Starting/);
    expect(await line("Rate lookups by county and ZIP")).toContain("Working");
    // The operator's detail is there, folded.
    const details = page.locator("details.data-details");
    expect(await details.getAttribute("open")).toBeNull();
    expect(await details.textContent()).toContain("RECONCILE_STALE_AFTER_DAYS");
    expect(await details.locator('a[href="/readyz"]').count()).toBe(1);
    await page.context().close();
  }, 60_000);

  for (const viewport of WIDTHS) {
    it(`passes axe-core's WCAG 2.1 AA rules and fits the screen at ${viewport.width} px, details open`, async () => {
      const page = await open("/status", viewport);
      await page.locator("details.data-details summary").click();
      await expectAccessible(page, `/status at ${viewport.width} px`);
      await fitsWidth(page, viewport.width);
      await page.context().close();
    }, 60_000);
  }

  it("the dashboard's footer links to it (not to the raw /healthz)", async () => {
    await createOrganizationWithOwner(service.service.store.db, { organizationName: "Status Readers", email: "status@example.com", password: PASSWORD });
    const page = await open("/dashboard/sign-in");
    await page.getByLabel("Email").fill("status@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/dashboard/keys");
    await page.locator("footer").getByRole("link", { name: "Service status" }).click();
    await page.waitForURL("**/status");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Service status");
    await page.context().close();
  }, 90_000);
});

describe("the dashboard's data line speaks to the customer, the operator's detail one click away", () => {
  it("stale rates read as 'Rate check overdue' with what it means and that nothing need change; reconciliation dates and TIGER/Line vintages sit in a closed <details>", async () => {
    const page = await open("/dashboard/sign-in");
    await page.getByLabel("Email").fill("status@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/dashboard/keys");
    const line = page.locator("#data-freshness");
    const verdict = (await line.locator(".data-verdict").textContent())!;
    expect(verdict).toContain("Rate check overdue");
    expect(verdict).toContain("Your integration needs no change");
    expect(verdict).not.toMatch(/TIGER|reconciled|Stale/);
    const details = line.locator("details");
    expect(await details.getAttribute("open")).toBeNull();
    expect(await details.locator("p").isVisible()).toBe(false);
    await details.locator("summary").click();
    expect(await details.locator("p").isVisible()).toBe(true);
    expect(await details.textContent()).toContain("TIGER/Line");
    await page.context().close();
  }, 90_000);

  it("current rates say so, and that nothing is to be done (the wording, pure)", () => {
    const current = ratesVerdict({ stale: false, confirmedThrough: "2026-12-31", lastReconciled: "2026-11-20", ageDays: 7, today: "2026-11-27" });
    expect(current).toEqual({ tone: "green", label: "Rates up to date", meaning: "Rates are confirmed against the State of Ohio's rate file through Dec 31, 2026. Nothing for you to do." });
    const behind = ratesVerdict({ stale: false, confirmedThrough: "2026-09-30", lastReconciled: "2026-09-20", ageDays: 68, today: "2026-11-27" });
    expect(behind.meaning).toContain("Answers for dates after Sep 30, 2026 are marked beyond_confirmed");
  });
});
