/**
 * Organizations made by open sign-up are in trial until an operator verifies them, and a trial
 * gives away little however many are made: organizations in trial share one organization's rate,
 * start no batch jobs, and have one webhook delivery in flight (test/delivery-claims.test.ts). A
 * real service, its API through the app, keys read from the store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { limitDefaults } from "../src/organization-limits.ts";
import { createAccountService, type AccountService } from "../src/accounts/account-service.ts";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { startTestService, type TestService } from "./_setup.ts";

const PER_ORGANIZATION = 3;
const CSV = "id,county\n1,adams\n";

let api: TestService;
let accounts: AccountService;
beforeAll(async () => {
  api = await startTestService({ RATE_LIMIT_PER_SECOND: "100", RATE_LIMIT_PER_SECOND_PER_ORG: String(PER_ORGANIZATION) });
  const { db } = api.service.store;
  accounts = createAccountService({ db, now: () => new Date(), keyChanged: () => api.service.context.keys.changed(), limitDefaults: { ...limitDefaults(loadConfig({})), activeKeys: 10 } });
});
afterAll(() => api.close());

async function trialKey(name: string): Promise<{ organizationId: string; key: string }> {
  const organization = await createOrganization(api.service.store.db, name, new Date(), { trial: true });
  return { organizationId: organization.id, key: (await createKey(api.service.store.db, organization.id, "trial", "test")).key };
}

const lookup = (key: string) => api.get("/api/v1/rates?county=adams", { authorization: `Bearer ${key}` });
const submitJob = (key: string) =>
  api.service.app.fetch(new Request("http://buckeye.test/api/v1/batches", { method: "POST", body: CSV, headers: { authorization: `Bearer ${key}`, "content-type": "text/csv" } }));

describe("sign-up in the dashboard makes a trial organization; an operator's are verified", () => {
  it("the account service makes a trial organization for open sign-up and a verified one for the CLI, and verify ends the trial", async () => {
    const opened = await accounts.signUp({ organizationName: "Open Door", email: "owner@open-door.example", password: "vermilion otter cartography" }, { trial: true });
    expect(opened.organization.verified_at).toBeNull();
    const made = await accounts.signUp({ organizationName: "Operator Made", email: "owner@operator-made.example", password: "vermilion otter cartography" }, { trial: false });
    expect(made.organization.verified_at).not.toBeNull();
    expect((await accounts.createOrganization("Bare Org")).verified_at).not.toBeNull();

    const verified = await accounts.verify(opened.organization.id);
    expect(verified?.verified_at).toEqual(expect.any(String));
    expect(await accounts.verify("org_missing")).toBeNull();
  });
});

describe("the dashboard tells the owner of an organization in trial what it gets, until it is verified", () => {
  const page = (path: string, cookie: string, init: RequestInit = {}) =>
    api.service.app.fetch(new Request(`http://buckeye.test${path}`, { redirect: "manual", ...init, headers: { cookie, ...(init.headers as Record<string, string>) } }));

  it("an owner who signed up sees the trial notice on the keys page, saying whom to ask; once verified, not", async () => {
    const form = await page("/dashboard/sign-up", "");
    const formCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signedUp = await page("/dashboard/sign-up", formCookie, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: token, organization: "Notice Works", email: "owner@notice.example", password: "vermilion otter cartography" }),
    });
    expect(signedUp.status).toBe(303);
    const session = signedUp.headers.getSetCookie().find((c) => c.startsWith("buckeye_session="))!.split(";")[0]!;
    const keysPage = await (await page("/dashboard/keys", session)).text();
    expect(keysPage).toContain("Your organization is in trial.");
    // With no SUPPORT_CONTACT set, the notice names who can verify it rather than a support desk that may not exist.
    expect(keysPage).toContain("To be verified, ask the people who run this Buckeye server");

    const { id } = await api.service.store.db.selectFrom("organizations").select("id").where("name", "=", "Notice Works").executeTakeFirstOrThrow();
    await accounts.verify(id);
    expect(await (await page("/dashboard/keys", session)).text()).not.toContain("in trial");
  });
});

describe("organizations in trial share one organization's rate, however many there are; verified ones keep their own", () => {
  it(`after ${PER_ORGANIZATION} requests from one trial organization, another trial organization's first request is 429 organization-rate-limit-exceeded, and a verified organization's is not`, async () => {
    const fixed = new Date("2026-03-01T12:00:00Z");
    api.clock.set(() => fixed);
    try {
      const first = await trialKey("Trial One");
      const second = await trialKey("Trial Two");
      for (let i = 0; i < PER_ORGANIZATION; i++) expect((await lookup(first.key)).status).toBe(200);
      const refused = await lookup(second.key);
      expect(refused.status).toBe(429);
      const problem = (await refused.json()) as { type: string; detail: string };
      expect(problem.type).toMatch(/organization-rate-limit-exceeded$/);
      expect(problem.detail).toMatch(/in trial/);
      for (let i = 0; i < PER_ORGANIZATION; i++) expect((await api.get("/api/v1/rates?county=adams")).status).toBe(200);

      // Verified, the organization draws from its own bucket at once, though the trial one is empty.
      await accounts.verify(second.organizationId);
      expect((await lookup(second.key)).status).toBe(200);
      expect((await lookup(first.key)).status).toBe(429);
    } finally {
      api.clock.set(() => new Date());
    }
  });
});

describe("an organization in trial starts no batch jobs until an operator verifies it", () => {
  it("POST /api/v1/batches is 403 organization-in-trial, and 202 once the organization is verified", async () => {
    const trial = await trialKey("Trial Jobs");
    const refused = await submitJob(trial.key);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(((await refused.json()) as { type: string }).type).toMatch(/organization-in-trial$/);
    expect((await api.service.store.db.selectFrom("batch_jobs").select("id").where("organization_id", "=", trial.organizationId).execute()).length).toBe(0);

    await accounts.verify(trial.organizationId);
    expect((await submitJob(trial.key)).status).toBe(202);
  });
});
