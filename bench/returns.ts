/**
 * A return over 1,000,000 recorded transactions, on SQLite and on PostgreSQL, in the same run
 * (`node --import tsx bench/returns.ts`; `npm run bench` runs it). PostgreSQL is BENCH_DATABASE_URL when
 * it names one, else BENCH_POSTGRES_URL, else postgres://postgres@127.0.0.1:5432/test (a fresh schema,
 * dropped at the end). Writes bench/results-returns.json; the target is a return in under 5 s on each.
 *
 * Each store gets the same SYNTHETIC ledger, written by the database itself (a recursive CTE on SQLite,
 * generate_series on PostgreSQL) so the fill takes seconds: BENCH_RETURN_ROWS (1,000,000) rows of one
 * organization's test ledger dated in November 2026 across all 88 counties, one in twenty a refund, a
 * third of the split counties' rows in their transit district; and 200,000 more in October, which the
 * return must pass over. Then ANALYZE, as a store in use has its statistics. The timed step is the
 * return service's worksheet (src/returns/return-service.ts: the ledger's sums by county, then the pure
 * worksheet), what GET /api/v1/returns/2026-11 answers, in BENCH_RETURN_ROUNDS (3) rounds alternating
 * the stores, so load from elsewhere on the machine falls on both.
 */
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { loadShippedData } from "../src/load-data.ts";
import { createReturnService } from "../src/returns/return-service.ts";
import { BENCH_POSTGRES_URL, benchDatabase, root } from "./start-process.ts";
import { median } from "./median.ts";

const ROWS = Number(process.env.BENCH_RETURN_ROWS ?? 1_000_000);
const OTHER_MONTH_ROWS = 200_000;
const ROUNDS = Number(process.env.BENCH_RETURN_ROUNDS ?? 3);
const TARGET_SECONDS = 5;

const named = process.env.BENCH_DATABASE_URL;
const postgresUrl = named?.startsWith("postgres") ? named : BENCH_POSTGRES_URL;
const round = (n: number) => Math.round(n * 1000) / 1000;

/** The row for number `i` (0-based) as SQL expressions over `i`: the same ledger on both stores. */
function rowSelect(dialect: "sqlite" | "postgres", organizationId: string, month: string, offset: number) {
  const pad = (expression: string, width: number) => (dialect === "sqlite" ? `printf('%0${width}d', ${expression})` : `lpad((${expression})::text, ${width}, '0')`);
  const i = `(i + ${offset})`;
  const sign = `(CASE WHEN ${i} % 20 = 0 THEN -1 ELSE 1 END)`;
  const fips = `'39' || ${pad(`1 + 2 * (${i} % 88)`, 3)}`;
  const gross = `(1000 + (${i} * 7919) % 500000)`;
  const exempt = `(CASE WHEN ${i} % 10 = 3 THEN ${gross} ELSE 0 END)`;
  const taxable = `(${gross} - ${exempt})`;
  const split = `(${i} % 88) IN (20, 22, 44, 79, 86)`;
  return `SELECT 'txn_bench_' || ${i}, '${organizationId}', 'test', CASE WHEN ${i} % 20 = 0 THEN 'refund' ELSE 'sale' END, 'ref-' || ${i}, NULL,
    '${month}-' || ${pad(`1 + ${i} % 30`, 2)}, ${fips}, CASE WHEN ${split} AND ${i} % 3 = 0 THEN 'district' END,
    ${sign} * ${gross}, ${sign} * ${exempt}, ${sign} * ${taxable},
    ${sign} * (${taxable} * 575 / 10000 + ${taxable} * 125 / 10000 + ${taxable} * 50 / 10000),
    ${sign} * (${taxable} * 575 / 10000), ${sign} * (${taxable} * 125 / 10000), ${sign} * (${taxable} * 50 / 10000),
    'synthetic', '{"synthetic":true}', '2026-12-01T00:00:00.000Z'`;
}

const COLUMNS = `(id, organization_id, env, kind, reference, sale_id, transaction_date, county_fips, transit_district,
  gross_cents, exempt_cents, taxable_cents, tax_cents, state_tax_cents, county_tax_cents, transit_tax_cents, request_hash, calculation, created_at)`;

