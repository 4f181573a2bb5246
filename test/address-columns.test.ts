/**
 * Address columns as customer exports carry them (src/lookup/address-columns.ts,
 * docs/guides/address-resolution.md "Address columns"): read by every batch path through
 * readLookupItem, and accepted in a CSV header by readBatchFile.
 */
import { describe, expect, it } from "vitest";
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
