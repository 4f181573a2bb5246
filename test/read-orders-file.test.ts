/**
 * How an uploaded file of orders is read into sales (src/batch/read-orders-file.ts), without HTTP or a
 * store: the CSV layout of docs/guides/tax-and-returns.md ("Batches of orders"), NDJSON one sale a line,
 * and what refuses a file whole. The files are SYNTHETIC, written here.
 */
import { describe, expect, it } from "vitest";
import { readOrdersFile, type OrderRow } from "../src/batch/read-orders-file.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

function sales(text: string, format: "csv" | "ndjson", chunkRows = 100): OrderRow[] {
  const reading = readOrdersFile(bytes(text), format, 1000, chunkRows);
  if (!reading.ok) throw new Error(reading.detail);
  return reading.chunks.flatMap((chunk) => JSON.parse(chunk.input) as OrderRow[]);
}

describe("a CSV of orders: one row per line item, order_id grouping a sale's rows", () => {
  it("makes one sale of an order's contiguous rows: its fields from any of them, each row a line, in the upload's order", () => {
    const rows = sales(
      [
        "order_id,date,customer_id,ship_to_address,ship_to_zip,ship_to_lat,ship_to_lon,shipping,line_id,quantity,unit_price,amount,discount,exempt,exempt_reason,category",
        "A-1,2026-06-01,cust-9,1 Capitol Sq,43215,,,5.00,sku-1,3,9.99,,1.00,,,",
        "A-1,,,,,,,,sku-2,,,0.63,,TRUE,resale,",
        "B-2,2026-06-02,,,,39.96,-82.99,,x,,,12.00,,,,food-for-home-consumption",
      ].join("\n"),
      "csv",
    );
    expect(rows).toEqual([
      {
        id: "A-1",
        sale: {
          lines: [
            { id: "sku-1", quantity: 3, unit_price: "9.99", discount: "1.00" },
            { id: "sku-2", amount: "0.63", exempt: true, exempt_reason: "resale" },
          ],
          order_id: "A-1",
          date: "2026-06-01",
          customer_id: "cust-9",
          ship_to: { address: "1 Capitol Sq", zip: "43215" },
          shipping: "5.00",
        },
      },
      { id: "B-2", sale: { lines: [{ id: "x", amount: "12.00", category: "food-for-home-consumption" }], order_id: "B-2", date: "2026-06-02", ship_to: { lat: "39.96", lon: "-82.99" } } },
    ]);
  });

  it("keeps a cell the sale's rules refuse as it was written, so the row fails naming that field: a quantity of 1.5, an exempt of maybe", () => {
    const [row] = sales("order_id,line_id,quantity,exempt,unit_price\nA,a,1.5,maybe,1.00\n", "csv");
    expect(row!.sale).toMatchObject({ lines: [{ id: "a", quantity: "1.5", exempt: "maybe", unit_price: "1.00" }] });
  });

  it("a row without line_id is its order's nth line", () => {
    const [row] = sales("order_id,unit_price\nA,1.00\nA,2.00\n", "csv");
    expect(row!.sale).toMatchObject({ lines: [{ id: "1", unit_price: "1.00" }, { id: "2", unit_price: "2.00" }] });
  });

  it("an order whose rows disagree on an order field is that sale's problem, naming the field", () => {
    const [row] = sales("order_id,ship_to_county,unit_price\nA,Adams,1.00\nA,Hamilton,2.00\n", "csv");
    expect(row!.problem).toMatchObject({ slug: "invalid-sale", invalidParams: [{ name: "ship_to.county", reason: expect.stringContaining('"Adams"') }] });
  });

  it("an order_id whose rows are apart is a sale of its own, failing on order_id; the earlier one stands", () => {
    const rows = sales("order_id,unit_price\nA,1.00\nB,2.00\nA,3.00\n", "csv");
    expect(rows.map((row) => [row.id, row.problem?.invalidParams[0]?.name ?? null])).toEqual([
      ["A", null],
      ["B", null],
      ["A", "order_id"],
    ]);
  });

  it("is refused whole, before anything is stored, for a column no order is read from, a column named twice, or no order_id column", () => {
    for (const [header, said] of [
      ["order_id,unit_price,gift_wrap", '"gift_wrap"'],
      ["order_id,unit_price,Unit_Price", "named twice"],
      ["line_id,unit_price", "no order_id column"],
    ] as const) {
      const reading = readOrdersFile(bytes(`${header}\nA,1.00,x\n`), "csv", 1000, 100);
      expect(reading.ok ? null : reading.detail).toContain(said);
    }
  });

  it("counts sales, not rows, against the job's limit", () => {
    const reading = readOrdersFile(bytes("order_id,unit_price\nA,1.00\nA,2.00\nB,3.00\n"), "csv", 1, 100);
    expect(reading).toMatchObject({ ok: false, slug: "batch-too-large", detail: expect.stringContaining("2 orders") });
    expect(readOrdersFile(bytes("order_id,unit_price\nA,1.00\nA,2.00\n"), "csv", 1, 100)).toMatchObject({ ok: true, total: 1 });
  });
});

describe("an NDJSON file of orders: one sale a line", () => {
  it("keeps each line's sale as sent, named by its order_id; a line that is not JSON is a row that fails alone", () => {
    const rows = sales('{"order_id":"A","lines":[]}\n\nnot json\n{"lines":[],"order_id":7}\n', "ndjson");
    expect(rows).toEqual([
      { id: "A", sale: { order_id: "A", lines: [] } },
      { id: null, sale: null },
      { id: null, sale: { lines: [], order_id: 7 } },
    ]);
  });

  it("cuts the sales into chunks of at most chunkRows, numbered on from the first", () => {
    const reading = readOrdersFile(bytes(Array.from({ length: 5 }, (_, i) => `{"order_id":"o${i}"}`).join("\n")), "ndjson", 1000, 2);
    expect(reading.ok && reading.chunks.map((chunk) => [chunk.firstRow, chunk.rowCount])).toEqual([
      [1, 2],
      [3, 2],
      [5, 1],
    ]);
  });

  it("refuses a file that is not UTF-8, and one with no sale", () => {
    expect(readOrdersFile(new Uint8Array([0x7b, 0xff, 0x7d]), "ndjson", 10, 10)).toMatchObject({ ok: false, slug: "bad-request" });
    expect(readOrdersFile(bytes("\n\n"), "ndjson", 10, 10)).toMatchObject({ ok: false, detail: "The batch has no orders." });
  });
});
