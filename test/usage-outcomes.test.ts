/**
 * A key's requests counted by outcome (docs/guides/dashboard.md, "Usage counting"): answered (below
 * 400), client errors (4xx but 429), throttled (429), server errors (5xx), so a customer whose
 * requests are refused does not see them as answered. The recorder and the store on their own, then
 * real requests through the app and the usage page they show on. SQLite, or PostgreSQL under
 * TEST_DATABASE_URL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { migrateDownOne, migrateToLatest } from "../src/store/migrate.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { listUsage } from "../src/store/usage.repository.ts";
import { outcomeClass, UsageRecorder } from "../src/usage/usage-recorder.ts";
import { startTestService, type TestService } from "./_setup.ts";
import { freshStore } from "./_store.ts";

const NOON_IN_OHIO = new Date("2026-11-21T17:00:00Z");

describe("outcome classes: below 400 answered, 429 throttled, other 4xx client errors, 5xx server errors", () => {
  it.each([
    [200, 0],
    [202, 0],
    [204, 0],
    [304, 0],
    [400, 1],
    [401, 1],
    [404, 1],
    [413, 1],
    [422, 1],
    [429, 2],
    [500, 3],
    [503, 3],
  ])("status %d is class %d", (status, index) => {
    expect(outcomeClass(status)).toBe(index);
  });
});

describe("the recorder and the store: a day's requests per key by outcome, with their total", () => {
  let store: Awaited<ReturnType<typeof freshStore>>;
  let orgId: string;
  let keyId: string;
  beforeAll(async () => {
    store = await freshStore();
    orgId = (await createOrganization(store.store.db, "Outcomes Co")).id;
    keyId = (await createKey(store.store.db, orgId, "checkout", "live")).id;
  });
  afterAll(() => store.close());
  afterEach(() => store.store.db.deleteFrom("api_key_usage").execute());

  it("3 answered, 2 refused as sent (400) and 1 throttled (429) are stored as 3 / 2 / 1, 6 in all, with one write at the flush", async () => {
    const recorder = new UsageRecorder(store.store.db, { flushIntervalMs: 3_600_000, now: () => NOON_IN_OHIO });
    for (const status of [200, 200, 400, 200, 429, 400]) recorder.record(keyId, status);
    expect(await listUsage(store.store.db, orgId, "2026-11-21", "2026-11-21")).toEqual([]);
    await recorder.flush();
    expect(await listUsage(store.store.db, orgId, "2026-11-01", "2026-11-30")).toEqual([
      { keyId, day: "2026-11-21", total: 6, answered: 3, clientErrors: 2, rateLimited: 1, serverErrors: 0, unclassified: 0 },
    ]);
  });

  it("a later flush adds to each outcome apart, a 5xx to server errors", async () => {
    const recorder = new UsageRecorder(store.store.db, { flushIntervalMs: 3_600_000, now: () => NOON_IN_OHIO });
    recorder.record(keyId, 200);
    recorder.record(keyId, 404);
    await recorder.flush();
    for (const status of [200, 503, 500, 429]) recorder.record(keyId, status);
    await recorder.stop();
    expect(await listUsage(store.store.db, orgId, "2026-11-21", "2026-11-21")).toEqual([
      { keyId, day: "2026-11-21", total: 6, answered: 2, clientErrors: 1, rateLimited: 1, serverErrors: 2, unclassified: 0 },
    ]);
  });
});

describe("rows counted before outcomes were recorded keep their total and are shown as of no recorded outcome, never as answered", () => {
  it("migrating a day of 7 requests leaves 7 in all, 0 in each outcome and 7 unclassified; new requests that day are classed", async () => {
    const { store, close } = await freshStore();
    try {
      const orgId = (await createOrganization(store.db, "Before Co")).id;
      const keyId = (await createKey(store.db, orgId, "old", "live")).id;
      const down = await migrateDownOne(store.db);
      expect(down.error).toBeUndefined();
      expect(down.results?.map((r) => r.migrationName)).toEqual(["2026-12-02-460-usage-outcomes"]);
      // As the old recorder wrote it: the key, the day and its count.
      await store.db.insertInto("api_key_usage").values({ key_id: keyId, day: "2026-11-20", count: 7 } as never).execute();
      await migrateToLatest(store.db);

      const recorder = new UsageRecorder(store.db, { flushIntervalMs: 3_600_000, now: () => new Date("2026-11-20T17:00:00Z") });
      recorder.record(keyId, 200);
      recorder.record(keyId, 400);
      await recorder.stop();
      expect(await listUsage(store.db, orgId, "2026-11-20", "2026-11-20")).toEqual([
        { keyId, day: "2026-11-20", total: 9, answered: 1, clientErrors: 1, rateLimited: 0, serverErrors: 0, unclassified: 7 },
      ]);
    } finally {
      await close();
    }
  });
});

/** The usage page's figures in the row of the key labelled `label`, by column label. */
function keyRow(page: string, label: string): Record<string, string> {
  const row = page.split("<tr").find((tr) => tr.includes(`> ${label}</span>`));
  if (!row) throw new Error(`no row for ${label}`);
  return Object.fromEntries([...row.matchAll(/<td data-label="([^"]+)" class="num">([^<]*)<\/td>/g)].map((m) => [m[1]!, m[2]!]));
}

describe("GET /dashboard/usage: a key's answered, refused and throttled requests in columns of their own", () => {
  let api: TestService;
  beforeAll(async () => {
    // A key may burst to 5: with a still clock the sixth request is throttled.
    api = await startTestService({ RATE_LIMIT_PER_SECOND: "5", RATE_LIMIT_PER_SECOND_PER_ORG: "1000", USAGE_FLUSH_MS: "3600000" });
    api.clock.set(NOON_IN_OHIO);
  });
  afterAll(() => api.close());

  const page = (path: string, cookie: string, init: RequestInit = {}) =>
    api.service.app.fetch(new Request(`http://buckeye.test${path}`, { redirect: "manual", ...init, headers: { cookie, ...(init.headers as Record<string, string>) } }));

  async function signUp(organization: string, email: string): Promise<{ session: string; organizationId: string }> {
    const form = await page("/dashboard/sign-up", "");
    const formCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signedUp = await page("/dashboard/sign-up", formCookie, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: token, organization, email, password: "vermilion otter cartography" }),
    });
    expect(signedUp.status).toBe(303);
    const session = signedUp.headers.getSetCookie().find((c) => c.startsWith("buckeye_session="))!.split(";")[0]!;
    const { id } = await api.service.store.db.selectFrom("organizations").select("id").where("name", "=", organization).executeTakeFirstOrThrow();
    return { session, organizationId: id };
  }

  it("3 good lookups, 2 bad requests (400) and 1 over the rate limit (429) show as 3 answered, 2 client errors, 1 throttled, 6 in all; a wrong key's 401 is not counted", async () => {
    const { session, organizationId } = await signUp("Outcome Hardware", "owner@outcome.example");
    const { key } = await createKey(api.service.store.db, organizationId, "Storefront", "live");
    const call = (query: string, bearer = key) => api.get(`/api/v1/rates?${query}`, { authorization: `Bearer ${bearer}` });
    const statuses = [
      (await call("county=franklin")).status,
      (await call("county=franklin&dat=2026-01-01")).status,
      (await call("zip=43215")).status,
      (await call("county=franklin&date=2025-02-30")).status,
      (await call("county=adams")).status,
      (await call("county=franklin")).status,
      (await call("county=franklin", "tax_live_nope")).status,
    ];
    expect(statuses).toEqual([200, 400, 200, 400, 200, 429, 401]);

    const usage = await (await page("/dashboard/usage", session)).text();
    expect(keyRow(usage, "Storefront")).toEqual({
      Today: "6",
      "30 days": "6",
      "Answered (2xx)": "3",
      "Client errors (4xx)": "2",
      "Throttled (429)": "1",
      "Server errors (5xx)": "0",
    });
    expect(usage).toContain("6 requests: 3 answered, 2 client errors, 1 throttled, 0 server errors");
    // Each outcome is explained on the page, and there is no unrecorded column when every day has outcomes.
    for (const label of ["Answered (2xx)", "Client errors (4xx)", "Throttled (429)", "Server errors (5xx)"]) expect(usage).toContain(`<dt>${label}</dt>`);
    expect(usage).not.toContain("Outcome not recorded");
    const today = /<tr><th scope="row"><time datetime="2026-11-21">[^]*?<\/tr>/.exec(usage)![0];
    // The day table: live All, 2xx, 4xx, 429, 5xx, then test's five.
    expect([...today.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1])).toEqual(["6", "3", "2", "1", "0", "0", "0", "0", "0", "0"]);
  });

  it("a day counted before outcomes were recorded shows in a column of its own, explained, and not as answered", async () => {
    const { session, organizationId } = await signUp("Older Hardware", "owner@older.example");
    const { id } = await createKey(api.service.store.db, organizationId, "Back office", "test");
    // As the recorder wrote a day before migrations/2026-12-02-460-usage-outcomes.ts: its total, every outcome 0.
    await api.service.store.db.insertInto("api_key_usage").values({ key_id: id, day: "2026-11-19", count: 4, answered: 0, client_errors: 0, rate_limited: 0, server_errors: 0 }).execute();
    const usage = await (await page("/dashboard/usage", session)).text();
    expect(keyRow(usage, "Back office")).toEqual({
      Today: "0",
      "30 days": "4",
      "Answered (2xx)": "0",
      "Client errors (4xx)": "0",
      "Throttled (429)": "0",
      "Server errors (5xx)": "0",
      "Outcome not recorded": "4",
    });
    expect(usage).toContain("<dt>Outcome not recorded</dt>");
    expect(usage).toContain("4 requests: 0 answered, 0 client errors, 0 throttled, 0 server errors, 4 with no outcome recorded");
  });
});
