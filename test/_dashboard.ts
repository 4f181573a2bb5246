/**
 * What every dashboard test file shares: a real Buckeye service on a real socket, a real webhook
 * receiver on loopback, Debian's chromium driven by playwright-core, and the steps a person takes
 * (sign up, sign in, create a key). `dashboardHarness()` starts them in the file's beforeAll and
 * stops them in its afterAll. Screenshots go to test/artifacts/ for review.
 */
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "./_browser.ts";
import { startReceiver, type Receiver } from "./_receiver.ts";
import { startTestService, type TestService } from "./_setup.ts";

const ARTIFACTS = new URL("artifacts/", import.meta.url).pathname;
export const PASSWORD = "correct horse battery staple";
export const PHONE = { width: 390, height: 844 };

export interface DashboardHarness {
  readonly service: TestService & { url?: string };
  readonly base: string;
  readonly receiver: Receiver;
  shot(page: Page, name: string): Promise<void>;
  freshPage(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
  signUp(page: Page, organization: string, email: string): Promise<void>;
  signIn(page: Page, email: string, password?: string): Promise<void>;
  createKey(page: Page, label: string, env: "Live" | "Test"): Promise<string>;
  rates(key: string): Promise<Response>;
}

/** `env`: settings for the service under test beyond the harness's own, read when it starts (after the file's earlier beforeAll hooks). */
export function dashboardHarness(env: () => Record<string, string> = () => ({})): DashboardHarness {
  let service: TestService & { url?: string };
  let base: string;
  let browser: Browser;
  let receiver: Receiver;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    service = await startTestService({ WEBHOOK_POLL_MS: "100", WEBHOOK_PRIVATE_TARGETS: "loopback", ...env() }, true);
    base = service.url!;
    receiver = await startReceiver();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await service?.close();
  });

  return {
    get service() {
      return service;
    },
    get base() {
      return base;
    },
    get receiver() {
      return receiver;
    },
    async shot(page, name) {
      const take = () => page.screenshot({ path: `${ARTIFACTS}dashboard-${name}.png`, fullPage: true });
      // Headless chromium now and then answers "Unable to capture screenshot" on a loaded machine; a
      // second try succeeds. A second failure is reported.
      await take().catch(async () => {
        await page.waitForTimeout(250);
        await take();
      });
    },
    async freshPage(viewport = { width: 1200, height: 900 }) {
      const context = await browser.newContext({ viewport, baseURL: base });
      return { context, page: await context.newPage() };
    },
    async signUp(page, organization, email) {
      await page.goto("/dashboard/sign-up");
      await page.getByLabel("Organization name").fill(organization);
      await page.getByLabel("Your work email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL("**/dashboard/keys?welcome=1");
    },
    async signIn(page, email, password = PASSWORD) {
      await page.goto("/dashboard/sign-in");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
    },
    async createKey(page, label, env) {
      await page.goto("/dashboard/keys");
      await page.getByLabel("Label").fill(label);
      await page.getByRole("radio", { name: new RegExp(`^${env}`) }).check();
      await page.getByRole("button", { name: "Create key" }).click();
      return (await page.locator("#new-key").textContent())!.trim();
    },
    rates(key) {
      return fetch(`${base}/api/v1/rates?county=franklin`, { headers: { authorization: `Bearer ${key}` } });
    },
  };
}
