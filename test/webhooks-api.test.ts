import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { loadConfig } from "../src/config.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { call } from "./_api.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
/** A service whose operator lets test-key webhooks reach loopback, as docs/guides/setup.md's local webhook receiver does. */
let local: TestService;
let otherOrgKey: string;
beforeAll(async () => {
  api = await startTestService();
  local = await startTestService({ WEBHOOK_PRIVATE_TARGETS: "loopback" });
  const other = await createOrganization(api.service.store.db, "Other Org");
  otherOrgKey = (await createKey(api.service.store.db, other.id, "other org", "test")).key;
});
afterAll(async () => {
  await api.close();
  await local.close();
});

const RECEIVER = "https://93.184.216.34/hooks/tax";
const register = (body: unknown, key?: string) => call(api, "POST", "/api/v1/webhooks", { body, ...(key && { key }) });

function reasons(body: any): Record<string, string> {
  return Object.fromEntries((body.invalid_params as Array<{ name: string; reason: string }>).map((p) => [p.name, p.reason]));
}

describe("POST /api/v1/webhooks", () => {
  it("201 with {webhook, message}; the webhook has id wh_…, url, secret whsec_<hex>, events, status active, created_at", async () => {
    const { res, body } = await register({ url: RECEIVER, events: ["rate.changed", "rate.announced"] });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/v1/webhooks/${body.webhook.id}`);
    expect(body.message).toMatch(/secret/i);
    expect(body.webhook).toMatchObject({
      id: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
      url: RECEIVER,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
      events: ["rate.changed", "rate.announced"],
      status: "active",
    });
    expect(new Date(body.webhook.created_at).toISOString()).toBe(body.webhook.created_at);
  });

  it("accepts * for all events", async () => {
    const { res, body } = await register({ url: RECEIVER, events: ["*"] });
    expect(res.status).toBe(201);
    expect(body.webhook.events).toEqual(["*"]);
  });

  it("is a protected path: no key is 401", async () => {
    const res = await api.service.app.fetch(new Request("http://buckeye.test/api/v1/webhooks", { method: "POST", body: "{}" }));
    expect(res.status).toBe(401);
  });

  it("a bad body is 422 invalid-webhook listing every problem in invalid_params", async () => {
    const { res, body } = await register({ events: ["rate.changed", "rate.exploded"] });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(body).toMatchObject({ type: expect.stringMatching(/\/invalid-webhook$/), title: "Invalid Webhook", status: 422 });
    expect(Object.keys(reasons(body)).sort()).toEqual(["events", "url"]);
    expect(reasons(body).events).toContain("rate.exploded");
  });

  it.each([
    ["no events", { url: RECEIVER, events: [] }, "events"],
    ["events not an array", { url: RECEIVER, events: "rate.changed" }, "events"],
    ["an event twice", { url: RECEIVER, events: ["filing.due", "filing.due"] }, "events"],
    ["webhook.test is sent on request, not subscribed to", { url: RECEIVER, events: ["webhook.test"] }, "events"],
    ["an unknown field", { url: RECEIVER, events: ["*"], secret: "mine" }, "secret"],
    ["a URL that is not absolute", { url: "/hooks", events: ["*"] }, "url"],
    ["credentials in the URL", { url: "https://user:pw@93.184.216.34/", events: ["*"] }, "url"],
    ["ftp", { url: "ftp://93.184.216.34/", events: ["*"] }, "url"],
  ])("422 for %s", async (_name, payload, param) => {
    const { res, body } = await register(payload);
    expect(res.status).toBe(422);
    expect(reasons(body)).toHaveProperty(param);
  });

  it("a body that is not a JSON object is 422 invalid-webhook", async () => {
    for (const raw of ["not json", "[1,2]", "null"]) {
      const { res, body } = await call(api, "POST", "/api/v1/webhooks", { raw });
      expect(res.status, raw).toBe(422);
      expect(reasons(body)).toHaveProperty("body");
    }
  });

  describe("url must be https; plain http only to loopback for tax_test_ keys", () => {
    it("a live key may not register plain http, not even to loopback", async () => {
      for (const url of ["http://93.184.216.34/hooks", "http://127.0.0.1:9/hooks"]) {
        const { res, body } = await register({ url, events: ["*"] });
        expect(res.status, url).toBe(422);
        expect(reasons(body).url).toMatch(/https/);
      }
    });

    it("a test key may register plain http to 127.0.0.1, localhost or [::1] when the operator allows loopback targets", async () => {
      for (const url of ["http://127.0.0.1:8080/hooks", "http://localhost:8080/hooks", "http://[::1]:8080/hooks"]) {
        const { res } = await call(local, "POST", "/api/v1/webhooks", { body: { url, events: ["*"] }, key: local.testKey });
        expect(res.status, url).toBe(201);
      }
    });

    it("a test key may not register plain http to anything else", async () => {
      const { res, body } = await register({ url: "http://93.184.216.34/hooks", events: ["*"] }, api.testKey);
      expect(res.status).toBe(422);
      expect(reasons(body).url).toMatch(/loopback/);
    });
  });

  describe("private, loopback and link-local targets only when the operator allows them (WEBHOOK_PRIVATE_TARGETS, off by default)", () => {
    it.each([
      "http://127.0.0.1:6379/",
      "http://localhost:8080/hooks",
      "http://[::1]:8080/hooks",
      "https://127.0.0.1/",
      "https://169.254.169.254/",
      "https://10.0.0.1/",
      "https://[fd00::1]/",
      "https://[::7f00:1]/",
    ])("by default a test key may not register %s", async (url) => {
      const { res, body } = await register({ url, events: ["*"] }, api.testKey);
      expect(res.status).toBe(422);
      expect(reasons(body).url).toMatch(/public address/);
    });

    it("allowing loopback opens loopback alone, and only to test keys", async () => {
      for (const url of ["https://10.0.0.1/", "https://169.254.169.254/", "https://[fd00::1]/"]) {
        const { res } = await call(local, "POST", "/api/v1/webhooks", { body: { url, events: ["*"] }, key: local.testKey });
        expect(res.status, url).toBe(422);
      }
      const live = await call(local, "POST", "/api/v1/webhooks", { body: { url: "https://127.0.0.1/hooks", events: ["*"] } });
      expect(live.res.status).toBe(422);
      expect((await call(local, "POST", "/api/v1/webhooks", { body: { url: "https://127.0.0.1/hooks", events: ["*"] }, key: local.testKey })).res.status).toBe(201);
    });

    it("the setting names only loopback, private and link-local", () => {
      expect(loadConfig({}).webhooks.privateTargets.size).toBe(0);
      expect([...loadConfig({ WEBHOOK_PRIVATE_TARGETS: "loopback, link-local" }).webhooks.privateTargets]).toEqual(["loopback", "link-local"]);
      expect(() => loadConfig({ WEBHOOK_PRIVATE_TARGETS: "loopback,everything" })).toThrow(/WEBHOOK_PRIVATE_TARGETS/);
    });
  });

  describe("live keys: URLs resolving to private, link-local or loopback addresses are refused (no SSRF)", () => {
    it.each([
      "https://localhost/hooks",
      "https://127.0.0.1/hooks",
      "https://10.1.2.3/hooks",
      "https://172.16.0.9/hooks",
      "https://192.168.1.20/hooks",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/hooks",
      "https://[::1]/hooks",
      "https://[fe80::1]/hooks",
      "https://[fd00::5]/hooks",
      "https://[::ffff:127.0.0.1]/hooks",
      "https://0.0.0.0/hooks",
      "https://[::7f00:1]/hooks",
      "https://[2002:7f00:1::]/hooks",
      "https://[64:ff9b::a9fe:a9fe]/hooks",
      "https://[2001:0:4136:e378:8000:0:80ff:fffe]/hooks",
    ])("%s", async (url) => {
      const { res, body } = await register({ url, events: ["*"] });
      expect(res.status).toBe(422);
      expect(reasons(body).url).toMatch(/not a public address/);
    });

    it("a public address is accepted", async () => {
      const { res } = await register({ url: "https://[2606:4700:4700::1111]/hooks", events: ["*"] });
      expect(res.status).toBe(201);
    });
  });
});

describe("webhook URLs are stored as their WHATWG serialisation; what the parser would silently change is refused", () => {
  it.each([
    ["HTTPS://93.184.216.34:443/Hooks/./a/../Tax", "https://93.184.216.34/Hooks/Tax"],
    ["https://[2606:4700:4700:0::1111]/hooks", "https://[2606:4700:4700::1111]/hooks"],
    ["https://93.184.216.34/caf\u00e9 hooks".replace("\\u00e9", "é").replace(" ", "%20"), "https://93.184.216.34/caf%C3%A9%20hooks"],
  ])("%s is stored as %s", async (typed, stored) => {
    const { res, body } = await register({ url: typed, events: ["*"] });
    expect(res.status).toBe(201);
    expect(body.webhook.url).toBe(stored);
    const read = await call(api, "GET", `/api/v1/webhooks/${body.webhook.id}`);
    expect(read.body.webhook.url).toBe(stored);
  });

  it("PATCH stores the serialisation too", async () => {
    const { body } = await register({ url: RECEIVER, events: ["*"] });
    const updated = await call(api, "PATCH", `/api/v1/webhooks/${body.webhook.id}`, { body: { url: "HTTPS://93.184.216.34:443/V2" } });
    expect(updated.body.webhook.url).toBe("https://93.184.216.34/V2");
  });

  it.each([
    ["port 0", "https://93.184.216.34:0/hooks", /port 0/],
    ["CR LF inside", "https://93.184.216.34/hooks\r\nX-Injected: 1", /control characters/],
    ["a tab inside the host", "https://93.184.\t216.34/hooks", /control characters/],
    ["a leading space", " https://93.184.216.34/hooks", /spaces/],
    ["a trailing NUL", "https://93.184.216.34/hooks\u0000", /control characters/],
    ["a backslash read as a slash", "https:\\\\93.184.216.34\\hooks", /backslashes/],
    ["a DEL character", "https://93.184.216.34/ho\u007fks", /control characters/],
  ])("refuses %s", async (_name, url, reason) => {
    const before = (await call(api, "GET", "/api/v1/webhooks")).body.total;
    const { res, body } = await register({ url, events: ["*"] });
    expect(res.status).toBe(422);
    expect(reasons(body).url).toMatch(reason);
    expect((await call(api, "GET", "/api/v1/webhooks")).body.total).toBe(before);
  });
});

describe("an organization has at most WEBHOOKS_PER_ORG webhooks (default 20)", () => {
  it("the one past the cap is 409 webhook-limit-reached, saying what to do; deleting one makes room", async () => {
    const org = await createOrganization(api.service.store.db, "Cap Org");
    const key = (await createKey(api.service.store.db, org.id, "cap", "live")).key;
    const cap = api.config.webhooksPerOrganization;
    expect(cap).toBe(20);
    const ids: string[] = [];
    for (let i = 0; i < cap; i++) ids.push((await register({ url: `${RECEIVER}/${i}`, events: ["*"] }, key)).body.webhook.id);
    const { res, body } = await register({ url: `${RECEIVER}/more`, events: ["*"] }, key);
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(body).toMatchObject({ status: 409, title: "Webhook Limit Reached", type: expect.stringMatching(/\/webhook-limit-reached$/) });
    expect(body.detail).toBe("This organization has 20 webhooks, the most it may have. Delete one it no longer needs, then register this one.");
    expect((await call(api, "GET", "/api/v1/webhooks", { key })).body.total).toBe(cap);
    await call(api, "DELETE", `/api/v1/webhooks/${ids[0]}`, { key });
    expect((await register({ url: `${RECEIVER}/more`, events: ["*"] }, key)).res.status).toBe(201);
  });
});

describe("GET /api/v1/webhooks", () => {
  it("lists the organization's webhooks without their secrets", async () => {
    await register({ url: RECEIVER, events: ["filing.due"] });
    const { res, body } = await call(api, "GET", "/api/v1/webhooks");
    expect(res.status).toBe(200);
    expect(body.total).toBe(body.webhooks.length);
    expect(body.webhooks.length).toBeGreaterThan(0);
    for (const webhook of body.webhooks) expect(webhook).not.toHaveProperty("secret");
  });

  it("never shows another organization's webhooks", async () => {
    const { body } = await call(api, "GET", "/api/v1/webhooks", { key: otherOrgKey });
    expect(body).toEqual({ total: 0, webhooks: [] });
  });
});

describe("GET/PATCH/DELETE /api/v1/webhooks/{id}", () => {
  it("reads one webhook, without its secret", async () => {
    const created = (await register({ url: RECEIVER, events: ["*"] })).body.webhook;
    const { res, body } = await call(api, "GET", `/api/v1/webhooks/${created.id}`);
    expect(res.status).toBe(200);
    const { secret: _secret, ...shown } = created;
    expect(body.webhook).toEqual(shown);
  });

  it("an unknown id, or another organization's webhook, is 404 webhook-not-found", async () => {
    const created = (await register({ url: RECEIVER, events: ["*"] })).body.webhook;
    for (const [path, key] of [
      ["/api/v1/webhooks/wh_nope", api.liveKey],
      [`/api/v1/webhooks/${created.id}`, otherOrgKey],
    ] as const) {
      const { res, body } = await call(api, "GET", path, { key });
      expect(res.status).toBe(404);
      expect(body.type).toMatch(/\/webhook-not-found$/);
    }
    expect((await call(api, "DELETE", `/api/v1/webhooks/${created.id}`, { key: otherOrgKey })).res.status).toBe(404);
  });

  it("PATCH updates url and events, validated like registration", async () => {
    const created = (await register({ url: RECEIVER, events: ["*"] })).body.webhook;
    const updated = await call(api, "PATCH", `/api/v1/webhooks/${created.id}`, { body: { url: "https://93.184.216.34/v2", events: ["certificate.expiring"] } });
    expect(updated.res.status).toBe(200);
    expect(updated.body.webhook).toMatchObject({ url: "https://93.184.216.34/v2", events: ["certificate.expiring"], status: "active" });
    const refused = await call(api, "PATCH", `/api/v1/webhooks/${created.id}`, { body: { url: "https://10.0.0.1/", events: ["nope"] } });
    expect(refused.res.status).toBe(422);
    expect(Object.keys(reasons(refused.body)).sort()).toEqual(["events"]);
    const empty = await call(api, "PATCH", `/api/v1/webhooks/${created.id}`, { body: {} });
    expect(empty.res.status).toBe(422);
  });

  it("PATCH status disables and re-enables a webhook", async () => {
    const created = (await register({ url: RECEIVER, events: ["*"] })).body.webhook;
    const off = await call(api, "PATCH", `/api/v1/webhooks/${created.id}`, { body: { status: "disabled" } });
    expect(off.body.webhook).toMatchObject({ status: "disabled", disabled_reason: expect.any(String) });
    const on = await call(api, "PATCH", `/api/v1/webhooks/${created.id}`, { body: { status: "active" } });
    expect(on.body.webhook.status).toBe("active");
    expect(on.body.webhook).not.toHaveProperty("disabled_reason");
  });

  it("DELETE is 204, after which the webhook is gone", async () => {
    const created = (await register({ url: RECEIVER, events: ["*"] })).body.webhook;
    const { res } = await call(api, "DELETE", `/api/v1/webhooks/${created.id}`);
    expect(res.status).toBe(204);
    expect((await call(api, "GET", `/api/v1/webhooks/${created.id}`)).res.status).toBe(404);
  });
});

describe("POST /api/v1/webhooks/{id}/rotate-secret", () => {
  it("issues a new secret, shown once; the old one keeps signing for 24 h", async () => {
    const created = (await register({ url: RECEIVER, events: ["*"] })).body.webhook;
    const before = Date.now();
    const { res, body } = await call(api, "POST", `/api/v1/webhooks/${created.id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(body.webhook.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(body.webhook.secret).not.toBe(created.secret);
    const ends = Date.parse(body.webhook.previous_secret_expires_at);
    expect(ends - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(ends - before).toBeLessThanOrEqual(24 * 3600_000 + 60_000);
    const read = await call(api, "GET", `/api/v1/webhooks/${created.id}`);
    expect(read.body.webhook).not.toHaveProperty("secret");
    expect(read.body.webhook.previous_secret_expires_at).toBe(body.webhook.previous_secret_expires_at);
  });
});

describe("POST /api/v1/webhooks/{id}/test and GET …/deliveries", () => {
  it("queues a webhook.test event for that webhook alone (202), listed among its deliveries", async () => {
    const created = (await register({ url: RECEIVER, events: ["filing.due"] })).body.webhook;
    const { res, body } = await call(api, "POST", `/api/v1/webhooks/${created.id}/test`);
    expect(res.status).toBe(202);
    expect(body.event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: "webhook.test",
      data: { webhook_id: created.id, message: expect.any(String) },
    });
    const deliveries = await call(api, "GET", `/api/v1/webhooks/${created.id}/deliveries`);
    expect(deliveries.res.status).toBe(200);
    expect(deliveries.body.deliveries).toEqual([
      expect.objectContaining({ event_id: body.event.id, event_type: "webhook.test", status: "pending", attempt_count: 0, attempts: [] }),
    ]);
  });

  it("limit must be 1–200", async () => {
    const created = (await register({ url: RECEIVER, events: ["*"] })).body.webhook;
    const { res, body } = await call(api, "GET", `/api/v1/webhooks/${created.id}/deliveries?limit=0`);
    expect(res.status).toBe(400);
    expect(body.invalid_params[0].name).toBe("limit");
  });
});

describe("POST/GET/DELETE /api/v1/certificates", () => {
  const certificate = { customer_id: "cust_42", customer_name: "Buckeye Hardware", exempt_reason: "resale", expires_on: "2027-03-31" };

  it("registers a certificate (201) and lists it for its organization only", async () => {
    const { res, body } = await call(api, "POST", "/api/v1/certificates", { body: certificate });
    expect(res.status).toBe(201);
    expect(body.certificate).toMatchObject({ id: expect.stringMatching(/^cert_/), ...certificate });
    const listed = await call(api, "GET", "/api/v1/certificates");
    expect(listed.body.certificates).toContainEqual(body.certificate);
    expect((await call(api, "GET", "/api/v1/certificates", { key: otherOrgKey })).body).toEqual({ total: 0, certificates: [], next_cursor: null });
    expect((await call(api, "GET", `/api/v1/certificates/${body.certificate.id}`)).body.certificate).toEqual(body.certificate);
  });

  it("a bad body is 422 invalid-certificate with invalid_params", async () => {
    const { res, body } = await call(api, "POST", "/api/v1/certificates", { body: { customer_id: "", expires_on: "2027-02-30" } });
    expect(res.status).toBe(422);
    expect(body.type).toMatch(/\/invalid-certificate$/);
    expect(Object.keys(reasons(body)).sort()).toEqual(["customer_id", "customer_name", "exempt_reason", "expires_on"]);
  });

  it("DELETE is 204, then 404 certificate-not-found", async () => {
    const created = (await call(api, "POST", "/api/v1/certificates", { body: certificate })).body.certificate;
    expect((await call(api, "DELETE", `/api/v1/certificates/${created.id}`)).res.status).toBe(204);
    const again = await call(api, "DELETE", `/api/v1/certificates/${created.id}`);
    expect(again.res.status).toBe(404);
    expect(again.body.type).toMatch(/\/certificate-not-found$/);
  });
});
