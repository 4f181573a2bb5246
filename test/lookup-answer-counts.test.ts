/**
 * buckeye_lookup_answers_total counts every lookup GET /api/v1/rates answers, by resolved_by, the county and
 * ZIP lookups it answers from its body cache included (docs/operations/metrics.md): an operator reads from it
 * the mix of lookups, and how many ZIPs were ambiguous (customers leaving addresses out). Real service in
 * process; the counter is read from the process's registry, as its listener serves it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookupAnswers } from "../src/metrics.ts";
import { startTestService, type TestService } from "./_setup.ts";

let api: TestService;
beforeAll(async () => {
  api = await startTestService();
});
afterAll(() => api.close());

async function counts(): Promise<Record<string, number>> {
  return Object.fromEntries((await lookupAnswers.get()).values.map((sample) => [String(sample.labels.resolved_by), sample.value]));
}

/** What `requests` added to the counter, by resolved_by. */
async function counted(requests: () => Promise<void>): Promise<Record<string, number>> {
  const before = await counts();
  await requests();
  const after = await counts();
  return Object.fromEntries(Object.entries(after).filter(([label, value]) => value !== (before[label] ?? 0)).map(([label, value]) => [label, value - (before[label] ?? 0)]));
}

async function rate(query: string): Promise<Record<string, unknown>> {
  const res = await api.get(`/api/v1/rates?${query}`);
  expect(res.status, query).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe("buckeye_lookup_answers_total counts county and ZIP lookups, whether built or reused from the body cache", () => {
  it("three county lookups count three county_param answers, the two the cache answered included", async () => {
    expect(await counted(async () => {
      for (let i = 0; i < 3; i++) await rate("county=ashtabula&date=2025-05-01");
    })).toEqual({ county_param: 3 });
  });

  it("a ZIP that spans counties counts as ambiguous each time it is asked; a ZIP in one county by how it was resolved", async () => {
    expect(await counted(async () => {
      for (let i = 0; i < 2; i++) expect((await rate("zip=43016&date=2025-05-01")).ambiguous).toBe(true);
    })).toEqual({ ambiguous: 2 });
    let resolvedBy = "";
    expect(await counted(async () => {
      for (let i = 0; i < 2; i++) resolvedBy = String((await rate("zip=44004&date=2025-05-01")).resolved_by);
    })).toEqual({ [resolvedBy]: 2 });
    expect(resolvedBy).toMatch(/^zip_/);
  });
});
