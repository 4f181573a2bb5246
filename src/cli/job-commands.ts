/**
 * `buckeye jobs list`, `buckeye jobs run NAME [--at ISO]` and `buckeye reconcile [--source]`:
 * run a scheduled job once against the configured database, outside the server. Events it
 * publishes wait in the outbox; a running server's delivery actor sends them on its next poll.
 */
import { type Command, Option } from "commander";
import { loadConfig, type Config } from "../config.ts";
import { RateData } from "../currency/rate-data.ts";
import { loadShippedData } from "../load-data.ts";
import { openStore } from "../store/connect.ts";
import { migrateToLatest } from "../store/migrate.ts";
import { secretBoxFrom } from "../webhooks/secret-box.ts";
import { backgroundOptionsFrom, createBackground, JOB_NAMES, type Background, type JobName } from "../jobs/background.ts";

async function withBackground<T>(config: Config, work: (background: Background) => Promise<T>): Promise<T> {
  const store = openStore(config.databaseUrl);
  try {
    await migrateToLatest(store.db);
    const data = loadShippedData(config.dataDir);
    const rateData = new RateData({ db: store.db, shipped: data.table, shippedCurrency: data.meta });
    await rateData.refresh();
    const background = createBackground(backgroundOptionsFrom(config, store, rateData, secretBoxFrom(config)));
    return await work(background);
  } finally {
    await store.close();
  }
}

function report(json: boolean, value: unknown, text: string, failed: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
  if (failed) process.exitCode = 1;
}

function parseAt(text: string | undefined): Date {
  if (text === undefined) return new Date();
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new Error(`--at must be an ISO 8601 instant, e.g. 2027-01-01T00:05:00-05:00; got "${text}"`);
  return at;
}

async function runJob(name: string, opts: { at?: string; json?: boolean }, config: Config = loadConfig()): Promise<void> {
  if (!(JOB_NAMES as readonly string[]).includes(name)) {
    report(Boolean(opts.json), { error: `no job named ${name}`, jobs: JOB_NAMES }, `no job named ${name}; jobs: ${JOB_NAMES.join(", ")}`, true);
    return;
  }
  const at = parseAt(opts.at);
  const result = await withBackground(config, (background) => background.scheduler.run(name as JobName, at));
  const failed = typeof result === "object" && result !== null && "status" in result && result.status === "failed";
  report(Boolean(opts.json), { job: name, at: at.toISOString(), result }, `${name} at ${at.toISOString()}: ${JSON.stringify(result)}`, failed);
}

export function addJobCommands(program: Command): void {
  const json = () => new Option("--json", "print one JSON document");
  const jobs = program.command("jobs").description("scheduled jobs: reconcile, rate-changes, filing-reminders, certificate-expiry, boundary-import");

  jobs
    .command("list")
    .description("each job's schedule (America/New_York) and next run")
    .addOption(json())
    .action(async (opts: { json?: boolean }) => {
      const runs = await withBackground(loadConfig(), async (background) => background.scheduler.nextRuns());
      const listed = JOB_NAMES.map((job) => {
        const run = runs.find((r) => r.job === job);
        return { job, schedule: run?.pattern ?? "off", next_run: run?.next?.toISOString() ?? null };
      });
      report(Boolean(opts.json), listed, listed.map((j) => `${j.job.padEnd(19)} ${j.schedule.padEnd(14)} next ${j.next_run ?? "-"}`).join("\n"), false);
    });

  jobs
    .command("run <name>")
    .description("run one job now (or as of --at)")
    .option("--at <instant>", "run as of this ISO 8601 instant instead of now")
    .addOption(json())
    .action((name: string, opts: { at?: string; json?: boolean }) => runJob(name, opts));

  program
    .command("reconcile")
    .description("reconcile our rates with the state's SST rate file (RECONCILE_SOURCE, or --source)")
    .option("--source <pathOrUrl>", "the rate file to read instead of RECONCILE_SOURCE")
    .option("--at <instant>", "run as of this ISO 8601 instant instead of now")
    .addOption(json())
    .action((opts: { source?: string; at?: string; json?: boolean }) =>
      runJob("reconcile", opts, loadConfig(opts.source ? { ...process.env, RECONCILE_SOURCE: opts.source } : process.env)),
    );
}
