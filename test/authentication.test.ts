import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkKeyShape, issueKey } from "../src/auth/api-key.ts";
import { createKey } from "../src/auth/key-service.ts";
import { insertApiKey, revokeApiKey } from "../src/store/api-keys.repository.ts";
import { openStore } from "../src/store/connect.ts";
import { setOrganizationStatus, createOrganization } from "../src/store/organizations.repository.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService();
});
afterAll(() => api.close());

const RATES = "/api/v1/rates?county=franklin";

async function problemFor(headers: Record<string, string>) {
  const res = await api.get(RATES, headers);
  return { res, body: (await res.json()) as Record<string, any> };
}

describe("authentication", () => {
  it("a missing Authorization header is 401 unauthorized, title API Key Required, naming both ways to get a key: the dashboard and npx buckeye key create", async () => {
    const { res, body } = await problemFor({});
    expect(res.status).toBe(401);
    expect(body).toMatchObject({ type: expect.stringMatching(/\/unauthorized$/), title: "API Key Required", status: 401 });
    expect(body.detail).toContain("Keys are created in the dashboard (/dashboard), or by an operator with `npx buckeye key create --org <org_id> --label <label>`.");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("a header without a Bearer key starting tax_live_ or tax_test_ is 401 unauthorized", async () => {
    for (const authorization of ["Basic dXNlcjpwYXNz", "Bearer sk_live_abc", "Bearer", api.liveKey, "Token " + api.liveKey]) {
      const { res, body } = await problemFor({ authorization });
      expect(res.status, authorization).toBe(401);
      expect(body.type, authorization).toMatch(/\/unauthorized$/);
    }
  });

  it("live and test keys both authenticate", async () => {
    expect((await api.get(RATES, { authorization: `Bearer ${api.liveKey}` })).status).toBe(200);
    expect((await api.get(RATES, { authorization: `Bearer ${api.testKey}` })).status).toBe(200);
  });

  it("a mistyped key fails its checksum: 401 invalid-api-key, title Invalid or Revoked API Key", async () => {
    const last = api.liveKey.at(-1) === "a" ? "b" : "a";
    const typo = api.liveKey.slice(0, -1) + last;
    expect(checkKeyShape(typo).ok).toBe(false);
    const { res, body } = await problemFor({ authorization: `Bearer ${typo}` });
    expect(res.status).toBe(401);
    expect(body).toMatchObject({ type: expect.stringMatching(/\/invalid-api-key$/), title: "Invalid or Revoked API Key" });
  });

  it("a well-formed key that was never issued is 401 invalid-api-key", async () => {
    const { res, body } = await problemFor({ authorization: `Bearer ${issueKey("live").key}` });
    expect(res.status).toBe(401);
    expect(body.type).toMatch(/\/invalid-api-key$/);
  });

  it("a revoked key is refused on the very next request", async () => {
    const created = await createKey(api.service.store.db, api.orgId, "to revoke", "live");
    const headers = { authorization: `Bearer ${created.key}` };
    expect((await api.get(RATES, headers)).status).toBe(200);
    await revokeApiKey(api.service.store.db, created.prefix);
    const { res, body } = await problemFor(headers);
    expect(res.status).toBe(401);
    expect(body.type).toMatch(/\/invalid-api-key$/);
    expect(body.detail).toMatch(/Create a new key in the dashboard \(\/dashboard\), or by an operator with `npx buckeye key create/);
  });

  it("a key of a suspended organization is refused, and works again once reactivated", async () => {
    const db = api.service.store.db;
    const org = await createOrganization(db, "Suspended Co");
    const created = await createKey(db, org.id, "suspended org key", "test");
    const headers = { authorization: `Bearer ${created.key}` };
    expect((await api.get(RATES, headers)).status).toBe(200);
    await setOrganizationStatus(db, org.id, "suspended");
    expect((await problemFor(headers)).body.type).toMatch(/\/invalid-api-key$/);
    await setOrganizationStatus(db, org.id, "active");
    expect((await api.get(RATES, headers)).status).toBe(200);
  });

  it("a change committed through another connection (another process, such as the CLI) is seen by the very next request, both ways", async () => {
    // A second connection to the same database, as `buckeye key revoke` in another process opens.
    const other = openStore(api.config.databaseUrl);
    try {
      const created = await createKey(api.service.store.db, api.orgId, "revoked elsewhere", "live");
      const headers = { authorization: `Bearer ${created.key}` };
      for (let i = 0; i < 3; i++) expect((await api.get(RATES, headers)).status).toBe(200);
      await revokeApiKey(other.db, created.prefix);
      expect((await problemFor(headers)).body.detail).toMatch(/revoked/);

      // And the other way: a key refused as unknown is accepted once another connection has stored it.
      const issued = issueKey("test");
      const later = { authorization: `Bearer ${issued.key}` };
      expect((await problemFor(later)).body.detail).toBe("No such API key.");
      await insertApiKey(other.db, { organizationId: api.orgId, label: "stored elsewhere", env: "test", prefix: issued.prefix, keyHash: issued.hash });
      expect((await api.get(RATES, later)).status).toBe(200);

      await setOrganizationStatus(other.db, api.orgId, "suspended");
      expect((await problemFor(later)).body.detail).toMatch(/suspended/);
      await setOrganizationStatus(other.db, api.orgId, "active");
      expect((await api.get(RATES, later)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("only the SHA-256 of a key and its 16-character public prefix are stored", async () => {
    const created = await createKey(api.service.store.db, api.orgId, "storage check", "live");
    const row = await api.service.store.db.selectFrom("api_keys").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(row.prefix).toBe(created.key.slice(0, 16));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.key.slice(16));
  });

  it("keys carry about 190 bits of randomness and never repeat", () => {
    const keys = new Set(Array.from({ length: 2000 }, () => issueKey("test").key));
    expect(keys.size).toBe(2000);
    for (const key of keys) expect(key).toMatch(/^tax_test_[0-9A-Za-z]{38}$/);
  });
});
