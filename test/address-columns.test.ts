/**
 * Address columns as customer exports carry them (src/lookup/address-columns.ts,
 * docs/guides/address-resolution.md "Address columns"): read by every batch path through
 * readLookupItem, and accepted in a CSV header by readBatchFile.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXPORT_HEADER_NAMES, parseColumnMapping } from "../src/lookup/export-headers.ts";
import { readBatchFile } from "../src/batch/read-batch-file.ts";
import { readLookupItem, readLookups } from "../src/lookup/lookup-item.ts";

const TODAY = "2026-06-01";
const item = (raw: Record<string, unknown>) => readLookupItem(raw, TODAY);

describe("split address columns are written into one address line, and their ZIP kept as the zip", () => {
  it("street, city, state, zip", () => {
    expect(item({ street: "150 Birch Ct", city: "Westerville", state: "OH", zip: "43081" })).toMatchObject({ address: "150 Birch Ct, Westerville, OH 43081", zip: "43081" });
  });

  it("address1, address2, city, state, postal_code, plus4", () => {
    expect(item({ address1: "150 Birch Ct", address2: "Apt 4", city: "Westerville", state: "OH", postal_code: "43081", plus4: "1234" })).toMatchObject({
      address: "150 Birch Ct Apt 4, Westerville, OH 43081-1234",
      zip: "43081",
      zip4: "1234",
    });
  });

  it("address with unit, suite or street2 beside it: address is the street line", () => {
    for (const unit of ["unit", "suite", "street2"]) {
      expect(item({ address: "150 Birch Ct", [unit]: "Ste 2", zip: "43081", zip4: "0001" })).toMatchObject({ address: "150 Birch Ct Ste 2, 43081-0001", zip: "43081", zip4: "0001" });
    }
  });

  it("address alone is the whole line, as always; blank split columns change nothing", () => {
    expect(item({ address: "150 Birch Ct, Westerville, OH 43081" })).toMatchObject({ address: "150 Birch Ct, Westerville, OH 43081" });
    expect(item({ address: "150 Birch Ct, Westerville, OH 43081", city: "", state: " " })).toMatchObject({ address: "150 Birch Ct, Westerville, OH 43081" });
  });

  it("a city and ZIP without a street line is a ZIP lookup", () => {
    expect(item({ city: "Westerville", zip: "43081" })).toMatchObject({ zip: "43081" });
    expect(item({ city: "Westerville", zip: "43081" })).not.toHaveProperty("address");
  });
});

describe("two columns that name the same thing with different values are a 400 for the row, never a guess", () => {
  it.each([
    [{ address: "150 Birch Ct", street: "151 Birch Ct", city: "Westerville" }, "street"],
    [{ street: "150 Birch Ct", unit: "Apt 1", suite: "Ste 2" }, "suite"],
    [{ street: "150 Birch Ct", zip: "43081", postal_code: "43082" }, "postal_code"],
    [{ street: "150 Birch Ct", plus4: "1234" }, "plus4"],
    [{ street: "150 Birch Ct", zip: "43081", zip4: "12" }, "zip4"],
    [{ street: "150 Birch Ct", zip: "43081-1234", zip4: "5678" }, "zip4"],
  ])("%j", (raw, param) => {
    expect(item(raw)).toMatchObject({ kind: "failure", slug: "bad-request", param });
  });

  it("the same ZIP in zip and postal_code is one ZIP", () => {
    expect(item({ street: "150 Birch Ct", zip: "43081", postal_code: "43081" })).toMatchObject({ zip: "43081", address: "150 Birch Ct, 43081" });
  });

});

describe("fields Buckeye does not read are ignored, and named when the row is left with nothing to look up", () => {
  it("an export's name beside its address columns is ignored: the row is answered from the address", () => {
    expect(item({ name: "Acme Supply", street: "150 Birch Ct", city: "Westerville", state: "OH", zip: "43081" })).toMatchObject({ address: "150 Birch Ct, Westerville, OH 43081", zip: "43081" });
  });

  it("a misspelt adress leaves the row with no location: its problem names the ignored field", () => {
    const failed = item({ id: "r1", adress: "150 Birch Ct, Westerville, OH 43081", name: "Acme" });
    expect(failed).toMatchObject({ kind: "failure", slug: "bad-request" });
    expect((failed as { detail: string }).detail).toContain("This row's adress, name are not read");
  });
});

describe("a CSV export's header is read in any case, with spaces or hyphens", () => {
  it("Street, City, State, Postal Code, Address 2 are accepted and read", () => {
    const csv = "id,Street,Address 2,City,State,Postal Code,Zip-4\nr1,150 Birch Ct,Apt 4,Westerville,OH,43081,1234\n";
    const reading = readBatchFile(new TextEncoder().encode(csv), "csv", 100, 50);
    expect(reading).toMatchObject({ ok: true, total: 1 });
    if (!reading.ok) return;
    expect(readLookups(reading.chunks[0]!.input, TODAY)[0]!.item).toMatchObject({ id: "r1", address: "150 Birch Ct Apt 4, Westerville, OH 43081-1234", zip: "43081", zip4: "1234" });
  });

  it("the issue's export header name, street, city, state, zip is accepted; name is listed as ignored", () => {
    const reading = readBatchFile(new TextEncoder().encode("name, street, city, state, zip\nAcme,150 Birch Ct,Westerville,OH,43081\n"), "csv", 100, 50);
    expect(reading).toMatchObject({ ok: true, total: 1, ignoredColumns: ["name"] });
    if (!reading.ok) return;
    expect(readLookups(reading.chunks[0]!.input, TODAY)[0]!.item).toMatchObject({ address: "150 Birch Ct, Westerville, OH 43081", zip: "43081" });
  });

  it("NDJSON rows' unread fields are gathered, each once, in order of first sight", () => {
    const ndjson = '{"zip":"43081","name":"A"}\n{"zip":"43081","phone":"1","name":"B"}\n';
    expect(readBatchFile(new TextEncoder().encode(ndjson), "ndjson", 100, 50)).toMatchObject({ ok: true, ignoredColumns: ["name", "phone"] });
  });

  it("a column named twice is still refused", () => {
    expect(readBatchFile(new TextEncoder().encode("zip,name,name\n43081,a,b\n"), "csv", 100, 50)).toMatchObject({ ok: false, detail: "A CSV column is named twice in the header." });
  });
});

const fixture = (name: string) => readFileSync(new URL(`./fixtures/exports/${name}`, import.meta.url));
/** The lookups a file's rows come to, as the batch lane reads them from the stored chunks. */
function lookupsOf(reading: ReturnType<typeof readBatchFile>) {
  if (!reading.ok) throw new Error(reading.detail);
  return reading.chunks.flatMap((chunk) => readLookups(chunk.input, TODAY));
}

