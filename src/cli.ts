/**
 * `buckeye`: the operator CLI. Every command prints a human summary, or one JSON document with
 * --json for scripts, except `serve`, `batch` and `data fetch-geo`, whose output is a log, a file and
 * the files written (docs/reference/cli.md). Only this entry point decides to exit the process.
 */
// First: on an unsupported Node it stops with a clear message before any dependency loads.
import "./require-supported-node.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { AccountError } from "./accounts/accounts.ts";
import { KeyError } from "./auth/key-service.ts";
import { addKeyCommands, addOrgCommands, addUserCommands } from "./cli/account-commands.ts";
import { addBatchCommand } from "./cli/batch-command.ts";
import { addBoundaryCommands } from "./cli/boundary-commands.ts";
import { addDataCommands } from "./cli/data-commands.ts";
import { addJobCommands } from "./cli/job-commands.ts";
import { addMigrateCommand } from "./cli/migrate-command.ts";
import { CliError } from "./cli/output.ts";
import { ConfigError, loadConfig, REPO_ROOT } from "./config.ts";
import { exitGracefullyOnSignals } from "./graceful-shutdown.ts";
import { jsonLogger } from "./log.ts";
import { PortTakenError, startService } from "./service.ts";

const program = new Command("buckeye").description("Buckeye, the Ohio sales tax rate service").showHelpAfterError();

// `serve` is here, not in src/cli/, because it starts the composition root (src/service.ts), a layer above the commands.
program
  .command("serve")
  .description("migrate the database, then serve the API on HOST:PORT")
  .action(async () => {
    const config = loadConfig();
    const service = await startService(config);
    process.stderr.write(`${JSON.stringify({ level: "info", msg: "listening", url: service.url, ...(service.metricsUrl && { metrics: service.metricsUrl }), database: config.databaseUrl.replace(/\/\/[^@]*@/, "//***@") })}\n`);
    exitGracefullyOnSignals(service, { graceMs: config.shutdownGraceMs, log: jsonLogger(config.logLevel) });
  });

// In this order, the order `buckeye --help` lists them.
addMigrateCommand(program);
addOrgCommands(program);
addKeyCommands(program);
addUserCommands(program);
addBatchCommand(program);
addDataCommands(program);
addJobCommands(program);
addBoundaryCommands(program);

/** A file named on the command line that cannot be read or written: the operator's to fix, so one line and a hint, not a stack. */
function fileProblem(error: unknown): string | undefined {
  const { code, path, syscall } = (error ?? {}) as { code?: unknown; path?: unknown; syscall?: unknown };
  if (typeof path !== "string") return undefined;
  const hints: Record<string, string> = {
    ENOENT: "no such file or folder; check the path (relative paths are read from the current folder)",
    EACCES: "permission denied; check the file's permissions",
    EISDIR: "it is a folder; give a file",
    ENOTDIR: "a part of the path is not a folder; check the path",
  };
  const hint = typeof code === "string" ? hints[code] : undefined;
  return hint && `cannot ${syscall === "open" || syscall === "read" ? "open" : String(syscall)} ${path}: ${hint}`;
}

program.version((JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version, "-V, --version", "print the version");
// Commander's help does not mark required options; every one says so here, in one place.
for (const command of [program, ...allCommands(program)]) {
  for (const option of command.options) if (option.mandatory && !option.description.endsWith("(required)")) option.description += " (required)";
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const file = fileProblem(error);
  const known = error instanceof CliError || error instanceof ConfigError || error instanceof KeyError || error instanceof AccountError || error instanceof PortTakenError || file !== undefined;
  // An account rule names the form field it is about, which is the option of the same name here.
  const message = error instanceof AccountError ? error.problems.map((p) => `--${p.field}: ${p.message}`).join("\n") : file ?? (known ? (error as Error).message : error instanceof Error ? error.stack : String(error));
  process.stderr.write(`buckeye: ${message}\n`);
  // A script that asked for JSON parses stdout whatever happened: a refusal is a JSON document there too.
  if (known && process.argv.includes("--json")) process.stdout.write(`${JSON.stringify({ error: message }, null, 2)}\n`);
  process.exit(known ? 1 : 2);
}
