/**
 * The password reset rules of the account service (src/accounts/password-reset.ts), without HTTP,
 * against a real database and a clock the tests move: links are stored hashed, expire after 30
 * minutes, work once, and using one ends every session of the user. The browser side is
 * test/dashboard-password-reset.test.ts.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountService, type AccountService } from "../src/accounts/account-service.ts";
import { AccountError } from "../src/accounts/accounts.ts";
import { knownDevice, rememberNewDevice } from "../src/accounts/known-devices.ts";
import { RESET_TTL_MS } from "../src/accounts/password-reset.ts";
import { RESET_MAIL_SPACING_MS } from "../src/accounts/reset-throttle.ts";
import { loadConfig } from "../src/config.ts";
import { limitDefaults } from "../src/organization-limits.ts";
import type { Store } from "../src/store/connect.ts";
import { insertSession } from "../src/store/sessions.repository.ts";
import { freshStore } from "./_store.ts";

const PASSWORD = "correct horse battery staple";
const NEW_PASSWORD = "quietly orbiting marmalade lanterns";

let store: Store;
let close: () => Promise<void>;
let accounts: AccountService;
let now = new Date("2026-11-27T12:00:00Z");

beforeAll(async () => {
  ({ store, close } = await freshStore());
  accounts = createAccountService({ db: store.db, now: () => now, keyChanged: async () => {}, limitDefaults: { ...limitDefaults(loadConfig({})), activeKeys: 20 } });
});
afterAll(() => close());

async function owner(name: string, email: string) {
  return (await accounts.signUp({ organizationName: name, email, password: PASSWORD }, { trial: true })).owner;
}

// scrypt and zxcvbn take seconds each on a loaded 2-core machine.
const SLOW = { timeout: 120_000 };

describe("password reset links", SLOW, () => {
  it("are stored only as the SHA-256 of their token, and none is made for an unknown address", async () => {
    const user = await owner("Hashed Links", "hashed@links.example");
    const issued = (await accounts.issuePasswordReset("Hashed@Links.example"))!;
    expect(issued.email).toBe("hashed@links.example");
    const rows = await store.db.selectFrom("password_resets").selectAll().where("user_id", "=", user.id).execute();
    expect(rows.map((r) => r.token_hash)).toEqual([createHash("sha256").update(issued.token).digest("hex")]);
    expect(JSON.stringify(rows)).not.toContain(issued.token);
    expect(await accounts.issuePasswordReset("nobody@links.example")).toBeNull();
  });

  it("work for 30 minutes, then open nothing", async () => {
    await owner("Late Co", "late@late.example");
    const issued = (await accounts.issuePasswordReset("late@late.example"))!;
    expect(issued.expiresAt.getTime() - now.getTime()).toBe(RESET_TTL_MS);
    const start = now;
    try {
      now = new Date(start.getTime() + RESET_TTL_MS - 1000);
      expect(await accounts.passwordResetFor(issued.token)).toEqual({ email: "late@late.example" });
      now = new Date(start.getTime() + RESET_TTL_MS);
      expect(await accounts.passwordResetFor(issued.token)).toBeNull();
      expect(await accounts.resetPassword(issued.token, NEW_PASSWORD)).toEqual({ ok: false, reason: "invalid-link" });
      expect((await accounts.checkSignIn("late@late.example", PASSWORD)).ok).toBe(true);
    } finally {
      now = start;
    }
  });

  it("work once: the new password signs in, the old one and the used link do not, every session ends, and older links die with it", async () => {
    const user = await owner("Once Only", "once@once.example");
    for (const n of [1, 2]) {
      await insertSession(store.db, { tokenHash: `session-${n}-${user.id}`, userId: user.id, csrfToken: "x", expiresAt: new Date(now.getTime() + 3_600_000) }, now);
    }
    const older = (await accounts.issuePasswordReset("once@once.example"))!;
    const issued = (await accounts.issuePasswordReset("once@once.example"))!;
    const result = await accounts.resetPassword(issued.token, NEW_PASSWORD);
    expect(result).toMatchObject({ ok: true, email: "once@once.example", signedOut: 2 });
    expect(await store.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect((await accounts.checkSignIn("once@once.example", NEW_PASSWORD)).ok).toBe(true);
    expect((await accounts.checkSignIn("once@once.example", PASSWORD)).ok).toBe(false);
    expect(await accounts.resetPassword(issued.token, "another fine passphrase entirely")).toEqual({ ok: false, reason: "invalid-link" });
    expect(await accounts.resetPassword(older.token, "another fine passphrase entirely")).toEqual({ ok: false, reason: "invalid-link" });
  });

  it("refuse a new password the sign-up rule refuses, and the link still works after", async () => {
    await owner("Beta Co", "owner@beta.example");
    const issued = (await accounts.issuePasswordReset("owner@beta.example"))!;
    expect(await accounts.resetPassword(issued.token, "betaco betaco betaco")).toMatchObject({ ok: false, reason: "password" });
    expect(await accounts.resetPassword(issued.token, NEW_PASSWORD)).toMatchObject({ ok: true });
  });
});

describe("a completed reset proves the owner: it lifts the sign-in lock, and the device it was completed on is known", SLOW, () => {
  const stranger = (email: string, address: string) => ({ email, address, device: null });

  it("strangers' wrong passwords from 5 addresses lock new browsers out; a reset lifts that lock, and the browser it was completed on becomes a known device", async () => {
    const email = "locked@locked.example";
    await owner("Locked Out Co", email);
    for (let n = 1; n <= 5; n++) await accounts.signIns.recordFailure(stranger(email, `10.9.0.${n}`));
    expect(await accounts.signIns.retryAfterSeconds(stranger(email, "10.9.0.6"))).toBeGreaterThan(0);

    const issued = (await accounts.issuePasswordReset(email))!;
    const result = await accounts.resetPassword(issued.token, NEW_PASSWORD, null);
    if (!result.ok) throw new Error(`reset refused: ${result.reason}`);
    expect(await accounts.signIns.retryAfterSeconds(stranger(email, "10.9.0.6"))).toBe(0);
    const device = await knownDevice(store.db, result.newDeviceToken, email, now);
    expect(device).not.toBeNull();
    // From that browser the owner is throttled by its own count: strangers locking the account again do not reach it.
    for (let n = 1; n <= 5; n++) await accounts.signIns.recordFailure(stranger(email, `10.9.1.${n}`));
    expect(await accounts.signIns.retryAfterSeconds(stranger(email, "10.9.1.6"))).toBeGreaterThan(0);
    expect(await accounts.signIns.retryAfterSeconds({ email, address: "10.9.1.6", device })).toBe(0);
  });

  it("a reset completed on a device the account knows keeps that device and lifts its own lock, forgets every other device, and makes no new token", async () => {
    const email = "devices@devices.example";
    const user = await owner("Device Co", email);
    const [mine, other] = [await rememberNewDevice(store.db, user.id, now), await rememberNewDevice(store.db, user.id, now)];
    const myDevice = (await knownDevice(store.db, mine, email, now))!;
    for (let n = 1; n <= 5; n++) await accounts.signIns.recordFailure({ email, address: "10.9.2.1", device: myDevice });
    expect(await accounts.signIns.retryAfterSeconds({ email, address: "10.9.2.1", device: myDevice })).toBeGreaterThan(0);

    const issued = (await accounts.issuePasswordReset(email))!;
    expect(await accounts.resetPassword(issued.token, NEW_PASSWORD, mine)).toMatchObject({ ok: true, newDeviceToken: null });
    expect(await knownDevice(store.db, mine, email, now)).toBe(myDevice);
    expect(await knownDevice(store.db, other, email, now)).toBeNull();
    expect(await accounts.signIns.retryAfterSeconds({ email, address: "10.9.2.1", device: myDevice })).toBe(0);
  });

  it("another account's device token is not kept: the browser gets a new one for this account", async () => {
    const email = "mixed@mixed.example";
    await owner("Mixed Co", email);
    const stranger = await owner("Someone Else", "else@else.example");
    const theirs = await rememberNewDevice(store.db, stranger.id, now);
    const issued = (await accounts.issuePasswordReset(email))!;
    const result = await accounts.resetPassword(issued.token, NEW_PASSWORD, theirs);
    if (!result.ok) throw new Error(`reset refused: ${result.reason}`);
    expect(result.newDeviceToken).not.toBeNull();
    expect(result.newDeviceToken).not.toBe(theirs);
    expect(await knownDevice(store.db, result.newDeviceToken, email, now)).not.toBeNull();
    expect(await knownDevice(store.db, theirs, "else@else.example", now)).not.toBeNull();
  });
});

describe("strangers' reset requests cost the owner at most one mail per 10 minutes, and never lock the owner out of resets", SLOW, () => {
  it("of requests for one account within 10 minutes only the first is mailed, and its link still works when the others send nothing; 10 minutes on, one is mailed again", async () => {
    const email = "spaced@spaced.example";
    await owner("Spaced Co", email);
    const first = await accounts.requestPasswordReset(email, null);
    if (first.outcome !== "mail") throw new Error(`first request: ${first.outcome}`);
    for (let i = 0; i < 3; i++) expect(await accounts.requestPasswordReset(email, null)).toEqual({ outcome: "recently-mailed" });
    const start = now;
    try {
      now = new Date(start.getTime() + RESET_MAIL_SPACING_MS - 1000);
      expect(await accounts.requestPasswordReset("Spaced@Spaced.example", null)).toEqual({ outcome: "recently-mailed" });
      expect(await accounts.passwordResetFor(first.issued.token)).toEqual({ email });
      now = new Date(start.getTime() + RESET_MAIL_SPACING_MS);
      expect((await accounts.requestPasswordReset(email, null)).outcome).toBe("mail");
    } finally {
      now = start;
    }
  });

  it("a request from a device the account knows is the owner's: it is mailed whatever strangers asked, and another account's device gets no such pass", async () => {
    const email = "known@asker.example";
    const user = await owner("Known Asker", email);
    const device = await rememberNewDevice(store.db, user.id, now);
    const elsewhere = await rememberNewDevice(store.db, (await owner("Elsewhere Co", "else@asker.example")).id, now);
    expect((await accounts.requestPasswordReset(email, null)).outcome).toBe("mail");
    expect((await accounts.requestPasswordReset(email, null)).outcome).toBe("recently-mailed");
    expect((await accounts.requestPasswordReset(email, device)).outcome).toBe("mail");
    expect((await accounts.requestPasswordReset(email, device)).outcome).toBe("mail");
    expect((await accounts.requestPasswordReset(email, elsewhere)).outcome).toBe("recently-mailed");
  });

  it("an email no account has makes no link", async () => {
    expect(await accounts.requestPasswordReset("nobody@asker.example", null)).toEqual({ outcome: "no-account" });
    expect(await accounts.requestPasswordReset("nobody@asker.example", null)).toEqual({ outcome: "no-account" });
  });

  it("the only pause is the asker's: one client address may ask 10 times per 15 minutes, then waits an hour; another address is not held back", async () => {
    for (let i = 0; i < 10; i++) {
      expect(await accounts.resets.retryAfterSeconds("10.8.0.1")).toBe(0);
      await accounts.resets.recordRequest("10.8.0.1");
    }
    expect(await accounts.resets.retryAfterSeconds("10.8.0.1")).toBe(3600);
    expect(await accounts.resets.retryAfterSeconds("10.8.0.2")).toBe(0);
  });
});

describe("every field's problem at once", SLOW, () => {
  it("sign-up reports the name, the email and the password together", async () => {
    const refused = await accounts.signUp({ organizationName: " ", email: "not-an-email", password: "short" }, { trial: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AccountError);
    expect((refused as AccountError).problems.map((p) => p.field)).toEqual(["name", "email", "password"]);
  });

  it("settings report the name and the filing frequency together, and change nothing", async () => {
    const user = await owner("Settled Co", "settled@settled.example");
    const refused = await accounts.updateSettings(user.organization_id, { name: "", filingFrequency: "weekly" }).catch((e: unknown) => e);
    expect((refused as AccountError).problems.map((p) => p.field)).toEqual(["name", "filing_frequency"]);
    const row = await store.db.selectFrom("organizations").select(["name", "filing_frequency"]).where("id", "=", user.organization_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "Settled Co", filing_frequency: "monthly" });
  });

  it("a password change reports a wrong current password and a weak new one together", async () => {
    const user = await owner("Changing Co", "changing@changing.example");
    const result = await accounts.changePassword({ userId: user.id, sessionId: "none" }, "not the password", "changingco changingco");
    expect(result).toMatchObject({ ok: false, currentWrong: true });
    expect(!result.ok && result.problems.map((p) => p.field)).toEqual(["current_password", "new_password"]);
  });
});
