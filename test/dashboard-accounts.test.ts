/**
 * The dashboard's parts that need no browser: the operator CLI creating an owner, passwords,
 * cookies behind TLS, the sign-in throttle's clock, the html escaping helper, and the usage
 * recorder counting API requests without a database write per request.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSignIn, createOrganizationWithOwner } from "../src/accounts/accounts.ts";
import { loadConfig } from "../src/config.ts";
import { escapeHtml, html } from "../src/dashboard/html.ts";
import { hashPassword, verifyPassword } from "../src/accounts/password.ts";
import { passwordProblem } from "../src/accounts/password-policy.ts";
import { accountWaitMs, SignInThrottle } from "../src/accounts/sign-in-throttle.ts";
import { SubmitOnce } from "../src/dashboard/submit-once.ts";
import { openStore } from "../src/store/connect.ts";
import { listApiKeys } from "../src/store/api-keys.repository.ts";
import { UsageRecorder } from "../src/usage/usage-recorder.ts";
import { startService, type RunningService } from "../src/service.ts";
import { requestFrom } from "./_http.ts";
import { startTestService, type TestService } from "./_setup.ts";

const run = promisify(execFile);

const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;

describe("buckeye org create --email --password creates the organization's owner", () => {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-dashboard-cli-"));
  const databaseUrl = `sqlite:${join(dir, "cli.sqlite")}`;
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" };
  const buckeye = (...args: string[]) => run(process.execPath, [BIN, ...args], { env });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the same JSON keys (id, name, status), and the owner can sign in", async () => {
    const { stdout } = await buckeye("org", "create", "--name", "Buckeye Books", "--email", "Owner@Books.example", "--password", "a long passphrase", "--json");
    const org = JSON.parse(stdout);
    expect(org).toEqual({ id: expect.stringMatching(/^org_/), name: "Buckeye Books", status: "active", created: true });
    const store = openStore(databaseUrl);
    try {
      const result = await checkSignIn(store.db, "owner@books.example", "a long passphrase");
      expect(result).toMatchObject({ ok: true, organization: { id: org.id }, user: { email: "owner@books.example", role: "owner" } });
      expect((await checkSignIn(store.db, "owner@books.example", "a wrong passphrase")).ok).toBe(false);
    } finally {
      await store.close();
    }
  });

  it("an organization the operator creates is verified; `org verify` ends the trial of one made by sign-up, and `org list` says which is which", async () => {
    const store = openStore(databaseUrl);
    try {
      const made = await createOrganizationWithOwner(store.db, { organizationName: "Signed Up", email: "owner@signed-up.example", password: "vermilion otter cartography" }, new Date(), { trial: true });
      const listed = (await buckeye("org", "list")).stdout;
      expect(listed).toMatch(new RegExp(`${made.organization.id}\\s+active\\s+trial\\s+Signed Up`));
      expect(listed).toMatch(/verified\s+Buckeye Books/);
      const { stdout } = await buckeye("org", "verify", made.organization.id, "--json");
      expect(JSON.parse(stdout)).toEqual({ id: made.organization.id, name: "Signed Up", status: "active", verified_at: expect.any(String) });
      expect((await store.db.selectFrom("organizations").select("verified_at").where("id", "=", made.organization.id).executeTakeFirstOrThrow()).verified_at).not.toBeNull();
      await expect(buckeye("org", "verify", "org_missing")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("no organization org_missing") });
    } finally {
      await store.close();
    }
  }, 90_000);

  it("refuses --email without --password, a short password and a taken email, with exit code 1", async () => {
    await expect(buckeye("org", "create", "--name", "Half", "--email", "half@example.com")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("--email and --password go together") });
    await expect(buckeye("org", "create", "--name", "Short", "--email", "short@example.com", "--password", "short")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("at least 12 characters") });
    await expect(buckeye("org", "create", "--name", "Again", "--email", "owner@books.example", "--password", "another passphrase")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("already exists"),
    });
  });
});

describe("passwords are hashed with scrypt", () => {
  it("stores scrypt$N$r$p$salt$hash with a fresh salt, and verifies only the right password", async () => {
    const first = await hashPassword("correct horse battery");
    const second = await hashPassword("correct horse battery");
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword("correct horse battery", first)).toBe(true);
    expect(await verifyPassword("correct horse batterY", first)).toBe(false);
    expect(await verifyPassword("correct horse battery", "plain-text")).toBe(false);
  });
});

describe("sign-in throttle: counters in the database, shared by every instance", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());
  const db = () => service.service.store.db;
  /** A sign-in attempt from a client that has not signed in to the account before. */
  const from = (email: string, address: string) => ({ email, address, device: null });

  it("an account's failures from unknown clients slow its next sign-in rather than block it: none for the first 4, then 1 minute after the 5th, doubling with each further failure to 15 minutes at most (injected clock)", async () => {
    let now = Date.parse("2026-11-21T12:00:00Z");
    const throttle = new SignInThrottle(db(), () => new Date(now));
    for (let i = 0; i < 4; i++) await throttle.recordFailure(from("a@example.com", `10.0.0.${i}`));
    expect(await throttle.retryAfterSeconds(from("a@example.com", "10.0.0.1"))).toBe(0);
    const waits = [];
    for (let failure = 5; failure <= 10; failure++) {
      await throttle.recordFailure(from("a@example.com", `10.0.0.${failure}`));
      const wait = await throttle.retryAfterSeconds(from("a@example.com", "10.0.0.99"));
      waits.push(wait);
      now += (wait - 1) * 1000;
      expect(await throttle.retryAfterSeconds(from("a@example.com", "10.0.0.99"))).toBe(1);
      now += 1000;
      expect(await throttle.retryAfterSeconds(from("a@example.com", "10.0.0.99"))).toBe(0);
    }
    expect(waits).toEqual([60, 120, 240, 480, 900, 900]);
    expect(await throttle.retryAfterSeconds(from("b@example.com", "10.0.0.1"))).toBe(0);
  });

  it("the wait schedule: 0 for the first 4 failures in a day, then 1, 2, 4, 8 and 15 minutes", () => {
    expect(Array.from({ length: 11 }, (_, i) => accountWaitMs(i + 1) / 60_000)).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 15, 15, 15]);
  });

  it("an account's count lasts a day from its first failure, so waiting out a pause gives a guesser no fresh start; a right password from a new browser clears it", async () => {
    let now = Date.parse("2026-11-21T13:00:00Z");
    const throttle = new SignInThrottle(db(), () => new Date(now));
    for (let i = 0; i < 4; i++) await throttle.recordFailure(from("c@example.com", "10.0.1.1"));
    now += 23 * 60 * 60_000;
    await throttle.recordFailure(from("c@example.com", "10.0.1.2"));
    expect(await throttle.retryAfterSeconds(from("c@example.com", "10.0.1.3"))).toBe(60);
    now += 61 * 60_000;
    // More than a day after the first failure the count starts again.
    await throttle.recordFailure(from("c@example.com", "10.0.1.4"));
    expect(await throttle.retryAfterSeconds(from("c@example.com", "10.0.1.3"))).toBe(0);
    for (let i = 0; i < 3; i++) await throttle.recordFailure(from("c@example.com", "10.0.1.5"));
    await throttle.recordSuccess(from("c@example.com", "10.0.1.6"));
    await throttle.recordFailure(from("c@example.com", "10.0.1.5"));
    expect(await throttle.retryAfterSeconds(from("c@example.com", "10.0.1.5"))).toBe(0);
  });

  it("a guesser with a new address for every try, trying whenever the account lets it, gets 103 tries in a day (a fixed 5 per 15 minutes gave 480)", async () => {
    // Before every other test's time: this day's sweeps of stale counters must not reach their counters.
    const start = Date.parse("2026-11-01T00:00:00Z");
    let now = start;
    const throttle = new SignInThrottle(db(), () => new Date(now));
    let tries = 0;
    while (now < start + 24 * 60 * 60_000) {
      const address = `10.7.${tries >> 8}.${tries & 255}`;
      const wait = await throttle.retryAfterSeconds(from("guessed@example.com", address));
      if (wait > 0) now += wait * 1000;
      else {
        await throttle.recordFailure(from("guessed@example.com", address));
        tries++;
      }
    }
    expect(tries).toBe(103);
  }, 180_000);

  it("locks a client address after 20 failures across any emails", async () => {
    const throttle = new SignInThrottle(db(), () => new Date("2026-11-21T14:00:00Z"));
    for (let i = 0; i < 20; i++) await throttle.recordFailure(from(`user${i}@example.com`, "10.0.0.9"));
    expect(await throttle.retryAfterSeconds(from("fresh@example.com", "10.0.0.9"))).toBe(900);
  });

  it("two instances on one database share the count: 3 failures on one and 2 on the other make the account wait on both", async () => {
    const clock = () => new Date("2026-11-21T15:00:00Z");
    const [first, second] = [new SignInThrottle(db(), clock), new SignInThrottle(db(), clock)];
    await Promise.all([
      ...Array.from({ length: 3 }, () => first.recordFailure(from("d@example.com", "10.0.2.1"))),
      ...Array.from({ length: 2 }, () => second.recordFailure(from("d@example.com", "10.0.2.2"))),
    ]);
    expect(await first.retryAfterSeconds(from("d@example.com", "10.0.2.3"))).toBe(60);
    expect(await second.retryAfterSeconds(from("d@example.com", "10.0.2.3"))).toBe(60);
  });
});

