/**
 * The organization dashboard in a real browser (accounts (sign up, sign out, sign in), the API keys page with its data-freshness line, and CSRF tokens): Debian's chromium driven by
 * playwright-core against a real Buckeye service on a real socket (test/_dashboard.ts). Every page
 * visited is saved as a screenshot under test/artifacts/ for review.
 */
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { reconcile } from "../src/scheduled/reconcile.ts";
import { dateInOhio, daysBetween } from "../src/rates/calendar.ts";
import { dashboardHarness } from "./_dashboard.ts";
import { polygonFiles } from "./_polygons.ts";

const dash = dashboardHarness();
const { shot, freshPage, signUp, signIn, createKey, rates } = dash;

/** The owner of the organization the main flow signs up; shared by the tests that follow it. */
const owner = { organization: "Acme Hardware", email: "owner@acme.example" };
let ownerContext: BrowserContext;
let ownerPage: Page;

describe("accounts: sign up, sign out, sign in", () => {
  it("sign up creates an organization and its owner and opens the API keys page", async () => {
    ({ context: ownerContext, page: ownerPage } = await freshPage());
    await ownerPage.goto("/dashboard/sign-up");
    await shot(ownerPage, "sign-up");
    await signUp(ownerPage, owner.organization, owner.email);
    await expect.poll(() => ownerPage.locator(".org-name").textContent()).toBe(owner.organization);
    expect(await ownerPage.getByRole("status").first().textContent()).toContain("Welcome to Buckeye");
    await shot(ownerPage, "keys-welcome");
  });

  it("the session cookie is HttpOnly and SameSite=Lax, scoped to /dashboard", async () => {
    const cookie = (await ownerContext.cookies()).find((c) => c.name === "buckeye_session")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/dashboard", secure: false });
    expect(await ownerPage.evaluate(() => document.cookie)).not.toContain("buckeye_session");
  });

  it("sign out ends the session; signing in again with the owner's email and password works", async () => {
    await ownerPage.getByRole("button", { name: "Sign out" }).click();
    await ownerPage.waitForURL("**/dashboard/sign-in");
    expect(await ownerPage.getByRole("status").textContent()).toContain("You have signed out.");
    await ownerPage.goto("/dashboard/keys");
    expect(new URL(ownerPage.url()).pathname).toBe("/dashboard/sign-in");
    await shot(ownerPage, "sign-in");
    await signIn(ownerPage, "OWNER@acme.example");
    await ownerPage.waitForURL("**/dashboard/keys");
    expect(await ownerPage.getByRole("heading", { level: 1 }).textContent()).toBe("API keys");
  });
});

describe("API keys page", () => {
  let liveKey: string;

  it("a new key is displayed once, with a copy button and a warning, and it answers /api/v1/rates with 200", async () => {
    liveKey = await createKey(ownerPage, "Checkout service, production", "Live");
    expect(liveKey).toMatch(/^tax_live_[0-9A-Za-z]{38}$/);
    expect(await ownerPage.getByText("It will not be shown again").isVisible()).toBe(true);
    expect(await ownerPage.getByRole("button", { name: "Copy key" }).isVisible()).toBe(true);
    await shot(ownerPage, "keys-created");
    await ownerContext.grantPermissions(["clipboard-read", "clipboard-write"]);
    await ownerPage.getByRole("button", { name: "Copy key" }).click();
    expect(await ownerPage.evaluate(() => navigator.clipboard.readText())).toBe(liveKey);

    const res = await rates(liveKey);
    expect(res.status).toBe(200);
    expect((await res.json()).county).toBe("Franklin");

    // Reloading the answer would post the form again: no second key, and the key is not shown again.
    await ownerPage.reload();
    expect(new URL(ownerPage.url()).search).toBe("?repeated=1");
    expect(await ownerPage.content()).not.toContain(liveKey);
    expect(await ownerPage.getByRole("row", { name: /Checkout service, production/ }).count()).toBe(1);
  });

  it("the key list shows the 16-character public prefix only, with label, environment, created, last used and status", async () => {
    await createKey(ownerPage, "Staging", "Test");
    await ownerPage.goto("/dashboard/keys");
    const row = ownerPage.getByRole("row", { name: /Checkout service, production/ });
    const cells = await row.getByRole("cell").allTextContents();
    expect(cells.slice(0, 3)).toEqual(["Checkout service, production", "Live", `${liveKey.slice(0, 16)}…`]);
    expect(cells[5]).toBe("Active");
    expect(cells[4]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d\d:\d\d E[SD]T$/);
    const page = await ownerPage.content();
    expect(page).toContain(liveKey.slice(0, 16));
    expect(page).not.toContain(liveKey.slice(0, 17));
    const headers = await ownerPage.getByRole("columnheader").allTextContents();
    expect(headers.slice(0, 6)).toEqual(["Label", "Environment", "Public prefix", "Created", "Last used", "Status"]);
  });

  it("revoking a key in the dashboard, after a confirmation, makes its next API call 401 invalid-api-key", async () => {
    await ownerPage.getByRole("link", { name: /Revoke key Checkout service, production/ }).click();
    expect(await ownerPage.getByRole("heading", { level: 1 }).textContent()).toBe("Revoke “Checkout service, production”?");
    await shot(ownerPage, "keys-revoke-confirm");
    await ownerPage.getByRole("button", { name: "Revoke key" }).click();
    await ownerPage.waitForURL("**/dashboard/keys?revoked=1");

    const res = await rates(liveKey);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await res.json()).type).toMatch(/\/invalid-api-key$/);
    const cells = await ownerPage.getByRole("row", { name: /Checkout service, production/ }).getByRole("cell").allTextContents();
    expect(cells[5]).toMatch(/^Revoked/);
    await ownerPage.goto("/dashboard/keys");
    await shot(ownerPage, "keys");
  });

  it("a stored-XSS attempt in a key label renders as text and runs nothing", async () => {
    const label = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;
    const dialogs: string[] = [];
    ownerPage.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await createKey(ownerPage, label, "Test");
    await ownerPage.goto("/dashboard/keys");
    expect(await ownerPage.getByRole("cell", { name: label, exact: true }).count()).toBe(1);
    expect(await ownerPage.locator("tbody img").count()).toBe(0);
    expect(await ownerPage.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await ownerPage.goto("/dashboard/usage");
    expect(await ownerPage.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // The owner signed up, so the organization is in trial: the rate-limit card says the rate is shared, as the trial notice does.
    expect(await ownerPage.locator("#limit-heading + p + p").innerText()).toContain("shared by every organization in trial, yours included");
    expect(await ownerPage.locator("section[aria-labelledby=limit-heading]").innerText()).not.toContain("for your organization across all its keys");
  });
});