function fillStatement(dialect: "sqlite" | "postgres", organizationId: string, rows: number, month: string, offset: number): string {
  if (dialect === "postgres") return `INSERT INTO tax_transactions ${COLUMNS} ${rowSelect(dialect, organizationId, month, offset)} FROM generate_series(0::bigint, ${rows - 1}) AS i`;
  return `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows - 1}) INSERT INTO tax_transactions ${COLUMNS} ${rowSelect(dialect, organizationId, month, offset)} FROM n`;
}

const data = loadShippedData(join(root, "data"));
const stores = [
  { name: "SQLite", dialect: "sqlite" as const, database: await benchDatabase("buckeye-bench-returns-") },
  { name: "PostgreSQL", dialect: "postgres" as const, database: await benchDatabase("buckeye-bench-returns-", postgresUrl) },
];
try {
  const fills: Record<string, number> = {};
  const services = [];
  for (const { name, dialect, database } of stores) {
    const { db } = database.store;
    const { id: organizationId } = await db.selectFrom("organizations").select("id").executeTakeFirstOrThrow();
    const started = performance.now();
    await sql.raw(fillStatement(dialect, organizationId, ROWS, "2026-11", 0)).execute(db);
    await sql.raw(fillStatement(dialect, organizationId, OTHER_MONTH_ROWS, "2026-10", ROWS)).execute(db);
    await sql.raw("ANALYZE tax_transactions").execute(db);
    fills[name] = round((performance.now() - started) / 1000);
    console.log(`${name}: ${ROWS + OTHER_MONTH_ROWS} rows written and analyzed in ${fills[name]} s`);
    const service = createReturnService({ db, now: () => new Date("2026-12-02T15:00:00Z"), rates: () => data.table });
    services.push({ name, organizationId, service });
  }

  const seconds: number[][] = services.map(() => []);
  const answers: Array<{ records: number; tax: string; lines: number }> = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const [index, { name, organizationId, service }] of services.entries()) {
      const started = performance.now();
      const worksheet = await service.worksheet(organizationId, "test", "2026-11");
      seconds[index]!.push(round((performance.now() - started) / 1000));
      const records = worksheet.counties.reduce((n, line) => n + line.records, 0);
      if (records !== ROWS) throw new Error(`${name}'s return counted ${records} records of ${ROWS}`);
      answers[index] = { records, tax: worksheet.lines.find((line) => line.line === 6)!.amount, lines: worksheet.counties.length };
      console.log(`round ${r + 1}: ${name} ${seconds[index]!.at(-1)} s`);
    }
  }
  if (answers[0]!.tax !== answers[1]!.tax) throw new Error(`the stores disagree: SQLite ${answers[0]!.tax}, PostgreSQL ${answers[1]!.tax}`);
  const [sqlite, postgres] = seconds.map(median) as [number, number];
  const results = {
    measured_at: new Date().toISOString(),
    machine: { cores: availableParallelism(), node: process.version, load_average_1m: round(loadavg()[0]!), note: "a shared machine: other work ran beside this bench" },
    rows_in_period: ROWS,
    rows_outside_period: OTHER_MONTH_ROWS,
    county_lines: answers[0]!.lines,
    line_6_tax_liability: answers[0]!.tax,
    fill_seconds: fills,
    sqlite_seconds: seconds[0],
    postgresql_seconds: seconds[1],
    sqlite_median_seconds: sqlite,
    postgresql_median_seconds: postgres,
    targets: [
      { scenario: "return_sqlite", target: `a return over ${ROWS.toLocaleString("en-US")} transactions on SQLite under ${TARGET_SECONDS} s`, measured: `${sqlite} s`, pass: sqlite < TARGET_SECONDS },
      { scenario: "return_postgresql", target: `a return over ${ROWS.toLocaleString("en-US")} transactions on PostgreSQL under ${TARGET_SECONDS} s`, measured: `${postgres} s`, pass: postgres < TARGET_SECONDS },
    ],
  };
  console.log(`return over ${ROWS} transactions: SQLite ${sqlite} s, PostgreSQL ${postgres} s (medians of ${ROUNDS})`);
  writeFileSync(join(root, "bench/results-returns.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  for (const { database } of stores) {
    await database.store.close();
    await database.drop();
  }
}
