/**
 * Forgotten passwords in a real browser (docs/guides/dashboard.md, "Forgotten passwords"): the
 * sign-in page's "Forgot password?", the mail (caught by a FAKE UPSTREAM SMTP server, test/_smtp.ts,
 * that the service is pointed at with SMTP_URL), the link in it, the new password, and
 * `buckeye user reset-password`. Also the notices a sign-in page shows: only those the server set.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setOrganizationStatus } from "../src/store/organizations.repository.ts";
import { expectAccessible } from "./_axe.ts";
import { dashboardHarness, PASSWORD } from "./_dashboard.ts";
import { freePort } from "./_http.ts";
import { startFakeSmtp, type FakeSmtp } from "./_smtp.ts";

const run = promisify(execFile);
const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;
const NEW_PASSWORD = "quietly orbiting marmalade lanterns";
/** Each of these tests is a person's whole errand (several pages, scrypt hashes, a mail): minutes on a loaded machine. */
const ERRAND = 180_000;

let smtp: FakeSmtp;
let port: number;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  port = await freePort();
});
afterAll(() => smtp?.close());

const dash = dashboardHarness(() => ({
  PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  SMTP_URL: smtp.url,
  MAIL_FROM: "Buckeye <no-reply@buckeye.test>",
  SUPPORT_CONTACT: "help@buckeye.test",
}));

