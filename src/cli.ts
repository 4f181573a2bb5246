/**
 * `buckeye`: the operator CLI. Every command prints a human summary, or one JSON document with
 * --json for scripts, except `serve`, `batch` and `data fetch-geo`, whose output is a log, a file and
 * the files written (docs/reference/cli.md). Only this entry point decides to exit the process.
 */
// First: on an unsupported Node it stops with a clear message before any dependency loads.
import "./require-supported-node.js";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { CliError } from "./cli/output.ts";

/**
 * Each command group's module, loaded only when its command is run (or for the full help): a command
 * then loads its own code and nothing else, and `--version` loads none, which is most of a command's
 * start-up time when it runs from the sources through tsx. In this order, the order `buckeye --help` lists them.
 */
const COMMAND_GROUPS: ReadonlyArray<{ names: readonly string[]; add: () => Promise<(program: Command) => void> }> = [
  { names: ["serve"], add: async () => addServeCommand },
  { names: ["migrate"], add: async () => (await import("./cli/migrate-command.ts")).addMigrateCommand },
  { names: ["rate"], add: async () => (await import("./cli/rate-command.ts")).addRateCommand },
  { names: ["org"], add: async () => (await import("./cli/account-commands.ts")).addOrgCommands },
  { names: ["key"], add: async () => (await import("./cli/account-commands.ts")).addKeyCommands },
  { names: ["user"], add: async () => (await import("./cli/account-commands.ts")).addUserCommands },
  { names: ["batch"], add: async () => addBatchWithColumns },
  { names: ["data"], add: async () => (await import("./cli/data-commands.ts")).addDataCommands },
  { names: ["jobs", "reconcile"], add: async () => (await import("./cli/job-commands.ts")).addJobCommands },
  { names: ["boundaries"], add: async () => (await import("./cli/boundary-commands.ts")).addBoundaryCommands },
];

// `serve` is here, not in src/cli/, because it starts the composition root (src/service.ts), a layer above the commands.
function addServeCommand(program: Command): void {
  program
    .command("serve")
    .description("migrate the database, then serve the API on HOST:PORT")
    .action(async () => {
      const [{ loadConfig }, { PortTakenError, startService }, { exitGracefullyOnSignals }, { jsonLogger }, { giveBackAfterBusySpells, giveBackMemory }] = await Promise.all([
        import("./config.ts"),
        import("./service.ts"),
        import("./graceful-shutdown.ts"),
        import("./log.ts"),
        import("./give-back-memory.ts"),
      ]);
      const config = loadConfig();
      const service = await startService(config).catch((error: unknown) => {
        throw error instanceof PortTakenError ? new CliError(error.message) : error;
      });
      process.stderr.write(`${JSON.stringify({ level: "info", msg: "listening", url: service.url, ...(service.metricsUrl && { metrics: service.metricsUrl }), database: config.databaseUrl.replace(/\/\/[^@]*@/, "//***@") })}\n`);
      const log = jsonLogger(config.logLevel);
      exitGracefullyOnSignals(service, { graceMs: config.shutdownGraceMs, log });
      // The process is the service's alone here (unlike a test's): what start-up took and no longer needs goes back to the system.
      void service.warmed.then(() => {
        const given = giveBackMemory();
        if (given) log({ level: "info", msg: "start-up memory given back", ...given });
        // And what each busy spell leaves behind, once the service has been quiet a while after it.
        giveBackAfterBusySpells((after) => log({ level: "info", msg: "memory given back after a busy spell", ...after }));
      });
    });
}

/** `buckeye batch`, and in its help which columns it reads: the reader's list is long and grows, so the help points at the guide. */
async function addBatchWithColumns(program: Command): Promise<void> {
  (await import("./cli/batch-command.ts")).addBatchCommand(program);
  program.commands
    .find((command) => command.name() === "batch")
    ?.addHelpText(
      "after",
      "\nColumns: id, date, and one of county, zip, lat with lon, or the address: address (a whole address in one cell), or its\n" +
        "parts in columns of their own (street or address line 1, line 2, city, state, zip or postal code) as shop exports\n" +
        "name them. Other columns are listed on stderr as ignored. Every header read: docs/guides/address-resolution.md.\n",
    );
}

/** The version in package.json, found by walking up from here: the same from src/ and from the compiled dist/src/. */
function version(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    if (dirname(dir) === dir) return "unknown";
  }
}

const program = new Command("buckeye").description("Buckeye, the Ohio sales tax rate service").showHelpAfterError();
program.version(version(), "-V, --version", "print the version");

// The command asked for is the first argument (or the one after `help`); anything else (no command, --help, a
// mistyped name, which commander answers with "did you mean") needs them all. --version needs none.
const args = process.argv.slice(2);
const asked = args[0] === "help" ? args[1] : args[0];
const wanted = asked === "-V" || asked === "--version" ? [] : COMMAND_GROUPS.filter((group) => asked !== undefined && group.names.includes(asked));
for (const group of wanted.length > 0 || asked === "-V" || asked === "--version" ? wanted : COMMAND_GROUPS) {
  // A group that registers two commands (jobs and reconcile) is added once.
  if (!group.names.some((name) => program.commands.some((command) => command.name() === name))) await (await group.add())(program);
}

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
  // Loaded on this path only: a command that threw one of these has its module loaded already.
  const [{ ConfigError }, { AccountError }, { KeyError }] = await Promise.all([import("./config.ts"), import("./accounts/accounts.ts"), import("./auth/key-service.ts")]);
  const file = fileProblem(error);
  const known = error instanceof CliError || error instanceof ConfigError || error instanceof KeyError || error instanceof AccountError || file !== undefined;
  // An account rule names the form field it is about, which is the option of the same name here.
  const message = error instanceof AccountError ? error.problems.map((p) => `--${p.field}: ${p.message}`).join("\n") : file ?? (known ? (error as Error).message : error instanceof Error ? error.stack : String(error));
  process.stderr.write(`buckeye: ${message}\n`);
  // A script that asked for JSON parses stdout whatever happened: a refusal is a JSON document there too.
  if (known && process.argv.includes("--json")) process.stdout.write(`${JSON.stringify({ error: message }, null, 2)}\n`);
  process.exit(known ? 1 : 2);
}
