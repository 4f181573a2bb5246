/**
 * How recorded periods join the shipped ones (src/scheduled/overlay-periods.ts), and a reconciled change
 * to a transit district that covers only part of a county.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overlayPeriods } from "../src/rates/overlay-periods.ts";
import { reconcile } from "../src/scheduled/reconcile.ts";
import type { RatePeriod } from "../src/rates/rate-table.ts";
import { call } from "./_api.ts";
import { startTestService, type TestService } from "./_setup.ts";

const period = (rate: number, effectiveFrom: string | null, effectiveTo: string | null, component: RatePeriod["component"] = "county"): RatePeriod => ({
  fips: "39169",
  component,
  authority: null,
  rate,
  effectiveFrom,
  effectiveTo,
});

describe("recorded periods are laid over the shipped ones: never two periods for one date", () => {
  it("an open-ended change cuts the open shipped period at its start", () => {
    expect(overlayPeriods([period(7_500, null, null)], [period(12_500, "2027-01-01", null)])).toEqual([
      period(7_500, null, "2027-01-01"),
      period(12_500, "2027-01-01", null),
    ]);
  });

  it("a temporary levy splits the shipped period around it", () => {
    expect(overlayPeriods([period(7_500, "2020-01-01", null)], [period(12_500, "2027-01-01", "2028-01-01")])).toEqual([
      period(7_500, "2020-01-01", "2027-01-01"),
      period(7_500, "2028-01-01", null),
      period(12_500, "2027-01-01", "2028-01-01"),
    ]);
  });

  it("a later record for the same start replaces an earlier one; other components are untouched", () => {
    const transit = period(5_000, null, null, "transit");
    expect(overlayPeriods([period(7_500, null, null), transit], [period(12_500, "2027-01-01", null), period(7_500, "2027-01-01", null)])).toEqual([
      period(7_500, null, "2027-01-01"),
      transit,
      period(7_500, "2027-01-01", null),
    ]);
  });
});

describe("reconcile: a change to a transit district covering part of a county", () => {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-sst-district-"));
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("without RECONCILE_SOURCE the job is skipped and logs nothing", async () => {
    expect(await api.service.background.scheduler.run("reconcile", new Date("2026-12-01T10:30:00Z"))).toMatchObject({ status: "skipped" });
    expect((await call(api, "GET", "/api/v1/reconciliations")).body).toEqual({ total: 0, reconciliations: [] });
  });

  it("COTA's Delaware district going to 1.5%: rate.announced carries the in-district rates; upcoming shows combined_rate_inside", async () => {
    const source = fileURLToPath(new URL("fixtures/sst/OHR2026Q1NOV28.csv", import.meta.url));
    const lines = readFileSync(source, "utf8").trimEnd().split("\r\n");
    const path = join(dir, "OHR2027Q1NOV30.csv");
    writeFileSync(
      path,
      `${[
        ...lines.map((line) => (line.startsWith("39,63,96000,") && line.endsWith(",99991231") ? line.replace(/99991231$/, "20261231") : line)),
        "39,63,96000,.015000,.015000,.015000,.015000,20270101,99991231",
      ].join("\r\n")}\r\n`,
    );
    const done = await reconcile(
      { db: api.service.store.db, rateData: api.service.rates, districtCodes: new Map([["39041", "96000"]]), source: path },
      new Date("2026-12-01T10:30:00Z"),
    );
    expect(done).toMatchObject({ status: "succeeded", periodsRecorded: 1, eventsEmitted: 1 });
    const [event] = await api.service.store.db.selectFrom("events").select("payload").execute();
    expect(JSON.parse(event!.payload).data).toEqual({
      county: "Delaware",
      county_slug: "delaware",
      fips: "39041",
      old_rate: 0.07,
      new_rate: 0.07,
      effective_date: "2027-01-01",
      announced_date: "2026-11-30",
      lead_days: 32,
      days_until: 31,
      transit_district: { authority: "COTA", old_rate_inside: 0.08, new_rate_inside: 0.085 },
    });
    const answer = (await call(api, "GET", "/api/v1/rates?county=delaware&date=2026-12-01")).body;
    expect(answer).toMatchObject({ combined_rate: 0.07, has_upcoming_change: true, upcoming: { effective_date: "2027-01-01", combined_rate: 0.07, combined_rate_inside: 0.085 } });
  });
});
