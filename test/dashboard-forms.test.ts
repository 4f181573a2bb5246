/**
 * Refused forms in a real browser (docs/guides/dashboard.md, "Forms"): every field's problem is
 * reported at once, beside its field (aria-invalid, aria-describedby) and in a summary linking to
 * each; focus lands on the first wrong field; what was typed is kept, except passwords. The rules
 * are the services' (AccountService, WebhookService); these tests see them through the pages.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "./_axe.ts";
import { dashboardHarness } from "./_dashboard.ts";

const dash = dashboardHarness();
const PAGES = 120_000;

/** The id of the focused element, and whether each named input is flagged and described by its error. */
async function fieldState(page: Page, id: string) {
  return page.evaluate((id) => {
    const input = document.getElementById(id)!;
    const described = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
    return {
      invalid: input.getAttribute("aria-invalid"),
      error: described.map((ref) => document.getElementById(ref)).find((el) => el?.classList.contains("field-error"))?.textContent ?? null,
    };
  }, id);
}

/**
 * axe-core's WCAG 2.1 AA rules on a refused form, colour contrast left out: the hint and footer
 * colours are the style sheet's, not the form's, and are checked with every page elsewhere.
 */
async function expectAccessibleForm(page: Page, where: string): Promise<void> {
  expect((await axeViolations(page)).filter((v) => v.id !== "color-contrast"), `axe-core on ${where}`).toEqual([]);
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? null);

async function submitSignUp(page: Page, organization: string, email: string, password: string): Promise<number> {
  await page.goto("/dashboard/sign-up");
  await page.getByLabel("Organization name").fill(organization);
  await page.getByLabel("Your work email").fill(email);
  await page.getByLabel("Password").fill(password);
  const answer = page.waitForResponse((res) => res.request().method() === "POST");
  await page.getByRole("button", { name: "Create account" }).click();
  return (await answer).status();
}

describe("sign-up: every problem at once, focus on the first, the password never kept", () => {
  it("a bad email and a weak password are both flagged; the organization and email are kept, focus is on the email", async () => {
    const { page } = await dash.freshPage();
    expect(await submitSignUp(page, "Gamma Goods", "gamma@", "short")).toBe(422);
    expect(await fieldState(page, "f-email")).toEqual({ invalid: "true", error: expect.stringContaining("Enter an email address") });
    expect(await fieldState(page, "f-password")).toEqual({ invalid: "true", error: expect.stringContaining("at least 12 characters") });
    expect(await fieldState(page, "f-organization")).toEqual({ invalid: null, error: null });
    expect(await focused(page)).toBe("f-email");
    expect(await page.getByLabel("Organization name").inputValue()).toBe("Gamma Goods");
    expect(await page.getByLabel("Your work email").inputValue()).toBe("gamma@");
    expect(await page.getByLabel("Password").inputValue()).toBe("");
    const summary = page.getByRole("alert");
    expect(await summary.textContent()).toContain("2 fields need correcting");
    expect(await summary.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual(["#f-email", "#f-password"]);
    await dash.shot(page, "sign-up-errors");
    await expectAccessibleForm(page, "sign-up with two errors");
  }, PAGES);

  it("all three fields wrong: all three flagged, focus on the organization name", async () => {
    const { page } = await dash.freshPage();
    expect(await submitSignUp(page, " ", "nope", "password1234")).toBe(422);
    for (const id of ["f-organization", "f-email", "f-password"]) expect((await fieldState(page, id)).invalid).toBe("true");
    expect(await focused(page)).toBe("f-organization");
  }, PAGES);
});

describe("sign-up enforces the password rule the docs state", () => {
  it.each([
    ["Acme Hardware & <Sons>", "owner@acmehardware.example", "acmehardware123", /Do not build it from your email address or organization name/],
    ["Beta Co", "owner@betaco.example", "betaco betaco betaco", /Do not repeat one word/],
  ])("%s with %j is refused at the password field", async (organization, email, password, reason) => {
    const { page } = await dash.freshPage();
    expect(await submitSignUp(page, organization, email, password)).toBe(422);
    expect((await fieldState(page, "f-password")).error).toMatch(reason);
    expect(await focused(page)).toBe("f-password");
  }, PAGES);

  it("a good passphrase still creates the account", async () => {
    const { page } = await dash.freshPage();
    expect(await submitSignUp(page, "Beta Co", "second@betaco.example", "quietly orbiting marmalade lanterns")).toBe(303);
    await page.waitForURL("**/dashboard/keys?welcome=1");
  }, PAGES);
});

describe("signed in: settings and webhook forms", () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await dash.freshPage());
    await dash.signUp(page, "Delta Depot", "owner@delta.example");
  }, PAGES);

  it("settings: a blank name and no filing frequency are both flagged, focus on the name", async () => {
    await page.goto("/dashboard/settings");
    await page.getByLabel("Organization name").fill("");
    await page.evaluate(() => document.querySelectorAll<HTMLInputElement>('input[name="filing_frequency"]').forEach((radio) => (radio.checked = false)));
    const answer = page.waitForResponse((res) => res.request().method() === "POST");
    await page.getByRole("button", { name: "Save changes" }).click();
    expect((await answer).status()).toBe(422);
    expect(await fieldState(page, "f-name")).toEqual({ invalid: "true", error: expect.stringContaining("Enter your organization's name") });
    expect(await fieldState(page, "f-filing_frequency")).toEqual({ invalid: "true", error: "Choose monthly or semiannual filing." });
    expect(await focused(page)).toBe("f-name");
    await expectAccessibleForm(page, "settings with two errors");
  }, PAGES);

  it("password change: a wrong current password and a weak new one are both flagged, focus on the current one", async () => {
    await page.goto("/dashboard/settings");
    await page.getByLabel("Current password").fill("not my password at all");
    await page.getByLabel("New password", { exact: true }).fill("deltadepot deltadepot");
    const answer = page.waitForResponse((res) => res.request().method() === "POST");
    await page.getByRole("button", { name: "Change password" }).click();
    expect((await answer).status()).toBe(422);
    expect((await fieldState(page, "f-current_password")).error).toBe("This is not your current password.");
    expect((await fieldState(page, "f-new_password")).invalid).toBe("true");
    expect(await focused(page)).toBe("f-current_password");
    expect(await page.getByLabel("Current password").inputValue()).toBe("");
    expect(await page.getByLabel("New password", { exact: true }).inputValue()).toBe("");
  }, PAGES);

  it("webhooks: a bad URL and no events are both flagged, focus on the URL, the URL kept", async () => {
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Endpoint URL").fill("not a url");
    await page.getByRole("checkbox", { name: /All events/ }).uncheck();
    const answer = page.waitForResponse((res) => res.request().method() === "POST");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect((await answer).status()).toBe(422);
    expect(await fieldState(page, "f-url")).toEqual({ invalid: "true", error: expect.stringContaining("This URL must not contain spaces") });
    expect(await fieldState(page, "f-events")).toEqual({ invalid: "true", error: "Choose at least one event, or All events." });
    expect(await focused(page)).toBe("f-url");
    expect(await page.getByLabel("Endpoint URL").inputValue()).toBe("not a url");
    expect(await page.getByRole("alert").textContent()).toContain("2 fields need correcting");
    await dash.shot(page, "webhook-form-errors");
    await expectAccessibleForm(page, "webhook form with two errors");
  }, PAGES);
});