describe("API keys page: the data freshness in a customer's words, with the dates and boundary vintages under Data details", () => {
  const meta = JSON.parse(readFileSync(new URL("../data/meta.json", import.meta.url), "utf8")) as { last_reconciled: string; verified_through: string };
  const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  const ago = (days: number) => (days === 0 ? "today" : days === 1 ? "1 day ago" : `${days} days ago`);

  it("states the shipped data's dates with their ages, the polygons' vintages and that no state boundary file is loaded", async () => {
    await ownerPage.goto("/dashboard/keys");
    const line = ownerPage.locator("#data-freshness");
    const today = dateInOhio(new Date());
    const confirmedAge = daysBetween(meta.verified_through, today);
    const text = (await line.textContent())!.replace(/\s+/g, " ");
    expect(text).toContain(`Rates confirmed through ${day(meta.verified_through)} (${ago(confirmedAge)})`);
    expect(text).toContain(`(reconciled) ${day(meta.last_reconciled)} (${ago(daysBetween(meta.last_reconciled, today))})`);
    const polygons = polygonFiles();
    expect(text).toContain(`boundaries: TIGER/Line ${polygons.counties.vintage} counties, ${polygons.places.vintage} places, 2020 ZIP areas · no state boundary file`);
    expect(await line.locator("time").first().getAttribute("datetime")).toBe(meta.verified_through);
    expect(await line.locator(".badge").textContent()).toBe(daysBetween(meta.last_reconciled, today) > 100 ? "Rate check overdue" : "Rates up to date");
  });

  it("says the rate check is overdue once the last successful reconciliation is older than RECONCILE_STALE_AFTER_DAYS (100 days)", async () => {
    // A reconciliation dated long ago, with the SST fixture built from our own data (test/fixtures/sst/).
    const districts = JSON.parse(readFileSync(new URL("../data/transit-districts.json", import.meta.url), "utf8")) as Array<{ fips: string; sst_code: string }>;
    const result = await reconcile(
      {
        db: dash.service.service.store.db,
        rateData: dash.service.service.rates,
        districtCodes: new Map(districts.map((d) => [d.fips, d.sst_code])),
        source: new URL("fixtures/sst/OHR2026Q1NOV28.csv", import.meta.url).pathname,
      },
      new Date("2026-01-02T15:00:00Z"),
    );
    expect(result.status).toBe("succeeded");
    await ownerPage.goto("/dashboard/keys");
    const line = ownerPage.locator("#data-freshness");
    const age = daysBetween("2026-01-02", dateInOhio(new Date()));
    expect(age).toBeGreaterThan(100);
    expect((await line.textContent())!.replace(/\s+/g, " ")).toContain(`(reconciled) Jan 2, 2026 (${age} days ago)`);
    expect(await line.locator(".badge").textContent()).toBe("Rate check overdue");
    expect(await line.locator(".data-verdict").textContent()).toContain(`last checked the state's rate file ${age} days ago`);
    await shot(ownerPage, "keys-stale-data");
  });
});

describe("CSRF: every form carries a token", () => {
  it("a form post without the CSRF token is refused with 403 and changes nothing", async () => {
    await ownerPage.goto("/dashboard/keys");
    const before = await ownerPage.locator("tbody tr").count();
    await ownerPage.locator('form[action="/dashboard/keys"] input[name="_csrf"]').evaluate((input) => input.remove());
    await ownerPage.getByLabel("Label").fill("forged");
    const [response] = await Promise.all([ownerPage.waitForResponse((r) => r.request().method() === "POST"), ownerPage.getByRole("button", { name: "Create key" }).click()]);
    expect(response.status()).toBe(403);
    expect(response.headers()["content-type"]).toContain("text/html");
    expect(await ownerPage.getByRole("heading", { level: 1 }).textContent()).toBe("This form has expired");
    await shot(ownerPage, "csrf-refused");
    await ownerPage.goto("/dashboard/keys");
    expect(await ownerPage.locator("tbody tr").count()).toBe(before);
  });

  it("a post with the right token but from another site's origin is refused", async () => {
    await ownerPage.goto("/dashboard/keys");
    const token = await ownerPage.locator('input[name="_csrf"]').first().inputValue();
    const cookie = (await ownerContext.cookies()).find((c) => c.name === "buckeye_session")!;
    const res = await fetch(`${dash.base}/dashboard/keys`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `buckeye_session=${cookie.value}`, origin: "https://evil.example" },
      body: new URLSearchParams({ _csrf: token, label: "cross-site", env: "live" }),
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    await ownerPage.reload();
    expect(await ownerPage.content()).not.toContain("cross-site");
  });
});
