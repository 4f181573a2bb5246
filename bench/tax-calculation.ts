/**
 * The tax on a sale against a rate by county, in the same run (`node --import tsx bench/tax-calculation.ts`;
 * `npm run bench` runs it): the compiled server of `npm start` on SQLite, loaded with autocannon on loopback,
 * first `GET /api/v1/rates?county=adams`, then `POST /api/v1/tax` for a sale of three lines and shipping to the
 * same county, in alternating rounds (BENCH_TAX_ROUNDS, 3) so load from elsewhere on the machine falls on
 * both. Reports each one's req/s and p99 (the median of the rounds) and their ratio, the target being at
 * least 0.8. Each round also loads the bare h3 route (bench/bare-server.ts) by GET and by a POST of the
 * same sale answered with the tax answer's own bytes: the bare POST's ratio to the bare GET is the most a
 * POST of this size can keep of a GET on this machine before it does any work of its own. And, because a shared machine's throughput says as much about its other load as about the
 * server, the server process's CPU time per answered request (utime + stime from /proc) and the ratio of
 * those, which other processes' load changes far less. Writes bench/results-tax.json.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { benchDatabase, root, startBareRoute, startCompiledServer, waitUntilReady } from "./start-process.ts";
import { median } from "./median.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_TAX_ROUNDS ?? 3);
const TARGET_RATIO = 0.8;

const SALE = JSON.stringify({
  date: "2026-06-01",
  ship_to: { county: "Adams" },
  lines: [
    { id: "sku-1", quantity: 2, unit_price: "19.99" },
    { id: "sku-2", amount: "5.49", discount: "0.50" },
    { id: "milk", amount: "3.29", category: "food-for-home-consumption" },
  ],
  shipping: "4.95",
});


interface Figures {
  requests_per_second: number;
  p99_ms: number;
  non_2xx: number;
  cpu_us_per_request: number;
}

/** The process's CPU time so far, user and system, in microseconds (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMicroseconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function load(pid: number, options: autocannon.Options): Promise<Figures> {
  await autocannon({ ...options, connections: CONNECTIONS, duration: 2 });
  const before = cpuMicroseconds(pid);
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
  const cpu = cpuMicroseconds(pid) - before;
  return { requests_per_second: Math.round(result.requests.average), p99_ms: result.latency.p99, non_2xx: result.non2xx, cpu_us_per_request: Math.round(cpu / Math.max(1, result.requests.total)) };
}

const database = await benchDatabase("buckeye-bench-tax-");
await database.store.close();
const server = await startCompiledServer(database.databaseUrl);
let bare: Awaited<ReturnType<typeof startBareRoute>> | undefined;
try {
  await waitUntilReady(server.url);
  const headers = { authorization: `Bearer ${database.key}` };
  const check = await fetch(`${server.url}/api/v1/tax`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: SALE });
  const answer = (await check.json()) as { totals?: { tax: string } };
  if (check.status !== 200 || answer.totals === undefined) throw new Error(`POST /api/v1/tax answered ${check.status}: ${JSON.stringify(answer)}`);
  console.log(`the sale's tax: ${answer.totals.tax}`);
  bare = await startBareRoute(JSON.stringify(answer));
  const json = { "content-type": "application/json" };

  const rates: Figures[] = [];
  const taxes: Figures[] = [];
  const bareGets: Figures[] = [];
  const barePosts: Figures[] = [];
  const each = (figures: Figures) => `${figures.requests_per_second} req/s (${figures.cpu_us_per_request} µs CPU each)`;
  for (let r = 0; r < ROUNDS; r++) {
    rates.push(await load(server.child.pid!, { url: `${server.url}/api/v1/rates?county=adams`, headers }));
    taxes.push(await load(server.child.pid!, { url: `${server.url}/api/v1/tax`, method: "POST", headers: { ...headers, ...json }, body: SALE }));
    bareGets.push(await load(bare.child.pid!, { url: `${bare.url}/bare` }));
    barePosts.push(await load(bare.child.pid!, { url: `${bare.url}/bare`, method: "POST", headers: json, body: SALE }));
    console.log(`round ${r + 1}: rates by county ${each(rates.at(-1)!)}, tax on a sale ${each(taxes.at(-1)!)}; bare GET ${each(bareGets.at(-1)!)}, bare POST ${each(barePosts.at(-1)!)}`);
  }
  const summary = (figures: Figures[]) => ({
    requests_per_second: median(figures.map((f) => f.requests_per_second)),
    p99_ms: median(figures.map((f) => f.p99_ms)),
    non_2xx: figures.reduce((sum, f) => sum + f.non_2xx, 0),
    cpu_us_per_request: median(figures.map((f) => f.cpu_us_per_request)),
  });
  const county = summary(rates);
  const tax = summary(taxes);
  const ratio = Number((tax.requests_per_second / county.requests_per_second).toFixed(3));
  const cpuRatio = Number((county.cpu_us_per_request / tax.cpu_us_per_request).toFixed(3));
  const bareGet = summary(bareGets);
  const barePost = summary(barePosts);
  const bareRatio = Number((barePost.requests_per_second / bareGet.requests_per_second).toFixed(3));
  const output = {
    measured_at: new Date().toISOString(),
    machine: { cores: availableParallelism(), load_average_1m: Number(loadavg()[0]!.toFixed(2)), node: process.version },
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    rates_by_county: county,
    tax_on_a_sale: tax,
    ratio_tax_to_rates_by_county: ratio,
    ratio_by_server_cpu_per_request: cpuRatio,
    bare_get: bareGet,
    bare_post_of_the_sale: barePost,
    ratio_bare_post_to_bare_get: bareRatio,
    ratio_rates_by_county_to_bare_get: Number((county.requests_per_second / bareGet.requests_per_second).toFixed(3)),
    ratio_tax_to_bare_post: Number((tax.requests_per_second / barePost.requests_per_second).toFixed(3)),
    targets: [{ scenario: "tax on a sale", target: `at least ${TARGET_RATIO} of rates by county's req/s`, measured: `${ratio}`, pass: ratio >= TARGET_RATIO }],
  };
  console.log(
    `rates by county ${county.requests_per_second} req/s (p99 ${county.p99_ms} ms, ${county.cpu_us_per_request} µs CPU each); ` +
      `tax on a sale ${tax.requests_per_second} req/s (p99 ${tax.p99_ms} ms, ${tax.cpu_us_per_request} µs CPU each); ratio ${ratio}, by CPU ${cpuRatio}; ` +
      `bare POST of the sale ${barePost.requests_per_second} req/s (${barePost.cpu_us_per_request} µs CPU each), ${bareRatio} of the bare GET's`,
  );
  writeFileSync(join(root, "bench/results-tax.json"), `${JSON.stringify(output, null, 2)}\n`);
} finally {
  server.child.kill();
  bare?.child.kill();
  rmSync(database.dir, { recursive: true, force: true });
}
