/**
 * /api/v1/certificates past its first few: the list comes in pages (limit and cursor, as
 * docs/api/README.md describes), and an organization keeps at most CERTIFICATES_PER_ORG.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { call } from "./_api.ts";
import { startTestService, type TestService } from "./_setup.ts";

const CAP = 130;
let api: TestService;
beforeAll(async () => {
  api = await startTestService({ CERTIFICATES_PER_ORG: String(CAP) });
});
afterAll(() => api.close());

async function newKey(name: string): Promise<string> {
  const org = await createOrganization(api.service.store.db, name);
  return (await createKey(api.service.store.db, org.id, name, "live")).key;
}

const certificate = (i: number) => ({
  customer_id: `cust_${i}`,
  customer_name: `Customer ${i}`,
  exempt_reason: "resale",
  // Many share an expiry date, so the order (and the cursor) must break ties by id.
  expires_on: `2027-0${1 + (i % 9)}-1${i % 3}`,
});

describe("GET /api/v1/certificates comes in pages", () => {
  it("50 by default, oldest expiry first; next_cursor leads to the next page until it is null, and the pages hold every certificate once", async () => {
    const key = await newKey("Many Certificates");
    for (let i = 0; i < 120; i++) expect((await call(api, "POST", "/api/v1/certificates", { key, body: certificate(i) })).res.status).toBe(201);

    const pages: any[] = [];
    let path = "/api/v1/certificates";
    // Bounded, so a cursor that never ends fails the test instead of hanging it.
    for (let page = 0; page < 10; page++) {
      const { res, body } = await call(api, "GET", path, { key });
      expect(res.status).toBe(200);
      pages.push(body);
      if (body.next_cursor === null) break;
      path = `/api/v1/certificates?cursor=${encodeURIComponent(body.next_cursor)}`;
    }
    expect(pages.map((page) => page.certificates.length)).toEqual([50, 50, 20]);
    expect(pages.every((page) => page.total === 120)).toBe(true);
    const walked = pages.flatMap((page) => page.certificates);
    expect(new Set(walked.map((c) => c.id)).size).toBe(120);
    const sorted = [...walked].sort((a, b) => a.expires_on.localeCompare(b.expires_on) || a.id.localeCompare(b.id));
    expect(walked).toEqual(sorted);
  });

  it("limit sets the page size, at most 200; a certificate deleted between pages does not make the walk skip one", async () => {
    const key = await newKey("Paged Certificates");
    for (let i = 0; i < 7; i++) await call(api, "POST", "/api/v1/certificates", { key, body: certificate(i) });
    const first = (await call(api, "GET", "/api/v1/certificates?limit=3", { key })).body;
    expect(first.certificates).toHaveLength(3);
    await call(api, "DELETE", `/api/v1/certificates/${first.certificates[2].id}`, { key });
    const second = (await call(api, "GET", `/api/v1/certificates?limit=3&cursor=${encodeURIComponent(first.next_cursor)}`, { key })).body;
    const all = (await call(api, "GET", "/api/v1/certificates?limit=200", { key })).body;
    expect(all).toMatchObject({ total: 6, next_cursor: null });
    expect(second.certificates).toEqual(all.certificates.slice(2, 5));
  });

  it("a limit outside 1–200, or a cursor no answer gave, is 400 bad-request naming the parameter", async () => {
    for (const [query, name] of [["limit=0", "limit"], ["limit=201", "limit"], ["limit=ten", "limit"], ["cursor=not-a-cursor", "cursor"], ["cursor=", "cursor"]] as const) {
      const { res, body } = await call(api, "GET", `/api/v1/certificates?${query}`);
      expect(res.status, query).toBe(400);
      expect(body.type).toMatch(/\/bad-request$/);
      expect(body.invalid_params.map((p: { name: string }) => p.name)).toEqual([name]);
    }
  });
});

describe("an organization keeps at most CERTIFICATES_PER_ORG certificates", () => {
  it("the one past the cap is 409 certificate-limit-reached; another organization is not affected; deleting one makes room", async () => {
    const key = await newKey("Full Certificates");
    const ids: string[] = [];
    for (let i = 0; i < CAP; i++) ids.push((await call(api, "POST", "/api/v1/certificates", { key, body: certificate(i) })).body.certificate.id);
    const { res, body } = await call(api, "POST", "/api/v1/certificates", { key, body: certificate(CAP) });
    expect(res.status).toBe(409);
    expect(body).toMatchObject({ status: 409, title: "Certificate Limit Reached", type: expect.stringMatching(/\/certificate-limit-reached$/) });
    expect(body.detail).toBe(`This organization keeps ${CAP} certificates, the most it may. Delete those it no longer needs (expired ones first), then record this one.`);
    expect((await call(api, "POST", "/api/v1/certificates", { key: await newKey("Spare Certificates"), body: certificate(0) })).res.status).toBe(201);
    await call(api, "DELETE", `/api/v1/certificates/${ids[0]}`, { key });
    expect((await call(api, "POST", "/api/v1/certificates", { key, body: certificate(CAP) })).res.status).toBe(201);
  });
});
