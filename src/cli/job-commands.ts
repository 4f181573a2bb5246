/**
 * `buckeye jobs list`, `buckeye jobs run NAME [--at ISO]` and `buckeye reconcile [--source] [--sha256] [--force]`:
 * run a scheduled job once against the configured database, outside the server. Events it
 * publishes wait in the outbox; a running server's delivery actor sends them on its next poll.
 */
import type { Command } from "commander";
import type { Clock } from "../clock.ts";
import { loadConfig, type Config } from "../config.ts";
import { RATE_FILE_DOWNLOAD } from "../freshness/rate-file-download.ts";
import { backgroundOptionsFrom, createBackground, JOB_NAMES, type Background, type JobName } from "../scheduled/background.ts";
import { withRuntime } from "../runtime.ts";
import { secretBoxFrom } from "../webhooks/secret-box.ts";
import { CliError, jsonOption, print } from "./output.ts";

/** The scheduled jobs over the runtime, on its clock, built but never started: a command runs one job itself. */
function withBackground<T>(config: Config, work: (background: Background, clock: Clock) => Promise<T>, forceReconcile = false): Promise<T> {
  return withRuntime(config, async (runtime) => {
    const { rates } = await runtime.rateSource();
    return work(createBackground({ ...backgroundOptionsFrom(config, runtime.store, rates, secretBoxFrom(config)), forceReconcile, clock: runtime.clock }), runtime.clock);
  });
}

/** --at, or undefined: the command runs as of its clock's now. */
function parseAt(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) throw new CliError(`--at must be an ISO 8601 instant, e.g. 2027-01-01T00:05:00-05:00; got "${text}"`);
  return at;
}

async function runJob(name: string, opts: { at?: string; json?: boolean; force?: boolean }, config: Config = loadConfig()): Promise<void> {
  if (!(JOB_NAMES as readonly string[]).includes(name)) {
    print(Boolean(opts.json), { error: `no job named ${name}`, jobs: JOB_NAMES }, `no job named ${name}; jobs: ${JOB_NAMES.join(", ")}`, true);
    return;
  }
  const asked = parseAt(opts.at);
  const { at, result } = await withBackground(
    config,
    async (background, clock) => {
      const at = asked ?? clock.now();
      return { at, result: await background.scheduler.run(name as JobName, at) };
    },
    opts.force === true,
  );
  const status = typeof result === "object" && result !== null && "status" in result ? result.status : undefined;
  // A reconciliation that read no file reconciled nothing: a script must not take it for a success.
  const failed = status === "failed" || (name === "reconcile" && status === "skipped");
  print(Boolean(opts.json), { job: name, at: at.toISOString(), result }, `${name} at ${at.toISOString()}: ${JSON.stringify(result)}`, failed);
}

export function addJobCommands(program: Command): void {
  const jobs = program.command("jobs").description("scheduled jobs: reconcile, rate-changes, filing-reminders, certificate-expiry, boundary-import, retention");

  jobs
    .command("list")
    .description("each job's schedule (America/New_York) and next run")
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const runs = await withBackground(loadConfig(), async (background) => background.scheduler.nextRuns());
      const listed = JOB_NAMES.map((job) => {
        const run = runs.find((r) => r.job === job);
        return { job, schedule: run?.pattern ?? "off", next_run: run?.next?.toISOString() ?? null };
      });
      print(Boolean(opts.json), listed, listed.map((j) => `${j.job.padEnd(19)} ${j.schedule.padEnd(14)} next ${j.next_run ?? "-"}`).join("\n"), false);
    });

  jobs
    .command("run <name>")
    .description("run one job now (or as of --at)")
    .option("--at <instant>", "run as of this ISO 8601 instant instead of now")
    .addOption(jsonOption())
    .action((name: string, opts: { at?: string; json?: boolean }) => runJob(name, opts));

  program
    .command("reconcile")
    .description("reconcile our rates with the state's SST rate file (RECONCILE_SOURCE, or --source)")
    .option("--source <pathOrUrl>", "the rate file to read instead of RECONCILE_SOURCE")
    .option("--sha256 <hex>", "the SHA-256 the file must have, instead of RECONCILE_SHA256 (needed for a plain http:// source)")
    .option("--force", "also record rate changes the state did not announce (not on a quarter's first day, or for a quarter a file already reconciled settled), once you have checked them; the scheduled job never forces")
    .option("--at <instant>", "run as of this ISO 8601 instant instead of now")
    .addOption(jsonOption())
    .action((opts: { source?: string; sha256?: string; force?: boolean; at?: string; json?: boolean }) => {
      const config = loadConfig({ ...process.env, ...(opts.source && { RECONCILE_SOURCE: opts.source }), ...(opts.sha256 && { RECONCILE_SHA256: opts.sha256 }) });
      if (!config.jobs.reconcileSource) throw new CliError(`no rate file to reconcile with (neither --source nor RECONCILE_SOURCE): ${RATE_FILE_DOWNLOAD}`);
      return runJob("reconcile", opts, config);
    });
}
