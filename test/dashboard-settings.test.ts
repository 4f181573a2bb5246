/**
 * The organization dashboard in a real browser (usage, settings, password changes, the sign-in throttle, suspension, error pages, keyboard and phone width): Debian's chromium driven by
 * playwright-core against a real Buckeye service on a real socket (test/_dashboard.ts). Every page
 * visited is saved as a screenshot under test/artifacts/ for review.
 */
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createOrganizationWithOwner } from "../src/accounts/accounts.ts";
import { changeOrganizationLimits } from "../src/store/organization-limits.repository.ts";
import { setOrganizationStatus } from "../src/store/organizations.repository.ts";
import { dashboardHarness, PASSWORD, PHONE } from "./_dashboard.ts";

const dash = dashboardHarness();
const { shot, freshPage, signIn, createKey, rates } = dash;

/** The owner of the organization these tests act as, signed up before them. */
const owner = { organization: "Acme Hardware", email: "owner@acme.example" };
let ownerContext: BrowserContext;
let ownerPage: Page;

beforeAll(async () => {
  ({ context: ownerContext, page: ownerPage } = await dash.freshPage());
  await dash.signUp(ownerPage, owner.organization, owner.email);
});

describe("usage page: requests per day per key, and the rate limit", () => {
  it("draws the last 30 days as an SVG chart and counts each key's requests today", async () => {
    const key = await createKey(ownerPage, "Usage probe", "Test");
    for (let i = 0; i < 3; i++) expect((await rates(key)).status).toBe(200);
    await ownerPage.goto("/dashboard/usage");
    const row = ownerPage.getByRole("row", { name: /Usage probe/ });
    expect(await row.locator('td[data-label="Today"]').textContent()).toBe("3");
    expect(await row.locator('td[data-label="30 days"]').textContent()).toBe("3");
    expect(await ownerPage.locator("svg.chart-wide rect").count()).toBeGreaterThan(0);
    expect(await ownerPage.locator("svg.chart-wide title").first().textContent()).toBe("Test requests per day, last 30 days");
    expect(await ownerPage.locator("svg.chart-wide g.chart-axis text").count()).toBeGreaterThanOrEqual(5);
    expect(await ownerPage.getByText("requests per second, per API key").isVisible()).toBe(true);
    await shot(ownerPage, "usage");

    await ownerPage.goto("/dashboard/keys");
    const lastUsed = await ownerPage.getByRole("row", { name: /Usage probe/ }).locator('td[data-label="Last used"] time').count();
    expect(lastUsed).toBe(1);
  });
});

describe("settings page: organization name and filing frequency", () => {
  it("saves both; the name is escaped wherever it shows", async () => {
    await ownerPage.goto("/dashboard/settings");
    await shot(ownerPage, "settings");
    await ownerPage.getByLabel("Organization name").fill("Acme <b>Hardware</b> & Sons");
    await ownerPage.getByRole("radio", { name: /Semiannual/ }).check();
    await ownerPage.getByRole("button", { name: "Save changes" }).click();
    await ownerPage.waitForURL("**/dashboard/settings?saved=1");
    expect(await ownerPage.locator(".org-name").textContent()).toBe("Acme <b>Hardware</b> & Sons");
    expect(await ownerPage.getByRole("radio", { name: /Semiannual/ }).isChecked()).toBe(true);
    expect(await ownerPage.getByText(/Next return due/).isVisible()).toBe(true);
  });
});

describe("settings page: the organization's limits, read-only", () => {
  it("lists each limit in the customer's words with its value, marks the one an operator set for it, and offers nothing to change them", async () => {
    const { db } = dash.service.service.store;
    const { organization_id } = await db.selectFrom("users").select("organization_id").where("email", "=", owner.email).executeTakeFirstOrThrow();
    await changeOrganizationLimits(db, organization_id, { jobsStored: 25 }, new Date());
    await ownerPage.goto("/dashboard/settings");
    const limits = ownerPage.getByRole("region", { name: "Limits" });
    const stored = limits.getByRole("row", { name: /Batch jobs kept/ });
    expect(await stored.locator('td[data-label="Value"]').textContent()).toBe("25 jobs");
    expect(await stored.locator('td[data-label="Source"]').textContent()).toBe("Set for your organization");
    const perKey = limits.getByRole("row", { name: /Requests per second, per API key/ });
    expect(await perKey.locator('td[data-label="Source"]').textContent()).toBe("Standard");
    // Signed up in the dashboard, so in trial: the rate across keys is the one every organization in trial shares.
    const perOrganization = limits.getByRole("row", { name: /across all your API keys/ });
    expect(await perOrganization.locator('td[data-label="Source"]').textContent()).toBe("Shared by all organizations in trial");
    expect(await limits.locator("input, select, textarea, button").count()).toBe(0);
    await shot(ownerPage, "settings-limits");
  });
});

