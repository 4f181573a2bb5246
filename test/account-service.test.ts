/**
 * The account service's rules (src/accounts/account-service.ts), without HTTP: the dashboard and the
 * CLI both call these actions. Against a real database; `keyChanged` is the service's own hook,
 * recorded here to check that every change to a key's verdict is announced after its commit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { limitDefaults } from "../src/organization-limits.ts";
import { createAccountService, type AccountService } from "../src/accounts/account-service.ts";
import { AccountError } from "../src/accounts/accounts.ts";
import { KeyError } from "../src/auth/key-service.ts";
import { listApiKeys } from "../src/store/api-keys.repository.ts";
import type { Store } from "../src/store/connect.ts";
import { findOrganization } from "../src/store/organizations.repository.ts";
import { freshStore } from "./_store.ts";

let store: Store;
let close: () => Promise<void>;
let accounts: AccountService;
/** What the database said when each announcement was made. */
let announced: Array<() => Promise<unknown>> = [];
let seen: unknown[] = [];

beforeAll(async () => {
  ({ store, close } = await freshStore());
  accounts = createAccountService({
    db: store.db,
    now: () => new Date("2026-11-24T12:00:00Z"),
    keyChanged: async () => {
      seen.push(await announced.at(-1)?.());
    },
    limitDefaults: { ...limitDefaults(loadConfig({})), activeKeys: 20 },
  });
});
afterAll(() => close());

describe("an organization needs a name", () => {
  it("a blank name is refused as the name field's problem; a good one is trimmed", async () => {
    await expect(accounts.createOrganization("   ")).rejects.toMatchObject({ constructor: AccountError, field: "name" });
    expect((await accounts.createOrganization("  Acme Hardware  ")).name).toBe("Acme Hardware");
  });
});

describe("keys", () => {
  it("listing the keys of an organization that does not exist is refused", async () => {
    await expect(accounts.listKeys("org_nope")).rejects.toBeInstanceOf(KeyError);
  });

  it("a revocation is announced after its commit: the announcement sees the key revoked", async () => {
    const org = await accounts.createOrganization("Revoking Org");
    const key = await accounts.createKey(org.id, "checkout", "live");
    announced.push(async () => (await listApiKeys(store.db, org.id)).find((k) => k.id === key.id)?.status);
    seen = [];
    const revoked = await accounts.revokeKey(key.prefix);
    expect(revoked.map((k) => k.id)).toEqual([key.id]);
    expect(seen).toEqual(["revoked"]);
  });

  it("an organization holds at most its cap of active keys: key N + 1 is refused, and allowed again once a key is revoked", async () => {
    const capped = createAccountService({ db: store.db, now: () => new Date("2026-11-24T12:00:00Z"), keyChanged: async () => {}, limitDefaults: { ...limitDefaults(loadConfig({})), activeKeys: 3 } });
    const org = await capped.createOrganization("Capped Org");
    const keys = [];
    for (const label of ["one", "two", "three"]) keys.push(await capped.createKey(org.id, label, label === "three" ? "test" : "live"));
    const refusal = await capped.createKey(org.id, "four", "live").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(KeyError);
    expect((refusal as KeyError).message).toBe(
      "this organization already has 3 active API keys, the most it may hold; revoke a key it no longer uses before creating another",
    );
    expect((await capped.listKeys(org.id)).map((k) => k.label)).toEqual(["one", "two", "three"]);
    // The cap is per organization: another one is not held back by this one's keys.
    const other = await capped.createOrganization("Other Org");
    await expect(capped.createKey(other.id, "first", "live")).resolves.toMatchObject({ label: "first" });

    await capped.revokeKey(keys[0]!.id, org.id);
    await expect(capped.createKey(org.id, "four", "live")).resolves.toMatchObject({ label: "four" });
    await expect(capped.createKey(org.id, "five", "live")).rejects.toBeInstanceOf(KeyError);
  });

  it("keys created at once cannot slip past the cap: ten concurrent creations against a cap of 4 leave exactly 4 active keys", async () => {
    const capped = createAccountService({ db: store.db, now: () => new Date("2026-11-24T12:00:00Z"), keyChanged: async () => {}, limitDefaults: { ...limitDefaults(loadConfig({})), activeKeys: 4 } });
    const org = await capped.createOrganization("Racing Org");
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => capped.createKey(org.id, `racer ${i}`, "live")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason instanceof KeyError)).toBe(true);
    expect((await listApiKeys(store.db, org.id)).filter((k) => k.status === "active")).toHaveLength(4);
  });

  it("revoking nothing announces nothing", async () => {
    seen = [];
    expect(await accounts.revokeKey("tax_live_nothing")).toEqual([]);
    expect(seen).toEqual([]);
  });

  it("a revocation within an organization never touches another organization's key", async () => {
    const mine = await accounts.createOrganization("Mine");
    const theirs = await accounts.createOrganization("Theirs");
    const key = await accounts.createKey(theirs.id, "their key", "test");
    expect(await accounts.revokeKey(key.id, mine.id)).toEqual([]);
    expect((await accounts.listKeys(theirs.id)).map((k) => k.status)).toEqual(["active"]);
  });
});

describe("suspension", () => {
  it("suspending and reactivating are each announced after the commit", async () => {
    const org = await accounts.createOrganization("Suspended Org");
    announced.push(async () => (await findOrganization(store.db, org.id))?.status);
    seen = [];
    expect((await accounts.setStatus(org.id, "suspended"))?.status).toBe("suspended");
    expect((await accounts.setStatus(org.id, "active"))?.status).toBe("active");
    expect(seen).toEqual(["suspended", "active"]);
  });

  it("an unknown organization is null and nothing is announced", async () => {
    seen = [];
    expect(await accounts.setStatus("org_nope", "suspended")).toBeNull();
    expect(seen).toEqual([]);
  });
});
