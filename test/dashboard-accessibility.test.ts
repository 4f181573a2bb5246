/**
 * Every dashboard page state, at a desktop width (1366×900) and a phone's (390×844), in Debian's
 * chromium against a real Buckeye service (test/_dashboard.ts): axe-core's WCAG 2.1 AA rules pass
 * (test/_axe.ts), the page does not scroll sideways, and a screenshot of each is saved under
 * test/artifacts/ for review. Also the focus, titles, time and wrapping rules of
 * docs/guides/dashboard.md ("Accessibility and layout").
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, dateInOhio } from "../src/rates/calendar.ts";
import { addUsage } from "../src/store/usage.repository.ts";
import { expectAccessible } from "./_axe.ts";
import { dashboardHarness, PHONE } from "./_dashboard.ts";

const dash = dashboardHarness();
const DESKTOP = { width: 1366, height: 900 };
// Each test walks several pages through a real browser, and runs axe-core on each; on a busy machine that takes a while.

/** The page as a person sees it: a screenshot, no sideways scrolling, no WCAG 2.1 AA violation axe-core finds. */
async function check(page: Page, name: string): Promise<void> {
  await dash.shot(page, name);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
  await expectAccessible(page, name);
}

/** Adds stored daily counts of answered requests for a key, `days[i]` days before today (Ohio); `errors` adds some refused ones to each such day. */
async function traffic(prefix: string, counts: Record<number, number>, errors = { clientErrors: 0, rateLimited: 0, serverErrors: 0 }): Promise<void> {
  const db = dash.service.service.store.db;
  const key = await db.selectFrom("api_keys").select("id").where("prefix", "=", prefix).executeTakeFirstOrThrow();
  const today = dateInOhio(dash.service.clock.now());
  await addUsage(
    db,
    Object.entries(counts).map(([ago, count]) => ({ keyId: key.id, day: addDays(today, -Number(ago)), answered: count, ...errors })),
  );
}

