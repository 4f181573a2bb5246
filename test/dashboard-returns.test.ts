/**
 * The Returns page in a real browser (Debian's chromium via playwright-core) against a real Buckeye
 * service on a real socket (test/_dashboard.ts): an owner reads a period's UST 1 worksheet, switches
 * between the live and the test ledger, and downloads the CSV. Ledger rows come from the tests' own
 * writer (test/_ledger-rows.ts), synthetic amounts. Screenshots go to test/artifacts/.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardHarness } from "./_dashboard.ts";
import { writeLedgerRows } from "./_ledger-rows.ts";

const dash = dashboardHarness();
let page: Page;

beforeAll(async () => {
  ({ page } = await dash.freshPage());
  await dash.signUp(page, "Buckeye Bikes", "owner@bikes.example");
  const { db } = dash.service.service.store;
  const { organization_id } = await db.selectFrom("users").select("organization_id").where("email", "=", "owner@bikes.example").executeTakeFirstOrThrow();
  await writeLedgerRows(db, [
    // Franklin County, 8.00 %: $250.00 → $14.38 state, $3.13 county, $2.50 COTA.
    { organizationId: organization_id, env: "live", date: "2026-11-04", countyFips: "39049", grossCents: 25_000, stateTaxCents: 1_438, countyTaxCents: 313, transitTaxCents: 250 },
    // Delaware County inside COTA's district, 8.00 %: $100.00, of which $40.00 exempt → $3.45, $0.75, $0.60.
    { organizationId: organization_id, env: "live", date: "2026-11-12", countyFips: "39041", transitDistrict: "COTA", grossCents: 10_000, exemptCents: 4_000, stateTaxCents: 345, countyTaxCents: 75, transitTaxCents: 60 },
    // A refund on November 20 of $50.00 of an October Franklin sale: −$2.88, −$0.63, −$0.50.
    { organizationId: organization_id, env: "live", kind: "refund", date: "2026-11-20", countyFips: "39049", grossCents: -5_000, stateTaxCents: -288, countyTaxCents: -63, transitTaxCents: -50 },
    // The test ledger: one sale in Adams County.
    { organizationId: organization_id, env: "test", date: "2026-11-02", countyFips: "39001", grossCents: 1_000, stateTaxCents: 58, countyTaxCents: 15 },
  ]);
});

const cells = (row: ReturnType<Page["getByRole"]>) => row.locator("td").allTextContents();

describe("Returns page: a period's UST 1 worksheet, to read and download", () => {
  it("lists the filing periods from the navigation, the current one first, each with its due date", async () => {
    await page.goto("/dashboard/keys");
    await page.getByRole("link", { name: "Returns" }).click();
    await page.waitForURL("**/dashboard/returns");
    expect(await page.getByRole("heading", { name: "Returns", level: 1 }).isVisible()).toBe(true);
    expect(await page.locator("tbody tr").count()).toBe(12);
    await dash.shot(page, "returns");
  });

  it("shows each county line with the COTA part of Delaware on its own code, the totals, the discount and the net amount due", async () => {
    await page.goto("/dashboard/returns/2026-11");
    const counties = page.getByRole("region", { name: "By county" });
    expect(await cells(counties.getByRole("row", { name: /Delaware/ }))).toEqual(["96", "$100.00", "$40.00", "$60.00", "$4.80"]);
    expect(await cells(counties.getByRole("row", { name: /Franklin/ }))).toEqual(["25", "$200.00", "$0.00", "$200.00", "$16.00"]);
    expect(await cells(counties.getByRole("row", { name: "Total" }))).toEqual(["", "$300.00", "$40.00", "$260.00", "$20.80"]);
    const summary = page.getByRole("region", { name: "Summary" });
    // 0.75 % of $20.80 is 15.6 cents: 16 cents; $20.80 − $0.16 = $20.64.
    expect(await summary.locator('td[data-line="7"]').textContent()).toBe("$0.16");
    expect(await summary.locator('td[data-line="9"]').textContent()).toBe("$20.64");
    expect(await page.getByText("Due Dec 23, 2026").isVisible()).toBe(true);
    await dash.shot(page, "return-2026-11");
  });

  it("the test ledger's worksheet is its own: switching shows only the test sales", async () => {
    await page.goto("/dashboard/returns/2026-11");
    await page.getByRole("navigation", { name: "Ledger" }).getByRole("link", { name: "Test ledger" }).click();
    await page.waitForURL("**/dashboard/returns/2026-11?ledger=test");
    const counties = page.getByRole("region", { name: "By county" });
    expect(await counties.locator("tbody tr th").allTextContents()).toEqual(["Adams"]);
    expect(await page.getByRole("region", { name: "Summary" }).locator('td[data-line="6"]').textContent()).toBe("$0.73");
  });

  it("Download CSV saves the worksheet as a CSV file named by period and ledger", async () => {
    await page.goto("/dashboard/returns/2026-11");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("buckeye-ust1-2026-11-live.csv");
    const lines = readFileSync((await download.path())!, "utf8").split("\r\n");
    expect(lines[0]).toBe("row,line,label,county_fips,reporting_code,part,gross_sales,exempt_sales,net_taxable_sales,tax_liability,state_tax,county_tax,transit_tax,records,amount");
    expect(lines).toContain("county,,Delaware,39041,96,COTA district,100.00,40.00,60.00,4.80,3.45,0.75,0.60,1,");
    expect(lines).toContain("form,9,Net amount due,,,,,,,,,,,,20.64");
  });

  it("a period that is not a filing period of the organization's frequency is an error page that says why", async () => {
    const response = await page.goto("/dashboard/returns/2026-H2");
    expect(response!.status()).toBe(400);
    expect(await page.getByText(/This organization files monthly/).isVisible()).toBe(true);
  });
});
