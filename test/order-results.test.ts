/**
 * An orders job's results as its download writes them (src/batch/order-results.ts), without HTTP or a
 * store: each sale's status and body are the single endpoint's, and the CSV carries its figures. The
 * rows are SYNTHETIC, written here.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { ORDER_RESULT_HEADER, orderAnswer, orderCsvLine, orderNdjsonLine, type OrderRowResult } from "../src/batch/order-results.ts";

const ERRORS = "https://buckeye.test/errors";
const transaction = {
  id: "txn_1", kind: "sale" as const, reference: "o-1", sale_id: null, ledger: "test" as const, date: "2026-06-01", county_fips: "39001", transit_district: null,
  amounts: { gross: "100.00", exempt: "0.00", taxable: "100.00", tax: "7.25", state_tax: "5.75", county_tax: "1.50", transit_tax: "0.00" },
  calculation: { answer: { location: { county: "Adams" }, rounding: { basis: "invoice" } } },
  created_at: "2026-12-02T00:00:00.000Z",
};

describe("an orders job's result lines", () => {
  it("a sale this row recorded is 201, one recorded before under the same order_id and body 200, each with POST /api/v1/transactions's body", () => {
    expect(orderAnswer({ kind: "transaction", created: true, body: transaction }, ERRORS, "req_1")).toEqual({ status: 201, body: { transaction } });
    expect(orderAnswer({ kind: "transaction", created: false, body: transaction }, ERRORS, "req_1").status).toBe(200);
  });

  it("a problem has its slug's status and the problem object, invalid_params naming the field, citing the job's request id", () => {
    const answer = orderAnswer({ kind: "problem", slug: "invalid-sale", detail: "The sale is not valid: currency must be USD.", invalidParams: [{ name: "currency", reason: "must be USD" }] }, ERRORS, "req_9");
    expect(answer).toEqual({
      status: 422,
      body: { type: `${ERRORS}/invalid-sale`, title: "Invalid Sale", status: 422, detail: "The sale is not valid: currency must be USD.", invalid_params: [{ name: "currency", reason: "must be USD" }], request_id: "req_9" },
    });
    expect(orderAnswer({ kind: "problem", slug: "transaction-conflict", detail: "Order o-1 is already recorded." }, ERRORS, "req_9").status).toBe(409);
  });

  it("the CSV line of a recorded sale carries its amounts, county and transaction; a failed one its problem and the fields it names", () => {
    const rows: OrderRowResult[] = [
      { row: 1, id: "o-1", result: { kind: "transaction", created: true, body: transaction } },
      { row: 2, id: "=cmd", result: { kind: "problem", slug: "invalid-sale", detail: 'lines.0.unit_price must be like "19.99"', invalidParams: [{ name: "lines.0.unit_price", reason: "x" }, { name: "currency", reason: "y" }] } },
    ];
    const records = parse(ORDER_RESULT_HEADER + rows.map((row) => orderCsvLine(row, ERRORS, "req_1")).join(""), { columns: true });
    expect(records[0]).toMatchObject({ row: "1", order_id: "o-1", status: "201", county: "Adams", fips: "39001", tax: "7.25", state_tax: "5.75", transaction_id: "txn_1", recorded: "true", rounding_basis: "invoice" });
    // A spreadsheet would run a cell starting with "=": the order id is written as text.
    expect(records[1]).toMatchObject({ order_id: "'=cmd", status: "422", problem_detail: 'lines.0.unit_price must be like "19.99"', problem_fields: "lines.0.unit_price currency" });
  });

  it("an NDJSON line is {row, id, status, body}", () => {
    expect(JSON.parse(orderNdjsonLine({ row: 3, id: "o-1", result: { kind: "transaction", created: false, body: transaction } }, ERRORS, "req_1"))).toEqual({ row: 3, id: "o-1", status: 200, body: { transaction } });
  });
});
