/**
 * The organization dashboard in a real browser (the webhooks page: register, test, redeliver, rotate, delete, against a real receiver): Debian's chromium driven by
 * playwright-core against a real Buckeye service on a real socket (test/_dashboard.ts). Every page
 * visited is saved as a screenshot under test/artifacts/ for review.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { insertWebhook } from "../src/store/webhooks.repository.ts";
import { newWebhookSecret } from "../src/webhooks/sign.ts";
import { verifySignature } from "./_signatures.ts";
import { dashboardHarness } from "./_dashboard.ts";

const dash = dashboardHarness();
const { shot } = dash;

/** The owner of the organization these tests act as, signed up before them. */
const owner = { organization: "Acme Hardware", email: "owner@acme.example" };
let ownerPage: Page;

beforeAll(async () => {
  ({ page: ownerPage } = await dash.freshPage());
  await dash.signUp(ownerPage, owner.organization, owner.email);
});

describe("webhooks page", () => {
  let secret: string;

  it("registers a test endpoint at a local receiver and shows its signing secret once", async () => {
    await ownerPage.goto("/dashboard/webhooks");
    await shot(ownerPage, "webhooks-empty");
    await ownerPage.getByLabel("Endpoint URL").fill(`${dash.receiver.url}/hooks/tax`);
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
    expect(await ownerPage.locator("td .endpoint-url").allTextContents()).toEqual([`${dash.receiver.url}/hooks/tax`]);
    expect(await ownerPage.locator(".event-list code").allTextContents()).toEqual(["rate.changed", "filing.due"]);
  });

  it("sends a test event: the receiver gets a signed POST and the page lists the delivery with time, event, status code, latency and attempt", async () => {
    await ownerPage.getByRole("link", { name: /Manage endpoint/ }).click();
    await ownerPage.getByRole("button", { name: "Send test event" }).click();
    await ownerPage.waitForURL(/\?sent=1$/);
    await dash.receiver.waitFor((r) => r.length >= 1);
    const received = dash.receiver.received[0]!;
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
    dash.receiver.respond = () => ({ status: 500 });
    try {
      await ownerPage.getByRole("button", { name: "Send test event" }).click();
      await ownerPage.waitForURL(/\?sent=1$/);
      await dash.receiver.waitFor((r) => r.length >= 2);
      const newest = ownerPage.locator("table.deliveries tbody tr").first();
      await expect
        .poll(async () => {
          await ownerPage.getByRole("link", { name: "Refresh" }).click();
          return newest.locator('td[data-label="Result"]').textContent();
        })
        .toMatch(/^FailedHTTP 500Redeliver$/);
      expect(await ownerPage.getByRole("button", { name: /^Redeliver/ }).count()).toBe(1);
      await shot(ownerPage, "webhook-failed-delivery");

      dash.receiver.respond = () => ({ status: 200 });
      await ownerPage.getByRole("button", { name: "Redeliver this webhook.test event" }).click();
      await ownerPage.waitForURL(/\?redelivered=1$/);
      expect(await ownerPage.getByText("Event queued again.").isVisible()).toBe(true);
      await dash.receiver.waitFor((r) => r.length >= 3);
      const [failed, replayed] = dash.receiver.received.slice(1);
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
      dash.receiver.respond = () => ({ status: 200 });
    }
  });

  it("a live endpoint must use https: the form says so and nothing is registered", async () => {
    await ownerPage.goto("/dashboard/webhooks");
    await ownerPage.getByLabel("Endpoint URL").fill(`${dash.receiver.url}/live`);
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

describe("an organization's webhook cap (WEBHOOKS_PER_ORG)", () => {
  it("adding an endpoint past the cap is refused with a message saying so, and nothing is registered", async () => {
    const { page } = await dash.freshPage();
    await dash.signUp(page, "Many Hooks Ltd", "owner@many-hooks.example");
    const db = dash.service.service.store.db;
    const { id } = await db.selectFrom("organizations").select("id").where("name", "=", "Many Hooks Ltd").executeTakeFirstOrThrow();
    const cap = dash.service.config.webhooksPerOrganization;
    for (let i = 0; i < cap; i++) {
      await insertWebhook(db, { organizationId: id, env: "test", url: `${dash.receiver.url}/hooks/${i}`, events: ["*"], secret: newWebhookSecret() }, new Date());
    }
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Endpoint URL").fill(`${dash.receiver.url}/one-more`);
    await page.getByRole("radio", { name: /^Test/ }).check();
    const answer = page.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith("/dashboard/webhooks"));
    await page.getByRole("button", { name: "Add endpoint" }).click();
    expect((await answer).status()).toBe(409);
    expect(await page.getByRole("alert").textContent()).toContain(`This organization has ${cap} webhooks, the most it may have.`);
    await shot(page, "webhook-limit-reached");
    expect(await page.locator("td .endpoint-url").count()).toBe(cap);
  });
});
