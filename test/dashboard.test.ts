/**
 * The organization dashboard in a real browser: Debian's chromium driven by playwright-core
 * against a real Buckeye service on a real socket, with a real webhook receiver on loopback.
 * Every page visited is saved as a screenshot under test/artifacts/ for review.
 */
import { mkdirSync, readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./_browser.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationWithOwner } from "../src/dashboard/accounts.ts";
import { reconcile } from "../src/jobs/reconcile.ts";
import { dateInOhio, daysBetween } from "../src/rates/calendar.ts";
import { setOrganizationStatus } from "../src/store/organizations.repository.ts";
import { verifySignature } from "./_signatures.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import { startTestService, type TestService } from "./_setup.ts";

const ARTIFACTS = new URL("artifacts/", import.meta.url).pathname;
const PASSWORD = "correct horse battery staple";
const PHONE = { width: 390, height: 844 };

let service: TestService & { url?: string };
let base: string;
let browser: Browser;
let receiver: Receiver;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  service = await startTestService({ WEBHOOK_POLL_MS: "100", WEBHOOK_PRIVATE_TARGETS: "loopback" }, true);
  base = service.url!;
  receiver = await startReceiver();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await service?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  const take = () => page.screenshot({ path: `${ARTIFACTS}dashboard-${name}.png`, fullPage: true });
  // Headless chromium now and then answers "Unable to capture screenshot" on a loaded machine; a
  // second try succeeds. A second failure is reported.
  await take().catch(async () => {
    await page.waitForTimeout(250);
    await take();
  });
}

async function freshPage(viewport = { width: 1200, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: base });
  return { context, page: await context.newPage() };
}

async function signUp(page: Page, organization: string, email: string): Promise<void> {
  await page.goto("/dashboard/sign-up");
  await page.getByLabel("Organization name").fill(organization);
  await page.getByLabel("Your work email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/dashboard/keys?welcome=1");
}

async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function createKey(page: Page, label: string, env: "Live" | "Test"): Promise<string> {
  await page.goto("/dashboard/keys");
  await page.getByLabel("Label").fill(label);
  await page.getByRole("radio", { name: new RegExp(`^${env}`) }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  return (await page.locator("#new-key").textContent())!.trim();
}

function rates(key: string): Promise<Response> {
  return fetch(`${base}/api/v1/rates?county=franklin`, { headers: { authorization: `Bearer ${key}` } });
}

/** The owner of the organization the main flow signs up; shared by the tests that follow it. */
const owner = { organization: "Acme Hardware", email: "owner@acme.example" };
let ownerContext: BrowserContext;
let ownerPage: Page;

describe("accounts: sign up, sign out, sign in (spec §1.8)", () => {
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
    await ownerPage.waitForURL("**/dashboard/sign-in?reason=signed-out");
    await ownerPage.goto("/dashboard/keys");
    expect(new URL(ownerPage.url()).pathname).toBe("/dashboard/sign-in");
    await shot(ownerPage, "sign-in");
    await signIn(ownerPage, "OWNER@acme.example");
    await ownerPage.waitForURL("**/dashboard/keys");
    expect(await ownerPage.getByRole("heading", { level: 1 }).textContent()).toBe("API keys");
  });
});

describe("API keys page (spec §3.1, §5.4)", () => {
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
    expect(cells[4]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d\d:\d\d UTC$/);
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
  });
});

