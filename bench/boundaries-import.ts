/**
 * Importing a SYNTHETIC 2,000,000-record boundary file (src/boundaries/synthetic-file.ts, from
 * data/) with the real CLI, `buckeye boundaries import FILE --json`, in its own process: the import's
 * time and where it went (the result's phases), the process's peak RSS (VmHWM, sampled from /proc),
 * and how much the database grew. Then the next quarter's file over that active version (the change
 * report against it, the switch, the first version kept for rollback), measured the same way. Run
 * on its own:
 *
 *   node --import tsx bench/boundaries-import.ts
 *
 * BENCH_BOUNDARY_RECORDS (default 2000000); BENCH_DATABASE_URL picks the database (default a fresh
 * SQLite file, the embedded default). Figures go to bench/results-boundaries.json.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import type { ImportResult } from "../src/boundaries/import-file.ts";
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

interface ImportRun {
  records: number;
  status: string;
  import_seconds: number;
  process_wall_seconds: number;
  phases: Record<string, number>;
  peak_rss_mb: number;
  database_growth_mb: number;
  /** Ranges the change report compared and found changed; null for a first import. */
  ranges_compared: number | null;
  ranges_changed: number | null;
}

/** One `buckeye boundaries import FILE --synthetic --json` in its own process, its peak RSS sampled from /proc. */
async function importFile(path: string): Promise<ImportRun> {
  const before = await databaseBytes();
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, "bin/buckeye.js"), "boundaries", "import", path, "--synthetic", "--json"], {
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
  const result = JSON.parse(stdout) as ImportResult;
  if (code !== 0 || result.status !== "imported") throw new Error(`the import of ${path} exited with ${code}: ${stdout}`);
  return {
    records: result.records,
    status: result.status,
    import_seconds: result.seconds,
    process_wall_seconds: Number(wallSeconds.toFixed(1)),
    phases: { ...result.phases },
    peak_rss_mb: Number((peakKb / 1024).toFixed(1)),
    database_growth_mb: Number((((await databaseBytes()) - before) / 1e6).toFixed(1)),
    ranges_compared: result.changes?.ranges_compared ?? null,
    ranges_changed: result.changes?.ranges_changed ?? null,
  };
}

try {
  const store = openStore(databaseUrl);
  await migrateToLatest(store.db);
  await store.close();

  const generating = performance.now();
  const file = await writeSyntheticBoundaryFile(join(dir, "OHB2026Q4SEP17-synthetic.csv"), { dataDir: join(root, "data"), records: RECORDS });
  const generateSeconds = (performance.now() - generating) / 1000;
  console.log(`generated ${file.records} synthetic records (${(file.bytes / 1e6).toFixed(0)} MB) in ${generateSeconds.toFixed(1)} s`);

  const first = await importFile(file.path);
  // The next quarter's file over the active 2,000,000-record version: the same records under the next
  // version's name (a real quarter moves a few thousand ranges), so the change report compares every
  // range, and the first version is kept for rollback.
  const next = join(dir, "OHB2027Q1DEC17-synthetic.csv");
  symlinkSync(file.path, next);
  const second = await importFile(next);

  const figures = {
    measured_at: new Date().toISOString(),
    machine: { cores: cpus().length, node: process.version, load_average_1m: Number(loadavg()[0]!.toFixed(2)) },
    database: databaseUrl.startsWith("sqlite:") ? "sqlite" : "postgres",
    records: first.records,
    status: first.status,
    file_mb: Number((file.bytes / 1e6).toFixed(1)),
    generate_seconds: Number(generateSeconds.toFixed(1)),
    import_seconds: first.import_seconds,
    process_wall_seconds: first.process_wall_seconds,
    records_per_second: Math.round(first.records / first.import_seconds),
    peak_rss_mb: first.peak_rss_mb,
    database_growth_mb: first.database_growth_mb,
    phases: first.phases,
    second_quarter: second,
  };
  for (const [name, run] of [["first import", first], ["second quarter over it", second]] as const) {
    console.log(
      `${name}: ${run.records} records in ${run.import_seconds} s (process ${run.process_wall_seconds} s; ${Object.entries(run.phases).map(([p, s]) => `${p} ${s} s`).join(", ")}), ` +
        `peak RSS ${run.peak_rss_mb} MB, database +${run.database_growth_mb} MB`,
    );
  }
  writeFileSync(join(root, "bench/results-boundaries.json"), `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