describe("exports as platforms write them are read: each platform's header names (fixtures written by us in their documented layouts)", () => {
  it.each([
    ["shopify-orders.csv", [["5550001001", "100 Polaris Pkwy Suite 5, Columbus, OH 43240"], ["5550001002", "7000 Sawmill Pkwy, Dublin, OH 43017"]]],
    ["woocommerce-orders.csv", [["WC-501", "1 Capitol Sq, Columbus, OH 43215"], ["WC-502", "100 Polaris Pkwy Floor 2, Columbus, OH 43240"]]],
    ["bigcommerce-orders.csv", [["9101", "7000 Sawmill Pkwy, Dublin, Ohio 43017"]]],
    ["magento-orders.csv", [["000000101", "1 Capitol Sq,Columbus,Ohio,43215"]]],
    ["square-customers.csv", [[null, "100 Polaris Pkwy Suite 100, Columbus, OH 43240"], [null, "300 Dixie Hwy, Rossford, OH 43460"]]],
    ["amazon-orders.txt", [["111-0000001-0000001", "7000 Sawmill Pkwy, Dublin, OH 43017"], ["111-0000002-0000002", "1 Capitol Sq, Columbus, OH 43215"]]],
    ["quickbooks-customers.csv", [[null, "100 Polaris Pkwy, Columbus, OH 43240"]]],
    ["salesforce-accounts.csv", [["0015g00000AbCdEAAA", "1 Capitol Sq, Columbus, OH 43215"]]],
    ["address-line-export.csv", [["1", "100 Polaris Pkwy # 1, Columbus, OH 43240"], ["2", "7000 Sawmill Pkwy, Dublin, OH 43017"]]],
    ["street-address-export.csv", [[null, "100 Polaris Pkwy Suite 100, Columbus, OH 43240"], [null, "1 Capitol Sq, Columbus, OH 43215"]]],
  ] as const)("%s: every row's shipping address (or its only one) is read whole, with its id", (name, expected) => {
    const rows = lookupsOf(readBatchFile(fixture(name), "csv", 100, 50));
    expect(rows.map(({ id, item }) => [id, (item as { address?: string }).address ?? (item as { detail?: string }).detail])).toEqual(expected);
    for (const row of rows) expect(row.unread).toBeUndefined();
  });

  it("the billing address is read instead when asked; a file with no billing columns asked for them is refused", () => {
    const rows = lookupsOf(readBatchFile(fixture("shopify-orders.csv"), "csv", 100, 50, { side: "billing" }));
    expect(rows.map(({ item }) => (item as { address: string }).address)).toEqual(["300 Dixie Hwy, Rossford, OH 43460", "300 Dixie Hwy, Rossford, OH 43460"]);
    expect(readBatchFile(fixture("street-address-export.csv"), "csv", 100, 50, { side: "billing" })).toMatchObject({ ok: false, detail: expect.stringContaining("no billing address columns") });
  });

  it("ignored_columns lists every column not read, the other side's and a second form of one part included (no cap at 20)", () => {
    const reading = readBatchFile(fixture("shopify-orders.csv"), "csv", 100, 50);
    if (!reading.ok) throw new Error(reading.detail);
    expect(reading.ignoredColumns).toHaveLength(62 - 6);
    expect(reading.ignoredColumns).toEqual(expect.arrayContaining(["name", "billing_address1", "shipping_street", "billing_province_name", "shipping_province_name", "lineitem_name", "payment_reference"]));
    expect(reading.readColumns).toEqual([
      { name: "street", header: "Shipping Address1" }, { name: "address2", header: "Shipping Address2" }, { name: "city", header: "Shipping City" },
      { name: "zip", header: "Shipping Zip" }, { name: "state", header: "Shipping Province" }, { name: "id", header: "Id" },
    ]);
  });

  it("every header name the guide documents is in its table with its platform", () => {
    const guide = readFileSync(new URL("../docs/guides/address-resolution.md", import.meta.url), "utf8");
    for (const { header } of EXPORT_HEADER_NAMES) expect(guide, header).toContain(`\`${header.replace("{side}", "")}`);
  });
});

