/**
 * Reads an uploaded batch of orders (docs/guides/tax-and-returns.md, "Batches of orders") into one
 * row per sale, cut into chunks for the job table, as read-batch-file.ts does for lookups:
 *
 * - NDJSON: one sale per line, the body POST /api/v1/tax takes, with `order_id` (required when the
 *   sales are recorded, as POST /api/v1/transactions requires it; otherwise it names the result row).
 * - CSV with a header row: one row per line item; `order_id` groups the rows of one sale, which are
 *   contiguous. The order's own fields (ORDER_COLUMNS) may be repeated on each of its rows or given on
 *   its first; the line's (LINE_COLUMNS) are each row's.
 *
 * A file that cannot be read (not UTF-8, a CSV without order_id or with a column Buckeye does not read,
 * too many rows) is refused whole; a bad sale only fails its own row, when the job runs (order-tasks.ts),
 * except what only the file's layout can say (an order's rows apart, two values of one order field),
 * which this stores as that row's problem.
 */
import { parse } from "csv-parse/sync";
import type { InvalidParam } from "../web/problem.ts";
import { RowChunks, type BatchFileReading } from "./read-batch-file.ts";
import { ndjsonValues } from "./ndjson-values.ts";
import { firstNonUtf8Byte, notUtf8Detail } from "./utf8-check.ts";

/** A CSV's order columns and the field of the sale each fills (a dotted name is a field of an object). */
export const ORDER_COLUMNS = {
  order_id: "order_id",
  date: "date",
  currency: "currency",
  customer_id: "customer_id",
  ship_to_address: "ship_to.address",
  ship_to_zip: "ship_to.zip",
  ship_to_county: "ship_to.county",
  ship_to_lat: "ship_to.lat",
  ship_to_lon: "ship_to.lon",
  pickup_location_id: "pickup_location_id",
  order_location_id: "order_location_id",
  shipping: "shipping",
  handling: "handling",
} as const;

/** A CSV's line columns and the field of the line each fills. */
export const LINE_COLUMNS = {
  line_id: "id",
  quantity: "quantity",
  unit_price: "unit_price",
  amount: "amount",
  discount: "discount",
  exempt: "exempt",
  exempt_reason: "exempt_reason",
  category: "category",
} as const;

/** A problem only the file's layout can show, stored with the row so the job answers it as that sale's problem. */
export interface LayoutProblem {
  slug: "invalid-sale";
  detail: string;
  invalidParams: InvalidParam[];
}

/** One sale as stored in a chunk: its id (order_id, when it has one), and the sale as sent or the layout's problem with it. */
export interface OrderRow {
  id: string | null;
  sale: unknown;
  problem?: LayoutProblem;
}

/** Sales cut into chunks as they are read, as read-batch-file.ts cuts lookups (RowChunks). */
class OrderChunker extends RowChunks {
  add(row: OrderRow): void {
    if (this.counted()) this.push(JSON.stringify(row));
  }
}

const idOf = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/** Each sale with its order id, when it is an object that names one; a line that is not JSON fails as a sale that is not an object. */
function readNdjson(bytes: Uint8Array, rows: OrderChunker): void {
  for (const sale of ndjsonValues(bytes)) {
    const id = typeof sale === "object" && sale !== null && !Array.isArray(sale) ? idOf((sale as Record<string, unknown>)["order_id"]) : null;
    rows.add({ id, sale });
  }
}

/** A cell as the sale's field: a whole number of items and a true/false flag as JSON would send them; other text as it is (the sale's rules judge it). */
function cellValue(column: string, value: string): unknown {
  if (column === "quantity" && /^\d{1,9}$/.test(value)) return Number(value);
  if (column === "exempt" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  return value;
}

/** The sale an order's CSV rows make, with the first problem of layout they show (two values of one order field). */
class CsvOrder {
  readonly fields: Record<string, string> = {};
  readonly lines: Array<Record<string, unknown>> = [];
  problem: LayoutProblem | undefined;

  constructor(
    readonly id: string,
    readonly firstLine: number,
  ) {}

  addRow(cells: Record<string, string>, line: number): void {
    const item: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(cells)) {
      if (value === "") continue;
      if (column in LINE_COLUMNS) {
        item[LINE_COLUMNS[column as keyof typeof LINE_COLUMNS]] = cellValue(column, value);
        continue;
      }
      const field = ORDER_COLUMNS[column as keyof typeof ORDER_COLUMNS];
      const before = this.fields[field];
      if (before === undefined) this.fields[field] = value;
      else if (before !== value && this.problem === undefined) {
        const reason = `is "${before}" on the order's first row and "${value}" on line ${line}: an order's fields must agree on all its rows`;
        this.problem = { slug: "invalid-sale", detail: `The sale is not valid: ${field} ${reason}.`, invalidParams: [{ name: field, reason }] };
      }
    }
    // A row without line_id is the order's nth line.
    item["id"] ??= String(this.lines.length + 1);
    this.lines.push(item);
  }

  row(): OrderRow {
    const sale: Record<string, unknown> = { lines: this.lines };
    for (const [field, value] of Object.entries(this.fields)) {
      const [top, inner] = field.split(".") as [string, string | undefined];
      if (inner === undefined) sale[top] = value;
      else ((sale[top] ??= {}) as Record<string, unknown>)[inner] = value;
    }
    return { id: this.id, sale, ...(this.problem && { problem: this.problem }) };
  }
}