describe("a stranger's wrong passwords cannot lock the owner out of a device that signed in before, and guessing from many addresses is still throttled", () => {
  let service: TestService & { url?: string };
  const OWNER = "owner@lockout.example";
  const OTHER = "other@lockout.example";
  const RIGHT = "vermilion otter cartography";
  beforeAll(async () => {
    service = await startTestService({}, true);
    // One instant throughout: the account's first pause is a minute, and these tests take longer than that on a loaded machine.
    service.clock.set(new Date("2026-11-21T18:00:00Z"));
    await createOrganizationWithOwner(service.service.store.db, { organizationName: "Lockout Works", email: OWNER, password: RIGHT });
    await createOrganizationWithOwner(service.service.store.db, { organizationName: "Other Works", email: OTHER, password: RIGHT });
  });
  afterAll(() => service.close());

  /** A sign-in over a real socket from a loopback address of our choosing, with the cookies the "device" holds. */
  async function signInFrom(address: string, email: string, password: string, device = ""): Promise<{ status: number; cookies: string[] }> {
    const form = await requestFrom(service.url!, address, "GET", "/dashboard/sign-in", { cookie: device });
    const formCookie = form.cookies.find((c) => c.startsWith("buckeye_form"))?.split(";")[0] ?? "";
    const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
    const answer = await requestFrom(service.url!, address, "POST", "/dashboard/sign-in", {
      cookie: [formCookie, device].filter(Boolean).join("; "),
      "content-type": "application/x-www-form-urlencoded",
    }, new URLSearchParams({ _csrf: token, email, password, next: "/dashboard/keys" }).toString());
    return { status: answer.status, cookies: answer.cookies };
  }

  const deviceCookieOf = (cookies: string[]) => cookies.find((c) => c.startsWith("buckeye_device="))!.split(";")[0]!;

  it("after 5 wrong passwords from 5 addresses, the right one from a sixth address is 429, and from the owner's device it signs in", async () => {
    const first = await signInFrom("127.0.0.20", OWNER, RIGHT);
    expect(first.status).toBe(303);
    const device = deviceCookieOf(first.cookies);
    expect(first.cookies.find((c) => c.startsWith("buckeye_device="))).toMatch(/HttpOnly/i);

    for (let n = 1; n <= 5; n++) expect((await signInFrom(`127.0.0.${n + 1}`, OWNER, `wrong guess ${n}`)).status).toBe(401);
    expect((await signInFrom("127.0.0.7", OWNER, RIGHT)).status).toBe(429);

    expect((await signInFrom("127.0.0.20", OWNER, RIGHT, device)).status).toBe(303);
    // The same device from another network is still the owner's device.
    expect((await signInFrom("127.0.0.21", OWNER, RIGHT, device)).status).toBe(303);
  });

  it("guessing from many more addresses is still refused before the password is checked, and another account's device cookie does not help", async () => {
    for (let n = 8; n < 14; n++) expect((await signInFrom(`127.0.0.${n}`, OWNER, `wrong guess ${n}`)).status).toBe(429);
    const other = await signInFrom("127.0.0.30", OTHER, RIGHT);
    expect(other.status).toBe(303);
    expect((await signInFrom("127.0.0.30", OWNER, RIGHT, deviceCookieOf(other.cookies))).status).toBe(429);
  });

  it("changing the password forgets every other device: theirs is then throttled as a stranger's, the device that changed it is not", async () => {
    const THIRD = "third@lockout.example";
    const NEW = "saffron heron lighthouse";
    await createOrganizationWithOwner(service.service.store.db, { organizationName: "Third Works", email: THIRD, password: RIGHT });
    const a = await signInFrom("127.0.0.50", THIRD, RIGHT);
    const b = await signInFrom("127.0.0.51", THIRD, RIGHT);
    const deviceA = deviceCookieOf(a.cookies);
    const sessionA = a.cookies.find((c) => c.startsWith("buckeye_session="))!.split(";")[0]!;
    const cookiesA = `${sessionA}; ${deviceA}`;
    const settings = await requestFrom(service.url!, "127.0.0.50", "GET", "/dashboard/settings", { cookie: cookiesA });
    const token = /name="_csrf" value="([^"]+)"/.exec(settings.body)![1]!;
    const changed = await requestFrom(service.url!, "127.0.0.50", "POST", "/dashboard/settings/password", { cookie: cookiesA, "content-type": "application/x-www-form-urlencoded" }, new URLSearchParams({ _csrf: token, current_password: RIGHT, new_password: NEW }).toString());
    expect(changed.status).toBe(303);

    for (let n = 1; n <= 5; n++) expect((await signInFrom(`127.0.0.${51 + n}`, THIRD, `wrong guess ${n}`)).status).toBe(401);
    expect((await signInFrom("127.0.0.51", THIRD, NEW, deviceCookieOf(b.cookies))).status).toBe(429);
    expect((await signInFrom("127.0.0.50", THIRD, NEW, deviceA)).status).toBe(303);
  });

  it("a known device's own wrong passwords lock that device only, after 5", async () => {
    const known = await signInFrom("127.0.0.40", OTHER, RIGHT);
    const device = deviceCookieOf(known.cookies);
    for (let n = 1; n <= 5; n++) expect((await signInFrom("127.0.0.40", OTHER, `typo ${n}`, device)).status).toBe(401);
    expect((await signInFrom("127.0.0.40", OTHER, RIGHT, device)).status).toBe(429);
    // The account's own count was not touched: a client without that device signs in.
    expect((await signInFrom("127.0.0.41", OTHER, RIGHT)).status).toBe(303);
  });
});

