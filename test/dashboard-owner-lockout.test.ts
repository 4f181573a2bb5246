/**
 * Owners are never shut out of their own account by strangers (docs/guides/dashboard.md, "Sign-in
 * throttle" and "Forgotten passwords"), over real sockets from loopback addresses of our choosing,
 * without a browser: a completed reset proves the owner, strangers' reset requests cost the owner
 * nothing, and a server without mail says how to reset instead of failing. Mail goes to a FAKE
 * UPSTREAM SMTP server (test/_smtp.ts) the service is pointed at with SMTP_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationWithOwner } from "../src/accounts/accounts.ts";
import { freePort } from "./_http.ts";
import { startTestService } from "./_setup.ts";
import { startFakeSmtp, type FakeSmtp } from "./_smtp.ts";
import { Visitor } from "./_visitor.ts";

const RIGHT = "vermilion otter cartography";
const NEW_PASSWORD = "quietly orbiting marmalade lanterns";

/** A service with mail (to the fake SMTP server) and a real socket, and the accounts a test makes on it. */
function serviceWithMail() {
  const state = {} as { smtp: FakeSmtp; service: Awaited<ReturnType<typeof startTestService>>; url: string };
  beforeAll(async () => {
    state.smtp = await startFakeSmtp();
    const port = await freePort();
    state.service = await startTestService({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: state.smtp.url, MAIL_FROM: "Buckeye <no-reply@buckeye.test>" }, true);
    state.url = state.service.url!;
  }, ERRAND);
  afterAll(async () => {
    await state.service?.close();
    await state.smtp?.close();
  });
  return state;
}