const KNOWN_COLUMNS = new Set([...Object.keys(ORDER_COLUMNS), ...Object.keys(LINE_COLUMNS)]);

/** Reads the CSV into `rows`, an order at a time; answers why the file cannot be read, or null. */
function readCsv(bytes: Uint8Array, rows: OrderChunker): string | null {
  let columns: string[] | null = null;
  let refusal: string | null = null;
  let order: CsvOrder | null = null;
  const seen = new Set<string>();
  let line = 1;
  const flush = () => {
    if (order !== null) rows.add(order.row());
  };
  try {
    parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      trim: true,
      on_record: (cells: string[], context: { lines: number }) => {
        line = context.lines;
        if (columns === null) {
          const header = cells.map((cell) => cell.toLowerCase());
          const unknown = header.filter((name) => !KNOWN_COLUMNS.has(name));
          if (unknown.length > 0) refusal = `The CSV's column ${unknown.map((name) => `"${name}"`).join(", ")} is not one an order is read from; the columns are ${[...KNOWN_COLUMNS].join(", ")}. Nothing was stored.`;
          else if (new Set(header).size !== header.length) refusal = "A CSV column is named twice in the header.";
          else if (!header.includes("order_id")) refusal = "The CSV has no order_id column: it groups the rows of each sale (docs/guides/tax-and-returns.md, \"Batches of orders\").";
          if (refusal !== null) throw new Error(refusal);
          columns = header;
          return null;
        }
        const named: Record<string, string> = {};
        columns.forEach((name, i) => (named[name] = cells[i] ?? ""));
        const id = named["order_id"]!;
        if (order === null || id !== order.id || id === "") {
          flush();
          order = new CsvOrder(id, line);
          if (id === "") {
            order.problem = { slug: "invalid-sale", detail: `The sale is not valid: order_id must not be empty (line ${line}).`, invalidParams: [{ name: "order_id", reason: "must not be empty" }] };
          } else if (seen.has(id)) {
            const reason = `appears again on line ${line}, after other orders: the rows of one order must be contiguous`;
            order.problem = { slug: "invalid-sale", detail: `The sale is not valid: order_id ${reason}.`, invalidParams: [{ name: "order_id", reason }] };
          }
          seen.add(id);
        }
        order.addRow(named, line);
        return null;
      },
    });
  } catch (error) {
    return refusal ?? `The CSV cannot be read: ${(error as Error).message}`;
  }
  if (columns === null) return "The CSV is empty; its first line must be a header naming the columns (order_id, line_id, unit_price or amount, ship_to_zip, …).";
  flush();
  return null;
}

/** Reads a file of orders as uploaded; one that is not UTF-8 is refused whole (utf8-check.ts). `maxRows`: sales at most. */
export function readOrdersFile(bytes: Uint8Array, format: "csv" | "ndjson", maxRows: number, chunkRows: number): BatchFileReading {
  const notUtf8 = firstNonUtf8Byte(bytes);
  if (notUtf8 !== -1) return { ok: false, slug: "bad-request", detail: notUtf8Detail(bytes, notUtf8, format === "csv") };
  const rows = new OrderChunker(chunkRows, maxRows);
  if (format === "ndjson") readNdjson(bytes, rows);
  else {
    const problem = readCsv(bytes, rows);
    if (problem !== null) return { ok: false, slug: "bad-request", detail: problem };
  }
  if (rows.total === 0) return { ok: false, slug: "bad-request", detail: "The batch has no orders." };
  if (rows.total > maxRows) return { ok: false, slug: "batch-too-large", detail: `The batch has ${rows.total} orders; a job takes at most ${maxRows}. Split the file.` };
  rows.finish();
  return { ok: true, total: rows.total, chunks: rows.chunks, ignoredColumns: [], readColumns: [] };
}
