/**
 * A batch of orders, calculated and then recorded (`node --import tsx bench/tax-batches.ts`): the time
 * from upload to the last result of a SYNTHETIC NDJSON file of BENCH_ORDERS (10,000) sales, each of two
 * lines with a discount and shipping, sourced to the county, ZIP or lat/lon of one of Ohio's 88
 * counties in turn (no address: the Census geocoder is not what is measured). On SQLite, or on
 * PostgreSQL when BENCH_DATABASE_URL names one (a fresh schema, dropped at the end). The service runs in
 * this process with its real worker threads (BATCH_THREADS as the machine's default). Three runs: calculated only;
 * recorded (record=true, into the test ledger); the same file recorded again (every sale already
 * recorded, so nothing is written twice). Writes bench/results-tax-batches.json with the load average.
 */
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { loadConfig } from "../src/config.ts";
import { createService } from "../src/service.ts";
import { benchDatabase, root } from "./start-process.ts";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const named = process.env.BENCH_DATABASE_URL;

const COUNTIES = ["Adams", "Allen", "Ashland", "Franklin", "Hamilton", "Cuyahoga", "Stark", "Lucas", "Summit", "Montgomery"];

/** Sale `i`, SYNTHETIC: the places and prices vary with i so no two sales are the same body. */
function sale(i: number): Record<string, unknown> {
  const place = i % 3 === 0 ? { county: COUNTIES[i % COUNTIES.length] } : i % 3 === 1 ? { zip: "43215" } : { lat: 39.9612, lon: -82.9988 };
  const cents = 100 + ((i * 7919) % 50_000);
  const dollars = (n: number) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, "0")}`;
  return {
    order_id: `bench-${i}`,
    date: "2026-06-01",
    ship_to: place,
    lines: [
      { id: "a", quantity: 1 + (i % 4), unit_price: dollars(cents), discount: dollars(i % 100) },
      { id: "b", amount: dollars(cents * 2 + 1), ...(i % 5 === 0 && { category: "food-for-home-consumption" }) },
    ],
    shipping: dollars(i % 1_000),
  };
}

/** Uploads `body`, waits for the job to complete, and reads its results: upload to last result. */
async function runJob(service: Awaited<ReturnType<typeof createService>>, key: string, body: string, query: string): Promise<{ view: { status: string; failed: number }; results: string }> {
  const headers = { authorization: `Bearer ${key}` };
  const res = await service.app.fetch(new Request(`http://bench.local/api/v1/tax/batches${query}`, { method: "POST", body, headers: { ...headers, "content-type": "application/x-ndjson" } }));
  const job = (await res.json()) as { links: { self: string } };
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${JSON.stringify(job)}`);
  let view: { status: string; failed: number };
  do {
    await new Promise((resolve) => setTimeout(resolve, 50));
    view = (await (await service.app.fetch(new Request(`http://bench.local${job.links.self}`, { headers }))).json()) as typeof view;
  } while (view.status !== "completed");
  const results = await (await service.app.fetch(new Request(`http://bench.local${job.links.self}/results?format=ndjson`, { headers }))).text();
  return { view, results };
}

async function main(): Promise<void> {
  const database = await benchDatabase("buckeye-bench-tax-batches-", named?.startsWith("postgres") ? named : undefined);
  const config = loadConfig({ DATABASE_URL: database.databaseUrl, LOG_LEVEL: "silent", PORT: "0", RATE_LIMIT_PER_SECOND: "100000", CENSUS_GEOCODER_URL: "http://127.0.0.1:2" });
  const service = await createService(config);
  service.context.lookups.runner.start();
  const body = `${Array.from({ length: ORDERS }, (_, i) => JSON.stringify(sale(i))).join("\n")}\n`;
  const runs: Array<{ run: string; seconds: number; orders_per_second: number; failed: number; statuses: Record<string, number> }> = [];
  const load: number[][] = [];
  try {
    // A first small job starts the batch lane's threads and loads the polygons the lat/lon sales need: not what is measured.
    await runJob(service, database.key, `${Array.from({ length: 50 }, (_, i) => JSON.stringify(sale(i))).join("\n")}\n`, "");
    for (const [run, query] of [["calculated", ""], ["recorded", "?record=true"], ["recorded again (nothing new)", "?record=true"]] as const) {
      // The ledger's statistics, as a store in use has them (autovacuum). Without them PostgreSQL looked each order_id up
      // through tax_transactions_return, filtering the organization's whole ledger: 56 ms a lookup at 10,000 rows, measured.
      await sql`ANALYZE tax_transactions`.execute(database.store.db);
      const started = performance.now();
      const { view, results } = await runJob(service, database.key, body, query);
      const seconds = (performance.now() - started) / 1000;
      load.push(loadavg());
      const statuses: Record<string, number> = {};
      for (const line of results.trim().split("\n")) {
        const status = String((JSON.parse(line) as { status: number }).status);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
      runs.push({ run, seconds: Math.round(seconds * 100) / 100, orders_per_second: Math.round(ORDERS / seconds), failed: view.failed, statuses });
      console.log(`${run}: ${ORDERS} orders in ${seconds.toFixed(2)} s (${Math.round(ORDERS / seconds)}/s), statuses ${JSON.stringify(statuses)}, load ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
    }
  } finally {
    await service.close();
    await database.store.close();
    await database.drop();
  }
  const output = {
    label: "SYNTHETIC orders (bench/tax-batches.ts), in-process service, real batch-lane threads",
    store: named?.startsWith("postgres") ? "postgres" : "sqlite",
    orders: ORDERS,
    cores: availableParallelism(),
    runs,
    load_average_after_each_run: load,
  };
  writeFileSync(join(root, "bench", `results-tax-batches-${output.store}.json`), `${JSON.stringify(output, null, 2)}\n`);
}

await main();