/** The link in the latest mail to `email`, waiting up to `after` mails in all. */
async function linkMailedTo(smtp: FakeSmtp, email: string, count: number): Promise<string> {
  const mails = await smtp.waitForMails(count);
  const mail = mails.slice(count - 1).find((m) => m.to.includes(email));
  const link = mail && /http:\/\/\S+(\/dashboard\/reset-password\?token=[\w%-]+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no reset link mailed to ${email}`);
  return link;
}

/** The owner's whole errand from `browser`: asks for a link, opens the mail's link there and sets `password`. */
async function resetFrom(browser: Visitor, smtp: FakeSmtp, email: string, password: string): Promise<number> {
  const before = smtp.mails.length;
  expect((await browser.post("/dashboard/forgot-password", { email })).status).toBe(200);
  const link = await linkMailedTo(smtp, email, before + 1);
  expect((await browser.get(link)).status).toBe(200);
  return (await browser.post("/dashboard/reset-password", { token: new URL(link, "http://x").searchParams.get("token")!, password })).status;
}

/** Each test is several sign-ins and resets, each a scrypt hash: seconds apiece on a loaded machine. */
const ERRAND = 180_000;

describe("without SMTP_URL, the forgotten-password page says resets go through the operator", () => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  beforeAll(async () => {
    service = await startTestService({}, true);
  }, ERRAND);
  afterAll(() => service.close());

  it("names the operator command and sends nothing", async () => {
    const page = await new Visitor(service.url!, "127.0.0.1").get("/dashboard/forgot-password");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Password reset by email is not set up on this server.");
    expect(page.body).toContain("buckeye user reset-password &lt;email&gt;");
    expect(page.body).toContain("ask the people who run this Buckeye server");
    expect(page.body).not.toContain("<form");
  }, ERRAND);

  it("a post to the form answers that page with 200, however many come: never a 5xx the server-errors alert counts", async () => {
    const visitor = new Visitor(service.url!, "127.0.0.2");
    for (let i = 0; i < 12; i++) {
      const answer = await visitor.post("/dashboard/forgot-password", { email: "owner@nomail.example" });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("Password reset by email is not set up on this server.");
      expect(answer.body).toContain("buckeye user reset-password &lt;email&gt;");
    }
  }, ERRAND);
});

describe("a completed password reset proves the owner: it lifts the sign-in lock strangers set, and the browser it was done on is known", () => {
  const at = serviceWithMail();
  // One instant throughout: the account's first pause is a minute, and these errands take longer on a loaded machine.
  beforeAll(() => at.service.clock.set(new Date("2026-12-02T15:00:00Z")));

  it("after 5 wrong passwords from 5 addresses, the owner resets by the mailed link from a new browser and signs in with the new password there, from the device used before, and from any browser", async () => {
    const email = "owner@reset-lifts.example";
    await createOrganizationWithOwner(at.service.service.store.db, { organizationName: "Reset Lifts", email, password: RIGHT });
    const ownDevice = new Visitor(at.url, "127.0.1.20");
    expect((await ownDevice.signIn(email, RIGHT)).status).toBe(303);
    for (let n = 1; n <= 5; n++) expect((await new Visitor(at.url, `127.0.1.${n}`).signIn(email, `wrong guess ${n}`)).status).toBe(401);
    const newBrowser = new Visitor(at.url, "127.0.1.30");
    expect((await newBrowser.signIn(email, RIGHT)).status).toBe(429);

    expect(await resetFrom(newBrowser, at.smtp, email, NEW_PASSWORD)).toBe(303);
    expect((await newBrowser.signIn(email, NEW_PASSWORD)).status).toBe(303);
    expect((await ownDevice.signIn(email, NEW_PASSWORD)).status).toBe(303);
    expect((await new Visitor(at.url, "127.0.1.31").signIn(email, NEW_PASSWORD)).status).toBe(303);
    // The browser the reset was done on is now a known device: strangers pausing the account again do not reach it.
    expect(newBrowser.cookie("buckeye_device")).toBeTruthy();
    for (let n = 6; n <= 10; n++) expect((await new Visitor(at.url, `127.0.1.${n}`).signIn(email, `wrong guess ${n}`)).status).toBe(401);
    expect((await new Visitor(at.url, "127.0.1.32").signIn(email, NEW_PASSWORD)).status).toBe(429);
    expect((await newBrowser.signIn(email, NEW_PASSWORD)).status).toBe(303);
  }, ERRAND);

  it("the browser a reset was completed on stays the owner's: strangers locking the account again do not reach it", async () => {
    const email = "owner@reset-keeps.example";
    await createOrganizationWithOwner(at.service.service.store.db, { organizationName: "Reset Keeps", email, password: RIGHT });
    const ownDevice = new Visitor(at.url, "127.0.2.20");
    expect((await ownDevice.signIn(email, RIGHT)).status).toBe(303);
    // The owner's own typos lock the device itself; strangers lock new browsers.
    for (let n = 1; n <= 5; n++) expect((await ownDevice.signIn(email, `typo ${n}`)).status).toBe(401);
    for (let n = 1; n <= 5; n++) expect((await new Visitor(at.url, `127.0.2.${n}`).signIn(email, `wrong guess ${n}`)).status).toBe(401);
    expect((await ownDevice.signIn(email, RIGHT)).status).toBe(429);

    expect(await resetFrom(ownDevice, at.smtp, email, NEW_PASSWORD)).toBe(303);
    for (let n = 6; n <= 10; n++) await new Visitor(at.url, `127.0.2.${n}`).signIn(email, `wrong guess ${n}`);
    expect((await new Visitor(at.url, "127.0.2.30").signIn(email, NEW_PASSWORD)).status).toBe(429);
    expect((await ownDevice.signIn(email, NEW_PASSWORD)).status).toBe(303);
    // The same browser on another network is still the owner's.
    expect((await ownDevice.from("127.0.2.31").signIn(email, NEW_PASSWORD)).status).toBe(303);
  }, ERRAND);
});

describe("strangers' reset requests cost the owner nothing: the owner's own request is answered and mailed", () => {
  const at = serviceWithMail();

  it("after three strangers ask for the owner's address, the owner's request gets the same page, the inbox holds a link that works, and from a known device a fresh mail comes", async () => {
    const email = "owner@asked-for.example";
    await createOrganizationWithOwner(at.service.service.store.db, { organizationName: "Asked For", email, password: RIGHT });
    const ownDevice = new Visitor(at.url, "127.0.3.20");
    expect((await ownDevice.signIn(email, RIGHT)).status).toBe(303);
    const before = at.smtp.mails.length;
    const answers = [];
    for (let n = 1; n <= 3; n++) answers.push(await new Visitor(at.url, `127.0.3.${n}`).post("/dashboard/forgot-password", { email }));
    const newBrowser = new Visitor(at.url, "127.0.3.30");
    answers.push(await newBrowser.post("/dashboard/forgot-password", { email }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.replace(/name="_csrf" value="[^"]+"/, "")))).toHaveProperty("size", 1);

    // One mail for the four requests, and its link works from the owner's new browser.
    const link = await linkMailedTo(at.smtp, email, before + 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at.smtp.mails.slice(before).filter((m) => m.to.includes(email))).toHaveLength(1);
    expect((await newBrowser.get(link)).status).toBe(200);

    expect((await ownDevice.post("/dashboard/forgot-password", { email })).status).toBe(200);
    const fresh = await linkMailedTo(at.smtp, email, before + 2);
    expect(fresh).not.toBe(link);
    expect((await ownDevice.get(fresh)).status).toBe(200);
  }, ERRAND);

  it("one client address may ask 10 times per 15 minutes, whatever emails it names, then gets 429; the owner asking from elsewhere is answered", async () => {
    const email = "owner@flooded.example";
    await createOrganizationWithOwner(at.service.service.store.db, { organizationName: "Flooded", email, password: RIGHT });
    const flooder = new Visitor(at.url, "127.0.4.1");
    for (let n = 0; n < 10; n++) expect((await flooder.post("/dashboard/forgot-password", { email: n % 2 ? email : `nobody${n}@flooded.example` })).status).toBe(200);
    const refused = await flooder.post("/dashboard/forgot-password", { email: "someone@else.example" });
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("3600");
    expect(refused.body).toContain("Too many reset requests from your network.");
    expect((await new Visitor(at.url, "127.0.4.2").post("/dashboard/forgot-password", { email })).status).toBe(200);
  }, ERRAND);
});

describe("strangers' wrong passwords slow a new browser rather than block it", () => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const start = Date.parse("2026-12-02T16:00:00Z");
  beforeAll(async () => {
    service = await startTestService({}, true);
    service.clock.set(new Date(start));
  }, ERRAND);
  afterAll(() => service.close());

  it("after 5 wrong passwords from 5 addresses a new browser gets 429 with Retry-After 60, told how the owner gets in at once, and a minute later signs in", async () => {
    const email = "owner@slowed.example";
    await createOrganizationWithOwner(service.service.store.db, { organizationName: "Slowed", email, password: RIGHT });
    for (let n = 1; n <= 5; n++) expect((await new Visitor(service.url!, `127.0.5.${n}`).signIn(email, `wrong guess ${n}`)).status).toBe(401);
    const paused = await new Visitor(service.url!, "127.0.5.30").signIn(email, RIGHT);
    expect(paused.status).toBe(429);
    expect(paused.headers["retry-after"]).toBe("60");
    expect(paused.body).toContain("Try again in 1 minute");
    expect(paused.body).toContain("sign in from a browser you have signed in with before");
    expect(paused.body).toContain('<a href="/dashboard/forgot-password">resetting your password</a> lifts the pause');
    service.clock.set(new Date(start + 60_000));
    expect((await new Visitor(service.url!, "127.0.5.31").signIn(email, RIGHT)).status).toBe(303);
  }, ERRAND);
});
