/**
 * Importing a SYNTHETIC 2,000,000-record boundary file (src/boundaries/synthetic-file.ts, from
 * data/) with the real CLI, `buckeye boundaries import FILE --json`, in its own process: the import's
 * time, the process's peak RSS (VmHWM, sampled from /proc), and how much the database grew. Run
 * on its own:
 *
 *   node --import tsx bench/boundaries-import.ts
 *
 * BENCH_BOUNDARY_RECORDS (default 2000000); BENCH_DATABASE_URL picks the database (default a fresh
 * SQLite file, the embedded default). Figures go to bench/results-boundaries.json.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";

const RECORDS = Number(process.env.BENCH_BOUNDARY_RECORDS ?? 2_000_000);
const root = new URL("..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "buckeye-bench-boundaries-"));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${join(dir, "bench.sqlite")}`;

async function databaseBytes(): Promise<number> {
  if (databaseUrl.startsWith("sqlite:")) {
    const path = databaseUrl.slice("sqlite:".length);
    return [path, `${path}-wal`].filter((p) => existsSync(p)).reduce((sum, p) => sum + statSync(p).size, 0);
  }
  const store = openStore(databaseUrl);
  try {
    // The boundary tables alone (with their indexes and TOAST): the database is shared with other work.
    const { rows } = await sql<{ bytes: string }>`SELECT pg_total_relation_size('boundary_records') + pg_total_relation_size('boundary_versions') AS bytes`.execute(store.db);
    return Number(rows[0]!.bytes);
  } finally {
    await store.close();
  }
}

try {
  const store = openStore(databaseUrl);
  await migrateToLatest(store.db);
  await store.close();

  const generating = performance.now();
  const file = await writeSyntheticBoundaryFile(join(dir, "OHB2026Q4SEP17-synthetic.csv"), { dataDir: join(root, "data"), records: RECORDS });
  const generateSeconds = (performance.now() - generating) / 1000;
  console.log(`generated ${file.records} synthetic records (${(file.bytes / 1e6).toFixed(0)} MB) in ${generateSeconds.toFixed(1)} s`);

  const before = await databaseBytes();
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, "bin/buckeye.js"), "boundaries", "import", file.path, "--synthetic", "--json"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0));
    } catch {
      // The process has just exited.
    }
  }, 100);
  let stdout = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(sample);
  const wallSeconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`the import exited with ${code}: ${stdout}`);
  const result = JSON.parse(stdout) as { records: number; seconds: number; status: string };
  const growth = (await databaseBytes()) - before;

  const figures = {
    measured_at: new Date().toISOString(),
    machine: { cores: cpus().length, node: process.version, load_average_1m: Number((await import("node:os")).loadavg()[0]!.toFixed(2)) },
    database: databaseUrl.startsWith("sqlite:") ? "sqlite" : "postgres",
    records: result.records,
    status: result.status,
    file_mb: Number((file.bytes / 1e6).toFixed(1)),
    generate_seconds: Number(generateSeconds.toFixed(1)),
    import_seconds: result.seconds,
    process_wall_seconds: Number(wallSeconds.toFixed(1)),
    records_per_second: Math.round(result.records / result.seconds),
    peak_rss_mb: Number((peakKb / 1024).toFixed(1)),
    database_growth_mb: Number((growth / 1e6).toFixed(1)),
  };
  console.log(
    `imported ${figures.records} records in ${figures.import_seconds} s (${figures.records_per_second}/s; process ${figures.process_wall_seconds} s), ` +
      `peak RSS ${figures.peak_rss_mb} MB, database +${figures.database_growth_mb} MB`,
  );
  writeFileSync(join(root, "bench/results-boundaries.json"), `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