describe("one-time form tokens: in the database, shared by every instance", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  it("a token is accepted once, whichever instance sees it first, and by no other session's check", async () => {
    const clock = () => new Date("2026-11-21T16:00:00Z");
    const [first, second] = [new SubmitOnce(service.service.store.db, clock), new SubmitOnce(service.service.store.db, clock)];
    const token = first.newToken();
    const answers = await Promise.all([first.first("ses_a", token), second.first("ses_a", token), first.first("ses_a", token)]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await second.first("ses_a", token)).toBe(false);
    expect(await second.first("ses_b", token)).toBe(true);
  });
});

describe("html`` escapes what users typed", () => {
  it("escapes interpolated text, keeps nested html`` markup, joins lists and drops null and booleans", () => {
    const label = `<script>alert("x")</script> & 'y'`;
    expect(html`<td title="${label}">${label}</td>`.markup).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</td>',
    );
    expect(html`<ul>${["a<", "b"].map((x) => html`<li>${x}</li>`)}</ul>`.markup).toBe("<ul><li>a&lt;</li><li>b</li></ul>");
    expect(html`${null}${undefined}${false}${true}${0}`.markup).toBe("0");
    expect(escapeHtml(`"'<>&`)).toBe("&quot;&#39;&lt;&gt;&amp;");
  });
});