async function askForLink(page: Page, email: string): Promise<number> {
  await page.goto("/dashboard/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.waitForURL("**/dashboard/forgot-password");
  await page.getByLabel("Email").fill(email);
  const answer = page.waitForResponse((res) => res.url().endsWith("/dashboard/forgot-password") && res.request().method() === "POST");
  await page.getByRole("button", { name: "Send reset link" }).click();
  return (await answer).status();
}

function linkIn(text: string): string {
  const link = /http:\/\/\S+\/dashboard\/reset-password\?token=[\w%-]+/.exec(text)?.[0];
  if (!link) throw new Error(`no reset link in: ${text}`);
  return link;
}

describe("Forgot password?: a one-time link by email sets a new password", () => {
  it("the mailed link sets a new password once; the old password and the used link then fail, and other sessions end", async () => {
    const { page } = await dash.freshPage();
    await dash.signUp(page, "Larkspur Supply", "owner@larkspur.example");
    // Another browser signed in as the same user: the reset must sign it out.
    const { page: other } = await dash.freshPage();
    await dash.signIn(other, "owner@larkspur.example");
    await other.waitForURL("**/dashboard/keys");
    await page.context().clearCookies();

    const before = smtp.mails.length;
    expect(await askForLink(page, "Owner@Larkspur.example")).toBe(200);
    expect(await page.getByRole("status").textContent()).toContain("If an account uses that address, a reset link is on its way.");
    await dash.shot(page, "forgot-password-sent");
    await expectAccessible(page, "reset link sent");
    const [mail] = (await smtp.waitForMails(before + 1)).slice(before);
    expect(mail!.to).toEqual(["owner@larkspur.example"]);
    expect(mail!.subject).toBe("Reset your Buckeye password");
    expect(mail!.text).toContain("within 30 minutes");
    const link = linkIn(mail!.text);
    expect(link.startsWith(`http://127.0.0.1:${port}/dashboard/reset-password?token=`)).toBe(true);

    await page.goto(link);
    expect(await page.title()).toBe("Choose a new password · Buckeye");
    // A weak password is refused at its field, and the link still works afterwards.
    await page.getByLabel("New password", { exact: true }).fill("larkspur supply larkspur");
    await page.getByRole("button", { name: "Set new password" }).click();
    expect(await page.locator("#f-password-error").textContent()).toMatch(/email address or organization name|repeat/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-password");
    await expectAccessible(page, "new password form with an error");
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL("**/dashboard/sign-in");
    expect(await page.getByRole("status").textContent()).toContain("Your password was changed.");
    await dash.shot(page, "password-reset-done");

    await dash.signIn(page, "owner@larkspur.example", PASSWORD);
    expect(await page.getByRole("alert").textContent()).toContain("That email and password do not match an account.");
    await dash.signIn(page, "owner@larkspur.example", NEW_PASSWORD);
    await page.waitForURL("**/dashboard/keys");

    const again = await page.goto(link);
    expect(again!.status()).toBe(410);
    expect(await page.getByRole("alert").textContent()).toContain("The link has expired or was already used.");

    await other.goto("/dashboard/keys");
    expect(new URL(other.url()).pathname).toBe("/dashboard/sign-in");
  }, ERRAND);

  it("an address no account has gets the same answer, and no mail", async () => {
    const { page } = await dash.freshPage();
    const before = smtp.mails.length;
    expect(await askForLink(page, "nobody@nowhere.example")).toBe(200);
    const unknown = (await page.locator("main").innerText()).replace("nobody@nowhere.example", "EMAIL");
    await dash.signUp(page, "Known Co", "known@known.example");
    await page.context().clearCookies();
    expect(await askForLink(page, "known@known.example")).toBe(200);
    const known = (await page.locator("main").innerText()).replace("known@known.example", "EMAIL");
    expect(known).toBe(unknown);
    // The unknown address's lookup started first and sends nothing; only the known one's mail arrives.
    await smtp.waitForMails(before + 1);
    expect(smtp.mails.slice(before).map((m) => m.to)).toEqual([["known@known.example"]]);
  }, ERRAND);

  it("a client that keeps asking, whether or not an account has the address, is paused with 429 by the 11th request (the count is exact in test/dashboard-owner-lockout.test.ts)", async () => {
    const { page } = await dash.freshPage();
    // Every page here comes from 127.0.0.1, and earlier tests in this file asked too.
    const statuses: number[] = [];
    while (statuses.length < 11 && statuses.at(-1) !== 429) statuses.push(await askForLink(page, `flood${statuses.length}@nowhere.example`));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(await page.getByRole("alert").textContent()).toContain("Too many reset requests from your network.");
  }, ERRAND);

  it("buckeye user reset-password prints a one-time link the user opens to set a new password", async () => {
    const { page } = await dash.freshPage();
    await dash.signUp(page, "Operator Helped", "helped@helped.example");
    await page.context().clearCookies();
    const env = { ...process.env, DATABASE_URL: dash.service.config.databaseUrl, PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: "silent" };
    const { stdout } = await run(process.execPath, [BIN, "user", "reset-password", "helped@helped.example"], { env });
    expect(stdout).toContain("It works once");
    await page.goto(linkIn(stdout));
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL("**/dashboard/sign-in");
    await dash.signIn(page, "helped@helped.example", NEW_PASSWORD);
    await page.waitForURL("**/dashboard/keys");
    await expect(run(process.execPath, [BIN, "user", "reset-password", "nobody@helped.example"], { env })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("no dashboard user with email nobody@helped.example") });
  }, ERRAND);
});

describe("sign-in notices: only what the server knows", () => {
  it("a crafted /dashboard/sign-in?reason=suspended shows no notice", async () => {
    const { page } = await dash.freshPage();
    for (const reason of ["suspended", "signed-out", "password-reset"]) {
      await page.goto(`/dashboard/sign-in?reason=${reason}`);
      expect(await page.locator(".notice").count()).toBe(0);
    }
  }, ERRAND);

  it("a suspended organization's user is told so once, with the operator's SUPPORT_CONTACT", async () => {
    const { page } = await dash.freshPage();
    await dash.signUp(page, "Paused Parts", "owner@paused.example");
    const organization = await dash.service.service.store.db.selectFrom("organizations").select("id").where("name", "=", "Paused Parts").executeTakeFirstOrThrow();
    await setOrganizationStatus(dash.service.service.store.db, organization.id, "suspended");
    await page.goto("/dashboard/keys");
    await page.waitForURL("**/dashboard/sign-in");
    const alert = page.getByRole("alert");
    expect(await alert.textContent()).toContain("Your organization is suspended.");
    expect(await alert.getByRole("link", { name: "help@buckeye.test" }).getAttribute("href")).toBe("mailto:help@buckeye.test");
    await page.reload();
    expect(await page.locator(".notice").count()).toBe(0);
  }, ERRAND);
});