for (const [width, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  describe(`every dashboard page at ${viewport.width}×${viewport.height} passes axe-core (WCAG 2.1 AA) and does not scroll sideways`, { timeout: 120_000 }, () => {
    let page: Page;
    let emptyPage: Page;
    const keys: string[] = [];

    beforeAll(async () => {
      ({ page } = await dash.freshPage(viewport));
      ({ page: emptyPage } = await dash.freshPage(viewport));
    });

    it("sign-in and sign-up", async () => {
      await page.goto("/dashboard/sign-in");
      await check(page, `${width}-sign-in`);
      await page.goto("/dashboard/sign-up");
      await check(page, `${width}-sign-up`);
    });

    it("API keys, empty (just signed up)", async () => {
      await dash.signUp(emptyPage, "Beta Hardware Supply of Northwest Ohio", `owner-${width}@beta.example`);
      await check(emptyPage, `${width}-keys-empty`);
    });

    it("usage, empty organization", async () => {
      await emptyPage.goto("/dashboard/usage");
      await check(emptyPage, `${width}-usage-empty`);
      expect(await emptyPage.locator("section", { has: emptyPage.getByRole("heading", { name: "Rate limit" }) }).textContent()).toContain("Your organization is in trial");
      expect(await emptyPage.locator("svg.chart").count()).toBe(0);
    });

    it("API keys, a new key shown once", async () => {
      await dash.signUp(page, "Acme Hardware & Sons", `owner-${width}@acme.example`);
      keys.push(await dash.createKey(page, "Checkout service, production", "Live"));
      // Focus moves to the new key's heading, so a screen reader announces it instead of staying at the top.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("new-key-heading");
      expect(await page.title()).toBe("New key “Checkout service, production” · API keys · Buckeye");
      // The example's scroll area is reachable by keyboard and named.
      const example = page.getByRole("region", { name: /Try it/ });
      expect(await example.getAttribute("tabindex")).toBe("0");
      expect(await example.textContent()).toContain("/api/v1/rates?county=franklin");
      await check(page, `${width}-keys-created`);
    });

    it("API keys, a list of keys", async () => {
      for (const [label, env] of [
        ["Staging checkout", "Test"],
        ["Nightly reconciliation batch job for the Columbus warehouse", "Live"],
        ["Point of sale, store 14", "Live"],
        ["Local development", "Test"],
        ["Invoices", "Live"],
        ["Unused integration", "Test"],
      ] as const) {
        keys.push(await dash.createKey(page, label, env));
      }
      await page.goto("/dashboard/keys");
      await check(page, `${width}-keys`);
      if (width === "desktop") {
        // The label column has room: a long label wraps between words onto at most two lines.
        const lines = await page.locator("td.cell-label", { hasText: "Nightly reconciliation" }).evaluate((td) => {
          const style = getComputedStyle(td);
          return (td.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight);
        });
        expect(Math.round(lines)).toBeLessThanOrEqual(2);
      }
    });

    it("revoke confirmation", async () => {
      await page.getByRole("link", { name: /Revoke key Invoices/ }).click();
      expect(await page.title()).toBe("Revoke key “Invoices” · API keys · Buckeye");
      await check(page, `${width}-keys-revoke-confirm`);
    });

    it("usage with live and test traffic", async () => {
      const prefixes = keys.map((k) => k.slice(0, 16));
      await traffic(prefixes[0]!, { 0: 3, 1: 5, 2: 4, 5: 2, 9: 1, 28: 2 });
      await traffic(prefixes[1]!, { 0: 1, 3: 2, 4: 1 });
      await traffic(prefixes[2]!, { 1: 2, 7: 3 });
      await traffic(prefixes[3]!, { 2: 1 });
      // Today, the first key was also refused 2 requests as sent, throttled once and failed once.
      await traffic(prefixes[0]!, { 0: 0 }, { clientErrors: 2, rateLimited: 1, serverErrors: 1 });
      expect((await dash.rates(keys[4]!)).status).toBe(200);
      await page.goto("/dashboard/usage");
      await check(page, `${width}-usage`);
      // Live and test apart, and only keys with traffic in the legends.
      expect(await page.locator(".stats").textContent()).toMatch(/^\s*27\s+live\s+5\s+test requests in 30 days\s*$/);
      expect(await page.locator('[data-outcomes="live"]').textContent()).toBe("27 requests: 23 answered, 2 client errors, 1 throttled, 1 server error");
      expect(await page.getByRole("list", { name: "Live keys in the chart" }).getByRole("listitem").count()).toBe(3);
      expect(await page.getByRole("list", { name: "Test keys in the chart" }).getByRole("listitem").count()).toBe(2);
      // One rule for times: Ohio time with its zone named, the UTC instant in datetime, the rule on the page.
      const lastUsed = page.getByRole("row", { name: /Local development/ }).locator("time");
      expect(await lastUsed.textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d\d:\d\d E[SD]T$/);
      expect(await lastUsed.getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(await page.locator(".time-note").textContent()).toContain("Times are Ohio time");
      await page.getByText("Requests per day as a table").click();
      await check(page, `${width}-usage-table-open`);
    });

    it("webhooks: the list and an endpoint with a delivery", async () => {
      await page.goto("/dashboard/webhooks");
      await check(page, `${width}-webhooks-empty`);
      await page.getByLabel("Endpoint URL").fill(`${dash.receiver.url}/hooks/ohio-sales-tax/rate-changes-and-filing-reminders`);
      await page.getByRole("radio", { name: /^Test/ }).check();
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await check(page, `${width}-webhook-created`);
      await page.getByRole("button", { name: "Send test event" }).click();
      await page.waitForURL(/\?sent=1$/);
      await expect
        .poll(async () => {
          await page.getByRole("link", { name: "Refresh" }).click();
          return page.locator("table.deliveries tbody tr").count();
        })
        .toBeGreaterThan(0);
      await check(page, `${width}-webhook-detail`);
      // The URL wraps only between its parts (after "/"), never at a hyphen inside one, and copies as it is.
      const url = page.locator(".endpoint-title");
      expect(await url.evaluate((p) => (p as HTMLElement).innerText)).toBe(`${dash.receiver.url}/hooks/ohio-sales-tax/rate-changes-and-filing-reminders`);
      for (const part of await url.locator(".url-part").all()) expect(await part.evaluate((span) => span.getClientRects().length === 1 && span.clientHeight < 1.5 * parseFloat(getComputedStyle(span).lineHeight))).toBe(true);
      await page.goto("/dashboard/webhooks");
      await check(page, `${width}-webhooks`);
    });

    it("settings", async () => {
      await page.goto("/dashboard/settings");
      await check(page, `${width}-settings`);
    });
  });
}
