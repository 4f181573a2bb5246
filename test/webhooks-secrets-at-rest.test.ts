/**
 * Signing secrets at rest: with SECRETS_KEY set they are sealed with AES-256-GCM in the database,
 * and deliveries still verify with the secret shown once, checked by the official `stripe` package
 * against a real receiver on loopback.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { createService, type Service } from "../src/service.ts";
import { SecretBox } from "../src/webhooks/secret-box.ts";
import { call } from "./_api.ts";
import { verifySignature as verify } from "./_signatures.ts";
import { startReceiver, type Receiver, type Received } from "./_receiver.ts";
import { startTestService, testConfig, type TestService } from "./_setup.ts";

const KEY = randomBytes(32).toString("hex");
const DELIVERY = { WEBHOOK_POLL_MS: "50", WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_LEASE_MS: "3000", WEBHOOK_RETRY_SCHEDULE: "100ms,100ms", WEBHOOK_PRIVATE_TARGETS: "loopback" };

let receiver: Receiver;
afterEach(() => receiver?.close());

async function stored(api: TestService | { service: Service }, id: string) {
  return api.service.store.db.selectFrom("webhooks").select(["secret", "previous_secret"]).where("id", "=", id).executeTakeFirstOrThrow();
}

describe("SECRETS_KEY: 64 hex characters", () => {
  it("anything else stops the service from starting, naming the variable", () => {
    for (const bad of ["abc", "z".repeat(64), KEY.slice(0, 62)]) {
      expect(() => loadConfig({ SECRETS_KEY: bad })).toThrow(/SECRETS_KEY: must be 64 hex characters/);
    }
    expect(loadConfig({ SECRETS_KEY: KEY }).secretsKey).toBe(KEY);
    expect(() => loadConfig({ SECRETS_KEY_PREVIOUS: KEY })).toThrow(/SECRETS_KEY_PREVIOUS: needs SECRETS_KEY/);
  });
});

describe("start-up says once when SECRETS_KEY is unset, and is silent when it is set", () => {
  it("one warn line names SECRETS_KEY and plain text without it; none with it", async () => {
    const { config, cleanup } = testConfig();
    try {
      for (const secretsKey of [null, KEY]) {
        const lines: Record<string, unknown>[] = [];
        const service = await createService({ ...config, secretsKey }, { log: (entry) => lines.push(entry) });
        await service.close();
        const warnings = lines.filter((line) => line.level === "warn" && String(line.msg).includes("SECRETS_KEY"));
        if (secretsKey === null) {
          expect(warnings).toHaveLength(1);
          expect(warnings[0]!.msg).toMatch(/^SECRETS_KEY is unset: webhook signing secrets are stored in the database in plain text/);
        } else {
          expect(warnings).toEqual([]);
        }
      }
    } finally {
      await cleanup();
    }
  });
});

describe("with SECRETS_KEY set, signing secrets are sealed in the database", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService({ ...DELIVERY, SECRETS_KEY: KEY });
    api.service.background.actor.start();
  });
  afterAll(() => api.close());

  it("the row holds no whsec_ secret, yet each delivery verifies with the secret shown at registration and, after a rotation, with either", async () => {
    receiver = await startReceiver();
    const created = await call(api, "POST", "/api/v1/webhooks", { key: api.testKey, body: { url: `${receiver.url}/hooks`, events: ["*"] } });
    expect(created.res.status).toBe(201);
    const { id, secret } = created.body.webhook;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const row = await stored(api, id);
    expect(row.secret).toMatch(/^sealed:v1:[\w-]+$/);
    expect(JSON.stringify(row)).not.toContain(secret.slice("whsec_".length));
    expect(new SecretBox(Buffer.from(KEY, "hex")).open(row.secret)).toBe(secret);

    await call(api, "POST", `/api/v1/webhooks/${id}/test`, { key: api.testKey });
    await receiver.waitFor((r) => r.length === 1);
    expect(verify(receiver.received[0]!, secret).type).toBe("webhook.test");

    const rotated = (await call(api, "POST", `/api/v1/webhooks/${id}/rotate-secret`, { key: api.testKey })).body.webhook.secret;
    const afterRotation = await stored(api, id);
    expect(afterRotation.secret).toMatch(/^sealed:v1:/);
    expect(afterRotation.previous_secret).toBe(row.secret);
    await call(api, "POST", `/api/v1/webhooks/${id}/test`, { key: api.testKey });
    await receiver.waitFor((r) => r.length === 2);
    expect(verify(receiver.received[1]!, rotated).type).toBe("webhook.test");
    expect(verify(receiver.received[1]!, secret).type).toBe("webhook.test");
  });
});

describe("adding SECRETS_KEY to a deployment that stored secrets as they are", () => {
  let plain: TestService;
  let keyed: Service | undefined;
  let keyless: Service | undefined;
  beforeAll(async () => {
    plain = await startTestService(DELIVERY);
  });
  afterAll(async () => {
    await keyed?.close();
    await keyless?.close();
    await plain.close();
  });

  it("seals the stored secrets at start-up, and deliveries keep verifying with the secret the customer saved", async () => {
    receiver = await startReceiver();
    const { id, secret } = (await call(plain, "POST", "/api/v1/webhooks", { key: plain.testKey, body: { url: `${receiver.url}/hooks`, events: ["*"] } })).body.webhook;
    expect((await stored(plain, id)).secret).toBe(secret);

    keyed = await createService({ ...plain.config, secretsKey: KEY });
    keyed.background.actor.start();
    expect((await stored({ service: keyed }, id)).secret).toMatch(/^sealed:v1:/);
    const res = await keyed.app.fetch(new Request(`http://buckeye.test/api/v1/webhooks/${id}/test`, { method: "POST", headers: { authorization: `Bearer ${plain.testKey}` } }));
    expect(res.status).toBe(202);
    await receiver.waitFor((r) => r.length === 1);
    expect(verify(receiver.received[0]!, secret).type).toBe("webhook.test");
    await keyed.background.actor.stop();
  });

  it("an instance started without the key cannot open a sealed secret: the attempt fails with that reason, nothing is sent, and it is retried", async () => {
    receiver = await startReceiver();
    const { id } = (await call(plain, "POST", "/api/v1/webhooks", { key: plain.testKey, body: { url: `${receiver.url}/hooks`, events: ["filing.due"] } })).body.webhook;
    keyless = await createService({ ...plain.config, secretsKey: null });
    // Sealed by a keyed instance sharing the database.
    await keyless.store.db.updateTable("webhooks").set({ secret: new SecretBox(Buffer.from(KEY, "hex")).seal("whsec_x") }).where("id", "=", id).execute();
    // Seven days before the return due 2026-11-23: already due when the actor starts.
    await keyless.background.scheduler.run("filing-reminders", new Date("2026-11-16T13:00:00Z"));
    keyless.background.actor.start();
    let delivery: any;
    const deadline = Date.now() + 20_000;
    while (!(delivery?.attempts.length >= 2) && Date.now() < deadline) {
      [delivery] = (await call(plain, "GET", `/api/v1/webhooks/${id}/deliveries`, { key: plain.testKey })).body.deliveries;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(delivery.attempts.slice(0, 2)).toEqual([
      expect.objectContaining({ number: 1, status_code: null, outcome: "retry", error: "not sent: the signing secret is sealed and SECRETS_KEY is not set" }),
      expect.objectContaining({ number: 2, status_code: null, outcome: "retry" }),
    ]);
    expect(receiver.received).toEqual([]);
    await keyless.background.actor.stop();
  });

  it("replacing the key: started with the new SECRETS_KEY and the old one as SECRETS_KEY_PREVIOUS, an instance seals every secret again with the new key", async () => {
    const newKey = randomBytes(32).toString("hex");
    const oldBox = new SecretBox(Buffer.from(KEY, "hex"));
    const newBox = new SecretBox(Buffer.from(newKey, "hex"));
    const sealedByOld = (await plain.service.store.db.selectFrom("webhooks").select(["id", "secret"]).execute()).filter((row) => SecretBox.isSealed(row.secret));
    expect(sealedByOld.length).toBeGreaterThan(0);
    const secrets = new Map(sealedByOld.map((row) => [row.id, oldBox.open(row.secret)]));

    const rotating = await createService({ ...plain.config, secretsKey: newKey, secretsKeyPrevious: KEY });
    try {
      for (const [id, secret] of secrets) {
        const row = await stored({ service: rotating }, id);
        expect(newBox.open(row.secret)).toBe(secret);
        expect(() => oldBox.open(row.secret)).toThrow(/another SECRETS_KEY/);
      }
    } finally {
      await rotating.close();
    }
  });
});