describe("session cookies: HttpOnly, SameSite=Lax, Secure behind TLS", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  async function signUp(headers: Record<string, string>): Promise<string> {
    const form = await service.service.app.fetch(new Request("http://buckeye.test/dashboard/sign-up", { headers }));
    const formCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const email = `owner-${Math.random().toString(36).slice(2)}@example.com`;
    const res = await service.service.app.fetch(
      new Request("http://buckeye.test/dashboard/sign-up", {
        method: "POST",
        headers: { ...headers, cookie: formCookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: token, organization: "Cookie Co", email, password: "quiet amber trellis" }),
      }),
    );
    expect(res.status).toBe(303);
    return res.headers.getSetCookie().find((c) => c.startsWith("buckeye_session="))!;
  }

  it("over plain http: HttpOnly; SameSite=Lax; Path=/dashboard, not Secure", async () => {
    const cookie = await signUp({});
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/dashboard/);
    expect(cookie).not.toMatch(/; Secure/);
  });

  it("behind a TLS proxy (X-Forwarded-Proto: https): also Secure", async () => {
    expect(await signUp({ "x-forwarded-proto": "https" })).toMatch(/; Secure/);
  });
});

describe("usage recorder: requests per key per day by outcome, counted in memory and written in batches", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMIT_PER_SECOND: "2", USAGE_FLUSH_MS: "3600000" });
    // A still clock: the bucket of 2 never refills between the requests, however slow the machine.
    service.clock.set(new Date("2026-11-21T15:00:00Z"));
  });
  afterAll(() => service.close());

  const usageRows = () => service.service.store.db.selectFrom("api_key_usage").selectAll().orderBy("day").execute();
  /** A stored day of `count` requests, before the outcome columns a test sets. */
  const row = (key_id: string, day: string, count: number) => ({ key_id, day, count, answered: 0, client_errors: 0, rate_limited: 0, server_errors: 0 });

  it("counts every request with a good key by its outcome, a 429 included, a 401 not, with no database write until the flush", async () => {
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) codes.push((await service.get("/api/v1/rates?county=franklin")).status);
    codes.push((await service.get("/api/v1/rates?county=franklin", { authorization: "Bearer tax_live_nope" })).status);
    expect(codes).toEqual([200, 200, 429, 401]);
    expect(await usageRows()).toEqual([]);

    await service.service.context.usage!.flush();
    const liveKey = (await listApiKeys(service.service.store.db, service.orgId)).find((k) => k.env === "live")!;
    expect(await usageRows()).toEqual([{ ...row(liveKey.id, "2026-11-21", 3), answered: 2, rate_limited: 1 }]);
    expect(liveKey.last_used_at).toBe("2026-11-21T15:00:00.000Z");
  });

  it("adds to the stored counts, splits at midnight in Ohio (not UTC), and writes what is left on stop", async () => {
    const db = service.service.store.db;
    await db.deleteFrom("api_key_usage").execute();
    let now = new Date("2026-11-21T04:59:00Z"); // 23:59 in Ohio (EST, UTC−5)
    const recorder = new UsageRecorder(db, { flushIntervalMs: 3_600_000, now: () => now });
    recorder.record("key_a", 200);
    recorder.record("key_a", 200);
    await recorder.flush();
    recorder.record("key_a", 200);
    now = new Date("2026-11-21T05:00:00Z"); // 00:00 in Ohio, the next day
    recorder.record("key_a", 200);
    await recorder.stop();
    expect(await usageRows()).toEqual([
      { ...row("key_a", "2026-11-20", 3), answered: 3 },
      { ...row("key_a", "2026-11-21", 1), answered: 1 },
    ]);
  });

  it("keeps the counts when a write fails, and writes them with the next flush", async () => {
    const db = service.service.store.db;
    await db.deleteFrom("api_key_usage").execute();
    const logged: unknown[] = [];
    const recorder = new UsageRecorder(db, { flushIntervalMs: 3_600_000, now: () => new Date("2026-11-21T15:00:00Z"), log: (entry) => logged.push(entry) });
    recorder.record("key_b", 200);
    await sql`ALTER TABLE api_key_usage RENAME TO api_key_usage_away`.execute(db);
    try {
      await recorder.flush();
    } finally {
      await sql`ALTER TABLE api_key_usage_away RENAME TO api_key_usage`.execute(db);
    }
    expect(logged).toHaveLength(1);
    recorder.record("key_b", 200);
    await recorder.flush();
    expect(await usageRows()).toEqual([{ ...row("key_b", "2026-11-21", 2), answered: 2 }]);
  });
});