describe("settings page: changing the password", () => {
  it("needs the current password and a valid new one; then other devices are signed out and only the new password signs in", async () => {
    const email = "rotate@acme.example";
    await createOrganizationWithOwner(dash.service.service.store.db, { organizationName: "Password Co", email, password: PASSWORD });
    const laptop = await freshPage();
    const phone = await freshPage(PHONE);
    try {
      for (const { page } of [laptop, phone]) {
        await signIn(page, email);
        await page.waitForURL("**/dashboard/keys");
      }
      const page = laptop.page;
      await page.goto("/dashboard/settings");
      await page.getByLabel("Current password").fill("not my password at all");
      await page.getByLabel("New password").fill("a brand new passphrase");
      await page.getByRole("button", { name: "Change password" }).click();
      expect(await page.locator("#f-current_password-error").textContent()).toBe("This is not your current password.");
      await page.getByLabel("Current password").fill(PASSWORD);
      await page.getByLabel("New password").fill("short");
      await page.getByRole("button", { name: "Change password" }).click();
      expect(await page.locator("#f-new_password-error").textContent()).toMatch(/at least 12 characters/);
      await page.getByLabel("Current password").fill(PASSWORD);
      await page.getByLabel("New password").fill("password1234");
      await page.getByRole("button", { name: "Change password" }).click();
      expect(await page.locator("#f-new_password-error").textContent()).toMatch(/commonly used password.*no digits or symbols are required/);
      await shot(page, "settings-password-invalid");

      await page.getByLabel("Current password").fill(PASSWORD);
      await page.getByLabel("New password").fill("a brand new passphrase");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.waitForURL(/\/dashboard\/settings\?password=1/);
      expect(await page.getByText("Password changed.").isVisible()).toBe(true);

      // The other device's session ended with the change; this one goes on.
      await phone.page.goto("/dashboard/keys");
      expect(new URL(phone.page.url()).pathname).toBe("/dashboard/sign-in");
      await page.goto("/dashboard/keys");
      expect(new URL(page.url()).pathname).toBe("/dashboard/keys");

      await signIn(phone.page, email);
      expect(await phone.page.getByText("That email and password do not match an account.").isVisible()).toBe(true);
      await signIn(phone.page, email, "a brand new passphrase");
      await phone.page.waitForURL("**/dashboard/keys");
    } finally {
      await laptop.context.close();
      await phone.context.close();
    }
  });
});

describe("sign-in is throttled after repeated failures", () => {
  it("after 5 wrong passwords a new browser waits a minute, even with the right one, and is told how the owner gets in at once", async () => {
    await createOrganizationWithOwner(dash.service.service.store.db, { organizationName: "Target Co", email: "target@example.com", password: PASSWORD });
    const { context, page } = await freshPage();
    for (let i = 0; i < 5; i++) {
      await signIn(page, "target@example.com", `wrong guess ${i}`);
      expect(await page.getByRole("alert").textContent()).toContain("do not match");
    }
    await signIn(page, "target@example.com");
    expect(await page.getByRole("alert").textContent()).toContain("Too many failed sign-in attempts");
    expect(await page.getByRole("alert").textContent()).toContain("Try again in 1 minute");
    expect(await page.getByRole("alert").getByRole("link", { name: "resetting your password" }).getAttribute("href")).toBe("/dashboard/forgot-password");
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    await shot(page, "sign-in-throttled");
    await context.close();
  });
});

describe("a suspended organization cannot sign in and sees why", () => {
  it("sign-in with the right password is refused with the reason", async () => {
    const { organization } = await createOrganizationWithOwner(dash.service.service.store.db, { organizationName: "Dormant LLC", email: "dormant@example.com", password: PASSWORD });
    await setOrganizationStatus(dash.service.service.store.db, organization.id, "suspended");
    const { context, page } = await freshPage();
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), signIn(page, "dormant@example.com")]);
    expect(response.status()).toBe(403);
    expect(await page.getByRole("alert").textContent()).toContain("Dormant LLC is suspended");
    await shot(page, "sign-in-suspended");
    await page.goto("/dashboard/keys");
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    await context.close();
  });

  it("a signed-in user whose organization is suspended is signed out on the next page, with the reason", async () => {
    const { organization } = await createOrganizationWithOwner(dash.service.service.store.db, { organizationName: "Lapsed Inc", email: "lapsed@example.com", password: PASSWORD });
    const { context, page } = await freshPage();
    await signIn(page, "lapsed@example.com");
    await page.waitForURL("**/dashboard/keys");
    await setOrganizationStatus(dash.service.service.store.db, organization.id, "suspended");
    await page.goto("/dashboard/usage");
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    expect(await page.getByRole("alert").textContent()).toContain("Your organization is suspended");
    // With no SUPPORT_CONTACT set, the notice says plainly whom to ask.
    expect(await page.getByRole("alert").textContent()).toContain("ask the people who run this Buckeye server");
    await context.close();
  });
});

describe("errors: HTML under /dashboard, problem+json under /api", () => {
  it("an unknown dashboard page is an HTML 404; an unknown API path stays problem+json", async () => {
    const page = await ownerContext.newPage();
    const response = await page.goto("/dashboard/nowhere");
    expect(response!.status()).toBe(404);
    expect(response!.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Page not found");
    await shot(page, "not-found");
    await page.close();
    const api = await fetch(`${dash.base}/api/v1/nowhere`);
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("keyboard and phone width", () => {
  it("signing in works from the keyboard alone, and the first tab stop skips to the content", async () => {
    const { context, page } = await freshPage();
    await page.goto("/dashboard/sign-in");
    // The email field has focus on arrival (autofocus); typing only once it has, or keys are lost.
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "email");
    await page.keyboard.type(owner.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await page.waitForURL("**/dashboard/keys");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    await context.close();
  });

  it("every page fits a 390 px wide phone screen without sideways scrolling", async () => {
    const { context, page } = await freshPage(PHONE);
    await signIn(page, owner.email);
    await page.waitForURL("**/dashboard/keys");
    for (const path of ["keys", "webhooks", "usage", "settings"]) {
      await page.goto(`/dashboard/${path}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(PHONE.width);
      await shot(page, `phone-${path}`);
    }
    await context.close();
  });

  it("every form field has a label", async () => {
    for (const path of ["keys", "webhooks", "settings"]) {
      await ownerPage.goto(`/dashboard/${path}`);
      const unlabelled = await ownerPage.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement>("input:not([type=hidden])")].filter((input) => input.labels === null || input.labels.length === 0).map((i) => i.name),
      );
      expect(unlabelled, path).toEqual([]);
    }
  });
});
