/**
 * The webhook delivery log as a customer reads it (src/dashboard/pages/webhooks.ts), in a real browser
 * against a real receiver (test/_dashboard.ts): attempts number on across an event's deliveries and a
 * redelivery says it is one; each attempt shows the payload sent and the receiver's status and the start
 * of its answer (2 KB at most, kept with the attempt); an endpoint whose attempts keep failing reads
 * "Failing", not "Active".
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardHarness, PHONE } from "./_dashboard.ts";

const dash = dashboardHarness();
let page: Page;
const LONG_ANSWER = `{"error":"database down"}${"x".repeat(3000)}`;

beforeAll(async () => {
  ({ page } = await dash.freshPage());
  await dash.signUp(page, "Log Readers", "owner@log-readers.example");
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Endpoint URL").fill(`${dash.receiver.url}/hooks/log`);
  await page.getByRole("radio", { name: /^Test/ }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByRole("link", { name: "← All endpoints" }).click().catch(async () => page.goto("/dashboard/webhooks"));
  await page.goto("/dashboard/webhooks");
  await page.getByRole("link", { name: /Manage endpoint/ }).click();
}, 90_000);

const rows = () => page.locator("table.deliveries tbody tr");

async function refreshUntil(check: () => Promise<boolean>): Promise<void> {
  await expect
    .poll(async () => {
      await page.getByRole("link", { name: "Refresh" }).click();
      return check();
    }, { timeout: 20_000 })
    .toBe(true);
}

describe("webhook delivery log: attempts, payloads, answers and the endpoint's health", () => {
  it("an endpoint whose last three attempts failed reads Failing (with how many and since when), not Active", async () => {
    dash.receiver.respond = () => ({ status: 500, body: LONG_ANSWER, headers: { "content-type": "application/json" } });
    const before = dash.receiver.received.length;
    for (let i = 1; i <= 3; i++) {
      await page.getByRole("button", { name: "Send test event" }).click();
      await page.waitForURL(/\?sent=1$/);
      await dash.receiver.waitFor((r) => r.length >= before + i);
      await refreshUntil(async () => (await rows().locator('td[data-label="Status code"]').allTextContents()).filter((t) => t === "500").length === i);
    }
    const status = (await page.locator(".facts dd").first().textContent())!.replace(/\s+/g, " ");
    expect(status).toContain("Failing");
    expect(status).toContain("the last 3 attempts failed; none delivered yet");
    await page.goto("/dashboard/webhooks");
    expect((await page.locator('td[data-label="Status"]').textContent())!).toContain("Failing");
    expect(await page.locator('td[data-label="Status"]').textContent()).not.toContain("Active");
    await dash.shot(page, "webhook-failing");
    await page.getByRole("link", { name: /Manage endpoint/ }).click();
  }, 120_000);

  it("each attempt shows the payload sent and the receiver's status and answer, cut at 2 KB and saying so", async () => {
    const newest = rows().first();
    const exchange = newest.locator("details.exchange");
    expect(await exchange.getAttribute("open")).toBeNull();
    await exchange.locator("summary").click();
    const [sent, received] = await exchange.locator("pre").allTextContents();
    const payload = JSON.parse(sent!) as { type: string; id: string };
    expect(payload.type).toBe("webhook.test");
    expect(await exchange.textContent()).toContain(`Event ${payload.id}`);
    expect(await exchange.textContent()).toContain("HTTP 500");
    expect(received).toBe(LONG_ANSWER.slice(0, 2048));
    expect(await exchange.textContent()).toContain("The first 2 KB of the answer");
    await dash.shot(page, "webhook-exchange");
  }, 60_000);

  it("a redelivery is marked as one, and its attempt numbers on from the event's earlier attempts; a delivered attempt makes the endpoint Active again", async () => {
    dash.receiver.respond = () => ({ status: 200, body: "thanks" });
    const sent = dash.receiver.received.length;
    await page.getByRole("button", { name: "Redeliver this webhook.test event" }).first().click();
    await page.waitForURL(/\?redelivered=1$/);
    await dash.receiver.waitFor((r) => r.length >= sent + 1);
    await refreshUntil(async () => (await rows().first().locator('td[data-label="Result"]').textContent()) === "Delivered");
    const attempt = (await rows().first().locator('td[data-label="Attempt"]').innerText()).replace(/\s+/g, " ");
    expect(attempt).toBe("2 Redelivery delivery 2 of this event");
    // The original delivery's attempt stays attempt 1, unmarked.
    expect((await rows().nth(1).locator('td[data-label="Attempt"]').textContent())!.trim()).toBe("1");
    await rows().first().locator("details.exchange summary").click();
    expect(await rows().first().locator("details.exchange pre").nth(1).textContent()).toBe("thanks");
    expect(await page.locator(".facts dd").first().textContent()).toBe("Active");
    await dash.shot(page, "webhook-redelivered");
  }, 90_000);

  it("on a phone, an opened payload and answer wrap within the screen", async () => {
    const { page: phone } = await dash.freshPage(PHONE);
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(page.url());
    await phone.locator("table.deliveries details.exchange summary").first().click();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await dash.shot(phone, "webhook-exchange-phone");
    await phone.context().close();
  }, 60_000);
});