describe("sign-up is throttled per client address, across instances", () => {
  let a: TestService & { url?: string };
  let b: RunningService;
  beforeAll(async () => {
    a = await startTestService({ SIGN_UP_LIMIT: "3" }, true);
    // A second instance on the same database: the count must be shared, not per process.
    b = await startService(a.config);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  async function signUpOver(base: string, n: number): Promise<Response> {
    const form = await fetch(`${base}/dashboard/sign-up`);
    const formCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    return fetch(`${base}/dashboard/sign-up`, {
      method: "POST",
      redirect: "manual",
      // A forwarded address is not believed: the socket's address is the client's.
      headers: { cookie: formCookie, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `203.0.113.${n}` },
      body: new URLSearchParams({ _csrf: token, organization: `Flood ${n}`, email: `flood-${n}@example.com`, password: "vermilion otter cartography" }),
    });
  }

  it("after SIGN_UP_LIMIT sign-ups from one address within 15 minutes, the next is 429 with Retry-After and creates nothing", async () => {
    const organizations = () => a.service.store.db.selectFrom("organizations").select("name").execute();
    const before = (await organizations()).length;
    for (let n = 1; n <= 3; n++) expect((await signUpOver(n % 2 ? a.url! : b.url, n)).status).toBe(303);
    const refused = await signUpOver(b.url, 4);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect(await refused.text()).toContain("Too many sign-ups from your network.");
    expect((await signUpOver(a.url!, 5)).status).toBe(429);
    const names = (await organizations()).map((o) => o.name);
    expect(names.length).toBe(before + 3);
    expect(names).not.toContain("Flood 4");
    // Open sign-up makes organizations in trial (docs/guides/dashboard.md, "Trial organizations").
    const flood = await a.service.store.db.selectFrom("organizations").select("verified_at").where("name", "like", "Flood %").execute();
    expect(flood.map((o) => o.verified_at)).toEqual([null, null, null]);
  });
});

describe("behind a trusted proxy (TRUSTED_PROXIES), the throttles count the client X-Forwarded-For names; from any other socket, the socket's address", () => {
  let service: TestService & { url?: string };
  let n = 0;
  beforeAll(async () => {
    // The proxy is 127.0.0.1; clients that connect from elsewhere in 127/8 stand for clients reaching the service directly.
    service = await startTestService({ SIGN_UP_LIMIT: "2", TRUSTED_PROXIES: "127.0.0.1/32" }, true);
  });
  afterAll(() => service.close());

  async function signUp(socket: string, forwardedFor: string): Promise<number> {
    const form = await requestFrom(service.url!, socket, "GET", "/dashboard/sign-up", {});
    const formCookie = form.cookies.find((c) => c.startsWith("buckeye_form"))!.split(";")[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
    n += 1;
    const body = new URLSearchParams({ _csrf: token, organization: `Proxied ${n}`, email: `proxied-${n}@example.com`, password: "vermilion otter cartography" }).toString();
    return (await requestFrom(service.url!, socket, "POST", "/dashboard/sign-up", { cookie: formCookie, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwardedFor }, body)).status;
  }

  it("clients behind the proxy are counted apart, and what a client writes left of the proxy's entry changes nothing", async () => {
    expect(await signUp("127.0.0.1", "198.51.100.7")).toBe(303);
    expect(await signUp("127.0.0.1", "198.51.100.7")).toBe(303);
    expect(await signUp("127.0.0.1", "198.51.100.7")).toBe(429);
    // A client that sends its own X-Forwarded-For: the proxy appends the address it saw, and that one counts.
    expect(await signUp("127.0.0.1", "203.0.113.99, 198.51.100.7")).toBe(429);
    expect(await signUp("127.0.0.1", "198.51.100.8")).toBe(303);
  });

  it("TRUSTED_PROXIES takes addresses and CIDR ranges of either family, and refuses anything else at start", () => {
    expect(loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.1, 2001:db8::/32" }).trustedProxies).toEqual(["10.0.0.0/8", "192.0.2.1", "2001:db8::/32"]);
    for (const bad of ["10.0.0.0/33", "proxy.internal", "10.0.0.1/8/2", "2001:db8::/129"]) expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(/IP address or a CIDR range/);
  });

  it("a socket that is not a trusted proxy is counted by its own address, whatever X-Forwarded-For it sends", async () => {
    expect(await signUp("127.0.0.9", "198.51.100.20")).toBe(303);
    expect(await signUp("127.0.0.9", "198.51.100.21")).toBe(303);
    expect(await signUp("127.0.0.9", "198.51.100.22")).toBe(429);
  });
});

describe("passwords follow NIST SP 800-63B: 12 code points, no common or breached passwords, no composition rules", () => {
  it.each([
    ["password12", /at least 12 characters/],
    ["aaaaaaaaaa", /at least 12 characters/],
    [" ".repeat(10), /at least 12 characters/],
    // Six emoji are twelve UTF-16 units but six characters.
    ["🦌🌰🏈🌽🚜🌾", /at least 12 characters/],
    ["password1234", /commonly used password/],
    ["aaaaaaaaaaaa", /Repeated characters/],
    [" ".repeat(12), /Repeated characters/],
    ["qwertyuiop12", /commonly used password/],
    ["iloveyou1234", /commonly used password/],
  ])("refuses %j", async (password, reason) => {
    expect(await passwordProblem(password)).toMatch(reason);
  });

  it("refuses a password made of the account's own email or organization name", async () => {
    expect(await passwordProblem("pemberton@ledger.example", ["pemberton@ledger.example", "Ledger Works"])).toMatch(/Do not build it from your email address or organization name/);
    expect(await passwordProblem("LedgerWorks2026", ["pemberton@ledger.example", "Ledger Works"])).toMatch(/Do not build it from your email address or organization name/);
    expect(await passwordProblem("pemberton@ledger.example")).toBeNull();
  });

  it("refuses a password built from the organization's words and the email's parts, even where zxcvbn alone scores it 3", async () => {
    expect(await passwordProblem("acmehardware123", ["owner@acme.example", "Acme Hardware & <Sons>"])).toMatch(/Do not build it from your email address or organization name/);
    expect(await passwordProblem("hardware sons acme 2026", ["owner@acme.example", "Acme Hardware & <Sons>"])).toMatch(/Do not build it from your email address or organization name/);
    expect(await passwordProblem("ownerexample99", ["owner@acme.example", "Acme Hardware & <Sons>"])).toMatch(/Do not build it from your email address or organization name/);
  });

  it("refuses a word said again and again", async () => {
    expect(await passwordProblem("betaco betaco betaco", ["owner@beta.example", "Beta Co"])).toMatch(/Do not repeat one word/);
    expect(await passwordProblem("marmalade marmalade marmalade")).toMatch(/repeat|Repeat/);
  });

  it("accepts a good passphrase that shares nothing, or little, with the account", async () => {
    expect(await passwordProblem("correct horse battery staple", ["owner@beta.example", "Beta Co"])).toBeNull();
    expect(await passwordProblem("acme ladders sturdy vermilion", ["owner@acme.example", "Acme Hardware & <Sons>"])).toBeNull();
  });

  it("accepts long passphrases of lowercase words without digits or symbols, and counts code points up to the maximum", async () => {
    expect(await passwordProblem("vermilion otter cartography")).toBeNull();
    expect(await passwordProblem("🦌🌰🏈🌽🚜🌾🦃🍎🚂🎻🧭🪕")).toBeNull();
    expect(await passwordProblem("é".repeat(100) + "🦌".repeat(100))).toMatch(/Repeated/);
    expect(await passwordProblem("🦌".repeat(201))).toMatch(/at most 200 characters/);
  });

  it("sign-up over HTTP refuses a common password with the reason at the field, and creates nothing", async () => {
    const service = await startTestService();
    try {
      const form = await service.service.app.fetch(new Request("http://buckeye.test/dashboard/sign-up"));
      const formCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
      const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const res = await service.service.app.fetch(
        new Request("http://buckeye.test/dashboard/sign-up", {
          method: "POST",
          headers: { cookie: formCookie, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ _csrf: token, organization: "Common Co", email: "common@example.com", password: "password1234" }),
        }),
      );
      expect(res.status).toBe(422);
      expect(await res.text()).toContain("This is similar to a commonly used password.");
      const names = (await service.service.store.db.selectFrom("organizations").select("name").execute()).map((o) => o.name);
      expect(names).not.toContain("Common Co");
    } finally {
      await service.close();
    }
  });
});

describe("an organization holds at most ACTIVE_KEYS_PER_ORG active keys, in the dashboard and the CLI alike", () => {
  let service: TestService & { url?: string };
  beforeAll(async () => {
    service = await startTestService({ ACTIVE_KEYS_PER_ORG: "2" }, true);
  });
  afterAll(() => service.close());

  it("key 3 is refused with the reason (dashboard 422, CLI exit 1), and allowed once a key is revoked", async () => {
    const base = service.url!;
    const form = await fetch(`${base}/dashboard/sign-up`);
    const formCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
    const signUpToken = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signedUp = await fetch(`${base}/dashboard/sign-up`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: formCookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: signUpToken, organization: "Capped Keys Co", email: "capped@example.com", password: "vermilion otter cartography" }),
    });
    expect(signedUp.status).toBe(303);
    const cookie = signedUp.headers.getSetCookie().find((c) => c.startsWith("buckeye_session="))!.split(";")[0]!;
    const createKey = async (label: string) => {
      const page = await (await fetch(`${base}/dashboard/keys`, { headers: { cookie } })).text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
      const once = /name="_once" value="([^"]+)"/.exec(page)![1]!;
      return fetch(`${base}/dashboard/keys`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: csrf, _once: once, label, env: "live" }),
      });
    };
    expect((await createKey("first")).status).toBe(201);
    expect((await createKey("second")).status).toBe(201);
    const refused = await createKey("third");
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("This organization already has 2 active API keys, the most it may hold; revoke a key it no longer uses before creating another.");

    const organization = await service.service.store.db.selectFrom("organizations").select("id").where("name", "=", "Capped Keys Co").executeTakeFirstOrThrow();
    const env = { ...process.env, DATABASE_URL: service.config.databaseUrl, ACTIVE_KEYS_PER_ORG: "2", LOG_LEVEL: "silent" };
    const buckeye = (...args: string[]) => run(process.execPath, [BIN, ...args], { env });
    await expect(buckeye("key", "create", "--org", organization.id, "--label", "from the CLI")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("already has 2 active API keys"),
    });

    const [first] = await listApiKeys(service.service.store.db, organization.id);
    await buckeye("key", "revoke", first!.prefix);
    expect((await createKey("third")).status).toBe(201);
    expect((await listApiKeys(service.service.store.db, organization.id)).map((k) => `${k.label} ${k.status}`)).toEqual(["first revoked", "second active", "third active"]);
    // Two CLI processes, each compiling the sources as it starts: slow on a loaded machine.
  }, 120_000);
});