describe("no silent downgrade: a header that reads no address part while a column looks like one is refused, naming what was read and the mapping to send", () => {
  it("id, county, Delivery Addr, Zip Cd: refused with 400, its detail naming the columns that look like address parts, what was read and the mapping", () => {
    const refused = readBatchFile(new TextEncoder().encode("id,county,Delivery Addr,Zip Cd\nr1,Franklin,1 Capitol Sq,43215\n"), "csv", 100, 50);
    expect(refused).toMatchObject({ ok: false, slug: "bad-request" });
    const detail = !refused.ok ? refused.detail : "";
    expect(detail).toContain('"Delivery Addr", "Zip Cd" look like one');
    expect(detail).toContain("Read: id, county.");
    expect(detail).toContain("?columns=street=Delivery Addr,zip=Zip Cd");
    expect(detail).toContain("buckeye batch --columns street=Delivery Addr,zip=Zip Cd");
  });

  it("the mapping it suggests is then read", () => {
    const rows = lookupsOf(readBatchFile(new TextEncoder().encode("id,county,Delivery Addr,Zip Cd\nr1,Franklin,1 Capitol Sq,43215\n"), "csv", 100, 50, { columns: { street: "Delivery Addr", zip: "Zip Cd" } }));
    expect(rows[0]!.item).toMatchObject({ id: "r1", address: "1 Capitol Sq, 43215", zip: "43215", county: "Franklin" });
  });

  it("a mapping naming a column the header does not have is refused", () => {
    expect(readBatchFile(new TextEncoder().encode("id,zip\nr1,43215\n"), "csv", 100, 50, { columns: { street: "Addr" } })).toMatchObject({ ok: false, detail: expect.stringContaining('maps street to "Addr", which the header does not have') });
  });

  it("an NDJSON file whose rows read no address part but carry street_address is refused the same way", () => {
    expect(readBatchFile(new TextEncoder().encode('{"id":"a","street_address":"1 Capitol Sq"}\n'), "ndjson", 100, 50)).toMatchObject({ ok: false, detail: expect.stringContaining('"street_address" looks like one') });
  });

  it("coordinates need no address part; an e-mail or IP address is not an address part", () => {
    expect(readBatchFile(new TextEncoder().encode("lat,lon,Street Addr\n39.96,-82.99,x\n"), "csv", 100, 50)).toMatchObject({ ok: true });
    expect(readBatchFile(new TextEncoder().encode("county,Email Address,Customer IP Address\nFranklin,a@b.c,1.2.3.4\n"), "csv", 100, 50)).toMatchObject({ ok: true });
  });
});

describe("a row answered from less than it was sent says so: its unread address-like columns with a value", () => {
  it("zip read, Delivery Address not: each row that holds one names it", () => {
    const rows = lookupsOf(readBatchFile(new TextEncoder().encode("id,zip,Delivery Address\nr1,43215,1 Capitol Sq\nr2,43215,\n"), "csv", 100, 50));
    expect(rows.map((row) => row.unread)).toEqual([["delivery_address"], undefined]);
  });

  it("parseColumnMapping reads NAME=HEADER pairs and names what it cannot read", () => {
    expect(parseColumnMapping("street=Addr 1, zip=Zip")).toEqual({ ok: true, columns: { street: "Addr 1", zip: "Zip" } });
    expect(parseColumnMapping("road=Addr")).toMatchObject({ ok: false, reason: expect.stringContaining("road is not a column Buckeye reads") });
    expect(parseColumnMapping("street")).toMatchObject({ ok: false });
    expect(parseColumnMapping("zip=A,zip=B")).toMatchObject({ ok: false, reason: "zip is mapped twice" });
  });
});