describe("API keys page: the data currency in one line (rates confirmed through, last reconciled, boundary vintages)", () => {
  const meta = JSON.parse(readFileSync(new URL("../data/meta.json", import.meta.url), "utf8")) as { last_reconciled: string; verified_through: string };
  const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  const ago = (days: number) => (days === 0 ? "today" : days === 1 ? "1 day ago" : `${days} days ago`);

  it("states the shipped data's dates with their ages, the polygons' vintages and that no state boundary file is loaded", async () => {
    await ownerPage.goto("/dashboard/keys");
    const line = ownerPage.locator("#data-currency");
    const today = dateInOhio(new Date());
    const confirmedAge = daysBetween(meta.verified_through, today);
    const text = (await line.textContent())!.replace(/\s+/g, " ");
    expect(text).toContain(`rates confirmed through ${day(meta.verified_through)} (${ago(confirmedAge)})`);
    expect(await line.getByTitle(/beyond_confirmed/).getAttribute("title")).toBe(`Answers for dates after ${meta.verified_through} carry beyond_confirmed.`);
    expect(text).toContain(`last reconciled ${day(meta.last_reconciled)} (${ago(daysBetween(meta.last_reconciled, today))})`);
    expect(text).toContain("boundaries: TIGER/Line 2020 counties, 2019 places, 2020 ZIP areas · no state boundary file");
    expect(await line.locator("time").first().getAttribute("datetime")).toBe(meta.verified_through);
    expect(await line.locator(".badge").count()).toBe(daysBetween(meta.last_reconciled, today) > 100 ? 1 : 0);
  });

  it("marks the rates Stale once the last successful reconciliation is older than RECONCILE_STALE_AFTER_DAYS (100 days)", async () => {
    // A reconciliation dated long ago, with the SST fixture built from our own data (test/fixtures/sst/).
    const districts = JSON.parse(readFileSync(new URL("../data/transit-districts.json", import.meta.url), "utf8")) as Array<{ fips: string; sst_code: string }>;
    const result = await reconcile(
      {
        db: service.service.store.db,
        rateData: service.service.background.rateData,
        districtCodes: new Map(districts.map((d) => [d.fips, d.sst_code])),
        source: new URL("fixtures/sst/OHR2026Q1NOV28.csv", import.meta.url).pathname,
      },
      new Date("2026-01-02T15:00:00Z"),
    );
    expect(result.status).toBe("succeeded");
    await ownerPage.goto("/dashboard/keys");
    const line = ownerPage.locator("#data-currency");
    const age = daysBetween("2026-01-02", dateInOhio(new Date()));
    expect(age).toBeGreaterThan(100);
    expect((await line.textContent())!.replace(/\s+/g, " ")).toContain(`last reconciled Jan 2, 2026 (${age} days ago) Stale`);
    expect(await line.locator(".badge").textContent()).toBe("Stale");
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
    const res = await fetch(`${base}/dashboard/keys`, {
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

describe("webhooks page (spec §1.7, §2.7)", () => {
  let secret: string;

  it("registers a test endpoint at a local receiver and shows its signing secret once", async () => {
    await ownerPage.goto("/dashboard/webhooks");
    await shot(ownerPage, "webhooks-empty");
    await ownerPage.getByLabel("Endpoint URL").fill(`${receiver.url}/hooks/tax`);
    await ownerPage.getByRole("radio", { name: /^Test/ }).check();
    await ownerPage.getByRole("checkbox", { name: /All events/ }).uncheck();
    await ownerPage.getByRole("checkbox", { name: /rate\.changed/ }).check();
    await ownerPage.getByRole("checkbox", { name: /filing\.due/ }).check();
    await ownerPage.getByRole("button", { name: "Add endpoint" }).click();
    secret = (await ownerPage.locator("#signing-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await ownerPage.getByText("It will not be shown again").isVisible()).toBe(true);
    await shot(ownerPage, "webhook-created");
    await ownerPage.reload();
    expect(new URL(ownerPage.url()).search).toBe("?repeated=1");
    expect(await ownerPage.content()).not.toContain(secret);
    expect(await ownerPage.locator("td .endpoint-url").allTextContents()).toEqual([`${receiver.url}/hooks/tax`]);
    expect(await ownerPage.locator(".event-list code").allTextContents()).toEqual(["rate.changed", "filing.due"]);
  });

  it("sends a test event: the receiver gets a signed POST and the page lists the delivery with time, event, status code, latency and attempt", async () => {
    await ownerPage.getByRole("link", { name: /Manage endpoint/ }).click();
    await ownerPage.getByRole("button", { name: "Send test event" }).click();
    await ownerPage.waitForURL(/\?sent=1$/);
    await receiver.waitFor((r) => r.length >= 1);
    const received = receiver.received[0]!;
    expect(verifySignature(received, secret).type).toBe("webhook.test");

    const row = ownerPage.locator("table.deliveries tbody tr").first();
    await expect
      .poll(async () => {
        await ownerPage.getByRole("link", { name: "Refresh" }).click();
        return row.locator('td[data-label="Status code"]').textContent();
      })
      .toBe("200");
    expect(await row.locator('td[data-label="Event"]').textContent()).toBe("webhook.test");
    expect(await row.locator('td[data-label="Latency"]').textContent()).toMatch(/^\d[\d,]* ms$/);
    expect(await row.locator('td[data-label="Attempt"]').textContent()).toBe("1");
    expect(await row.locator('td[data-label="Time"] time').getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await row.locator('td[data-label="Result"]').textContent()).toBe("Delivered");
    await shot(ownerPage, "webhook-deliveries");
  });

  it("a failed delivery has a Redeliver button: once the receiver is fixed, the same event arrives again and is listed as delivered", async () => {
    receiver.respond = () => ({ status: 500 });
    try {
      await ownerPage.getByRole("button", { name: "Send test event" }).click();
      await ownerPage.waitForURL(/\?sent=1$/);
      await receiver.waitFor((r) => r.length >= 2);
      const newest = ownerPage.locator("table.deliveries tbody tr").first();
      await expect
        .poll(async () => {
          await ownerPage.getByRole("link", { name: "Refresh" }).click();
          return newest.locator('td[data-label="Result"]').textContent();
        })
        .toMatch(/^FailedHTTP 500Redeliver$/);
      expect(await ownerPage.getByRole("button", { name: /^Redeliver/ }).count()).toBe(1);
      await shot(ownerPage, "webhook-failed-delivery");

      receiver.respond = () => ({ status: 200 });
      await ownerPage.getByRole("button", { name: "Redeliver this webhook.test event" }).click();
      await ownerPage.waitForURL(/\?redelivered=1$/);
      expect(await ownerPage.getByText("Event queued again.").isVisible()).toBe(true);
      await receiver.waitFor((r) => r.length >= 3);
      const [failed, replayed] = receiver.received.slice(1);
      expect(replayed!.headers["x-webhook-id"]).toBe(failed!.headers["x-webhook-id"]);
      expect(replayed!.body).toBe(failed!.body);
      expect(verifySignature(replayed!, secret).type).toBe("webhook.test");
      await expect
        .poll(async () => {
          await ownerPage.getByRole("link", { name: "Refresh" }).click();
          return newest.locator('td[data-label="Result"]').textContent();
        })
        .toBe("Delivered");
    } finally {
      receiver.respond = () => ({ status: 200 });
    }
  });

  it("a live endpoint must use https: the form says so and nothing is registered", async () => {
    await ownerPage.goto("/dashboard/webhooks");
    await ownerPage.getByLabel("Endpoint URL").fill(`${receiver.url}/live`);
    await ownerPage.getByRole("radio", { name: /^Live/ }).check();
    await ownerPage.getByRole("button", { name: "Add endpoint" }).click();
    expect(await ownerPage.locator("#f-url-error").textContent()).toContain("must use https");
    expect(await ownerPage.getByLabel("Endpoint URL").getAttribute("aria-invalid")).toBe("true");
    await shot(ownerPage, "webhook-invalid");
    expect(await ownerPage.locator("td .endpoint-url").count()).toBe(1);
  });

  it("rotating the secret (after a confirmation) shows the new one once; deleting (after a confirmation) removes the endpoint", async () => {
    await ownerPage.getByRole("link", { name: /Manage endpoint/ }).click();
    await ownerPage.getByRole("link", { name: "Rotate secret" }).click();
    await shot(ownerPage, "webhook-rotate-confirm");
    await ownerPage.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await ownerPage.locator("#signing-secret").textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await ownerPage.getByText("Still signs until").isVisible()).toBe(true);

    await ownerPage.getByRole("link", { name: "Delete endpoint" }).click();
    await ownerPage.getByRole("button", { name: "Delete endpoint" }).click();
    await ownerPage.waitForURL("**/dashboard/webhooks?deleted=1");
    expect(await ownerPage.getByText("No endpoints yet").isVisible()).toBe(true);
  });
});

describe("usage page: requests per day per key, and the rate limit", () => {
  it("draws the last 30 days as an SVG chart and counts each key's requests today", async () => {
    const key = await createKey(ownerPage, "Usage probe", "Test");
    for (let i = 0; i < 3; i++) expect((await rates(key)).status).toBe(200);
    await ownerPage.goto("/dashboard/usage");
    const row = ownerPage.getByRole("row", { name: /Usage probe/ });
    expect(await row.locator('td[data-label="Today"]').textContent()).toBe("3");
    expect(await row.locator('td[data-label="30 days"]').textContent()).toBe("3");
    expect(await ownerPage.locator("svg.chart rect").count()).toBeGreaterThan(0);
    expect(await ownerPage.locator("svg.chart title").first().textContent()).toBe("Requests per day, last 30 days");
    expect(await ownerPage.locator("svg.chart g.chart-axis text").count()).toBeGreaterThanOrEqual(5);
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

describe("settings page: changing the password", () => {
  it("needs the current password and a valid new one; then other devices are signed out and only the new password signs in", async () => {
    const email = "rotate@acme.example";
    await createOrganizationWithOwner(service.service.store.db, { organizationName: "Password Co", email, password: PASSWORD });
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
  it("after 5 wrong passwords the account is paused for 15 minutes, even for the right one", async () => {
    await createOrganizationWithOwner(service.service.store.db, { organizationName: "Target Co", email: "target@example.com", password: PASSWORD });
    const { context, page } = await freshPage();
    for (let i = 0; i < 5; i++) {
      await signIn(page, "target@example.com", `wrong guess ${i}`);
      expect(await page.getByRole("alert").textContent()).toContain("do not match");
    }
    await signIn(page, "target@example.com");
    expect(await page.getByRole("alert").textContent()).toContain("Too many failed sign-in attempts");
    expect(await page.getByRole("alert").textContent()).toContain("15 minutes");
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    await shot(page, "sign-in-throttled");
    await context.close();
  });
});

describe("a suspended organization cannot sign in and sees why", () => {
  it("sign-in with the right password is refused with the reason", async () => {
    const { organization } = await createOrganizationWithOwner(service.service.store.db, { organizationName: "Dormant LLC", email: "dormant@example.com", password: PASSWORD });
    await setOrganizationStatus(service.service.store.db, organization.id, "suspended");
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
    const { organization } = await createOrganizationWithOwner(service.service.store.db, { organizationName: "Lapsed Inc", email: "lapsed@example.com", password: PASSWORD });
    const { context, page } = await freshPage();
    await signIn(page, "lapsed@example.com");
    await page.waitForURL("**/dashboard/keys");
    await setOrganizationStatus(service.service.store.db, organization.id, "suspended");
    await page.goto("/dashboard/usage");
    expect(new URL(page.url()).search).toBe("?reason=suspended");
    expect(await page.getByRole("alert").textContent()).toContain("Your organization is suspended");
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
    const api = await fetch(`${base}/api/v1/nowhere`);
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
