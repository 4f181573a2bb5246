/**
 * Ohio's Finder batch layout (src/lookup/finder-layout.ts, docs/guides/address-resolution.md "The
 * Finder layout"): a headerless file read unchanged, each row held to the layout's own field rules,
 * a row that breaks one failing alone and naming its field. The example rows are written by hand.
 */
import { describe, expect, it } from "vitest";
import { readLookups } from "../src/lookup/lookup-item.ts";
import { readBatchFile } from "../src/batch/read-batch-file.ts";

const TODAY = "2026-06-01";
const GOOD = ["INV-1001", "150 Birch Ct", "Suite 200", "Westerville", "OH", "43081", "1234", "05/15/2026"];

function read(lines: string[]) {
  const reading = readBatchFile(new TextEncoder().encode(`${lines.join("\n")}\n`), "finder", 100, 50);
  if (!reading.ok) throw new Error(reading.detail);
  return { reading, items: reading.chunks.flatMap((chunk) => readLookups(chunk.input, TODAY)) };
}

const row = (fields: string[]) => read([fields.join(",")]).items[0]!.item;

describe("a Finder file is read without a header, its fields in the layout's order", () => {
  it("every line is a row; the fields become the lookup an export's columns would", () => {
    const { reading, items } = read([GOOD.join(","), ["INV-1002", "77 Elm St", "", "Columbus", "OH", "43215", "", "1/2/2026", "125.00"].join(",")]);
    expect(reading.total).toBe(2);
    expect(items[0]).toMatchObject({ id: "INV-1001", item: { id: "INV-1001", address: "150 Birch Ct Suite 200, Westerville, OH 43081-1234", zip: "43081", zip4: "1234", date: "2026-05-15" } });
    expect(items[1]).toMatchObject({ id: "INV-1002", item: { address: "77 Elm St, Columbus, OH 43215", zip: "43215", date: "2026-01-02" } });
  });

  it("a blank as-of date is today", () => {
    expect(row([...GOOD.slice(0, 7), ""])).toMatchObject({ date: TODAY });
  });
});

describe("each field is held to the layout's rule, and a row that breaks one fails alone naming the field", () => {
  const withField = (i: number, value: string) => GOOD.map((field, j) => (j === i ? value : field));
  it.each([
    ["an invoice number over 15 characters", withField(0, "INV-0000000000001"), "invoice_number", "at most 15"],
    ["an address over 61 characters", withField(1, `150 ${"Birch".repeat(12)} Ct`), "address", "at most 61"],
    ["a suite over 61 characters", withField(2, "S".repeat(62)), "suite", "at most 61"],
    ["a city over 29 characters", withField(3, "W".repeat(30)), "city", "at most 29"],
    ["a state other than OH", withField(4, "PA"), "state", "must be OH"],
    ["a ZIP of 4 digits", withField(5, "4308"), "zip", "5 digits"],
    ["a ZIP+4 of 3 digits", withField(6, "123"), "zip4", "4 digits"],
    ["a date written YYYY-MM-DD", withField(7, "2026-05-15"), "as_of_date", "MM/DD/YYYY"],
    ["a date that is no calendar day", withField(7, "02/30/2026"), "as_of_date", "calendar date"],
    ["a date before 01/01/2004", withField(7, "12/31/2003"), "as_of_date", "01/01/2004 or later"],
    ["a date in the future", withField(7, "06/02/2026"), "as_of_date", "not be in the future"],
    ["a taxable amount that is not an amount", [...GOOD, "twelve"], "taxable_amount", "amount"],
    ["a blank address", withField(1, ""), "address", "must not be empty"],
  ])("%s", (_, fields, param, says) => {
    const failed = row(fields);
    expect(failed).toMatchObject({ kind: "failure", slug: "bad-request", param });
    expect((failed as { detail: string }).detail).toContain(says);
  });

  it("a row of 7 or 10 fields fails alone, saying how many the layout has", () => {
    const { items } = read([GOOD.slice(0, 7).join(","), [...GOOD, "1.00", "x"].join(","), GOOD.join(",")]);
    expect(items.map((i) => ("kind" in i.item ? i.item.detail : "ok"))).toEqual([
      expect.stringContaining("A Finder row has 8 fields"),
      expect.stringContaining("this one has 10"),
      "ok",
    ]);
  });

  it("a date from 2004 through 2017 passes the layout's rule and is left to the rate history, which starts 2018-01-01", () => {
    expect(row([...GOOD.slice(0, 7), "06/30/2015"])).toMatchObject({ date: "2015-06-30" });
  });
});
