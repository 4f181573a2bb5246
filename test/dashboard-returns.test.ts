/**
 * The Returns page in a real browser (Debian's chromium via playwright-core) against a real Buckeye
 * service on a real socket (test/_dashboard.ts): an owner reads a period's UST 1 worksheet, switches
 * between the live and the test ledger, and downloads the CSV. Ledger rows come from the tests' own
 * writer (test/_ledger-rows.ts), synthetic amounts. Screenshots go to test/artifacts/.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "./_axe.ts";
import { dashboardHarness, PHONE } from "./_dashboard.ts";
import { writeLedgerRows } from "./_ledger-rows.ts";

const dash = dashboardHarness();
let page: Page;

beforeAll(async () => {
  ({ page } = await dash.freshPage());
  await dash.signUp(page, "Buckeye Bikes", "owner@bikes.example");
  const { db } = dash.service.service.store;
  const { organization_id } = await db.selectFrom("users").select("organization_id").where("email", "=", "owner@bikes.example").executeTakeFirstOrThrow();
  // The worked example of docs/guides/tax-and-returns.md, "The return".
  await writeLedgerRows(db, [
    // October 14, Franklin County (8.00 %): $100.00 → state $5.75, county $1.25, COTA $1.00.
    { organizationId: organization_id, env: "live", date: "2026-10-14", countyFips: "39049", grossCents: 10_000, stateTaxCents: 575, countyTaxCents: 125, transitTaxCents: 100 },
    // November 4, Franklin County: $200.00 → $11.50, $2.50, $2.00.
    { organizationId: organization_id, env: "live", date: "2026-11-04", countyFips: "39049", grossCents: 20_000, stateTaxCents: 1_150, countyTaxCents: 250, transitTaxCents: 200 },
    // November 12, Delaware County inside COTA's district (8.00 %): $100.00, $40.00 of it exempt → $3.45, $0.75, $0.60 on $60.00.
    { organizationId: organization_id, env: "live", date: "2026-11-12", countyFips: "39041", transitDistrict: "COTA", grossCents: 10_000, exemptCents: 4_000, stateTaxCents: 345, countyTaxCents: 75, transitTaxCents: 60 },
    // November 16, Delaware County outside the district (7.00 %): $80.00 → $4.60, $1.00.
    { organizationId: organization_id, env: "live", date: "2026-11-16", countyFips: "39041", grossCents: 8_000, stateTaxCents: 460, countyTaxCents: 100 },
    // November 20, $40.00 of the October 14 sale refunded: −$2.30, −$0.50, −$0.40.
    { organizationId: organization_id, env: "live", kind: "refund", date: "2026-11-20", countyFips: "39049", grossCents: -4_000, stateTaxCents: -230, countyTaxCents: -50, transitTaxCents: -40 },
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
    expect(await cells(counties.getByRole("row", { name: /Delaware \(COTA district\)/ }))).toEqual(["96", "$100.00", "$40.00", "$60.00", "$4.80"]);
    expect(await cells(counties.getByRole("row", { name: /^Delaware 21/ }))).toEqual(["21", "$80.00", "$0.00", "$80.00", "$5.60"]);
    expect(await cells(counties.getByRole("row", { name: /Franklin/ }))).toEqual(["25", "$160.00", "$0.00", "$160.00", "$12.80"]);
    expect(await cells(counties.getByRole("row", { name: "Total" }))).toEqual(["", "$340.00", "$40.00", "$300.00", "$23.20"]);
    const summary = page.getByRole("region", { name: "Summary" });
    // 0.75 % of $23.20 is 17.4 cents: 17 cents; $23.20 − $0.17 = $23.03.
    expect(await summary.locator('td[data-line="7"]').textContent()).toBe("$0.17");
    expect(await summary.locator('td[data-line="9"]').textContent()).toBe("$23.03");
    expect(await page.getByText("Due Dec 23, 2026").isVisible()).toBe(true);
    await dash.shot(page, "return-2026-11");
  });

  it("October carries the sale the November refund reduces: $100.00, $8.00 of tax, a discount of $0.06", async () => {
    await page.goto("/dashboard/returns/2026-10");
    const counties = page.getByRole("region", { name: "By county" });
    expect(await cells(counties.getByRole("row", { name: /Franklin/ }))).toEqual(["25", "$100.00", "$0.00", "$100.00", "$8.00"]);
    const summary = page.getByRole("region", { name: "Summary" });
    expect([await summary.locator('td[data-line="7"]').textContent(), await summary.locator('td[data-line="9"]').textContent()]).toEqual(["$0.06", "$7.94"]);
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
    expect(lines).toContain("form,9,Net amount due,,,,,,,,,,,,23.03");
  });

  it("a period that is not a filing period of the organization's frequency is an error page that says why", async () => {
    const response = await page.goto("/dashboard/returns/2026-H2");
    expect(response!.status()).toBe(400);
    expect(await page.getByText(/This organization files monthly/).isVisible()).toBe(true);
  });

  it("the periods and a worksheet pass axe-core (WCAG 2.1 AA) at a desktop's and a phone's width, without scrolling sideways", async () => {
    const { context, page: phone } = await dash.freshPage(PHONE);
    try {
      await phone.context().addCookies(await page.context().cookies());
      for (const [viewer, name] of [[page, "desktop"], [phone, "phone"]] as const) {
        for (const path of ["/dashboard/returns", "/dashboard/returns/2026-11"]) {
          await viewer.goto(path);
          const overflow = await viewer.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `${path} at ${name} width scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
          await expectAccessible(viewer, `${name} ${path}`);
        }
      }
      await dash.shot(phone, "return-2026-11-phone");
    } finally {
      await context.close();
    }
  }, 120_000);
});
