/**
 * `buckeye`: the operator CLI. Every command prints a human summary, or one JSON document with
 * --json for scripts, except `serve`, `batch` and `data fetch-geo`, whose output is a log, a file and
 * the files written (docs/reference/cli.md). Only this entry point decides to exit the process.
 */
// First: on an unsupported Node it stops with a clear message before any dependency loads.
import "./require-supported-node.js";
import { Command, Option } from "commander";
import { createAccountService, type AccountService } from "./accounts/account-service.ts";
import { AccountError, normalizeEmail } from "./accounts/accounts.ts";
import { KeyError } from "./auth/key-service.ts";
import { addBatchCommands } from "./cli/batch-commands.ts";
import { addBoundaryCommands } from "./boundaries/cli-commands.ts";
import { loadConfig } from "./config.ts";
import { addDataStatusCommand } from "./currency/cli-commands.ts";
import { addJobCommands } from "./jobs/cli-commands.ts";
import { exitGracefullyOnSignals } from "./graceful-shutdown.ts";
import { jsonLogger } from "./log.ts";
import { startService } from "./service.ts";
import { openStore } from "./store/connect.ts";
import type { Db } from "./store/database.ts";
import { migrateToLatest } from "./store/migrate.ts";

class CliError extends Error {}

function print(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
}

/** Opens the configured database for one command, migrated first unless the command is the migration. */
async function withDb<T>(work: (db: Db) => Promise<T>, migrate = true): Promise<T> {
  const store = openStore(loadConfig().databaseUrl);
  try {
    if (migrate) await migrateToLatest(store.db);
    return await work(store.db);
  } finally {
    await store.close();
  }
}

/** The account service over the configured database, for one command (the same actions the dashboard calls). */
function withAccounts<T>(work: (accounts: AccountService) => Promise<T>): Promise<T> {
  return withDb((db) => work(createAccountService({ db, now: () => new Date(), keyChanged: announceKeyChange, activeKeysPerOrganization: loadConfig().activeKeysPerOrganization })));
}

/**
 * After a committed key revocation or organization status change: instances that learn the key
 * epoch from Redis (REDIS_URL) are told here; the others see the database's epoch move.
 */
async function announceKeyChange(): Promise<void> {
  const { redis } = loadConfig();
  if (!redis) return;
  const { announceKeyChangeOnce } = await import("./auth/redis-key-epoch.ts");
  try {
    await announceKeyChangeOnce(redis);
  } catch (error) {
    throw new CliError(
      `the change is committed, but Redis (REDIS_URL) could not be told: instances that cached this key's verdict keep it until Redis is told. Run the command again. (${(error as Error).message})`,
    );
  }
}

const program = new Command("buckeye").description("Buckeye, the Ohio sales tax rate service").showHelpAfterError();
const jsonOption = new Option("--json", "print one JSON document");

program
  .command("serve")
  .description("migrate the database, then serve the API on HOST:PORT")
  .action(async () => {
    const config = loadConfig();
    const service = await startService(config);
    process.stderr.write(`${JSON.stringify({ level: "info", msg: "listening", url: service.url, database: config.databaseUrl.replace(/\/\/[^@]*@/, "//***@") })}\n`);
    exitGracefullyOnSignals(service, { graceMs: config.shutdownGraceMs, log: jsonLogger(config.logLevel) });
  });

program
  .command("migrate")
  .description("bring the database schema to the latest migration")
  .addOption(jsonOption)
  .action(async (opts: { json?: boolean }) => {
    const result = await withDb((db) => migrateToLatest(db), false);
    const applied = (result.results ?? []).map((r) => r.migrationName);
    print(Boolean(opts.json), { applied }, applied.length ? `applied: ${applied.join(", ")}` : "schema is up to date");
  });

const org = program.command("org").description("organizations");

org
  .command("create")
  .requiredOption("--name <name>", "organization name")
  .option("--email <email>", "also create its owner, who signs in to the dashboard with this email")
  .option("--password <password>", "the owner's password, at least 12 characters and not a common one (with --email)")
  .addOption(jsonOption)
  .action(async (opts: { name: string; email?: string; password?: string; json?: boolean }) => {
    if ((opts.email === undefined) !== (opts.password === undefined)) throw new CliError("--email and --password go together");
    const row = await withAccounts(async (accounts) =>
      opts.email === undefined
        ? accounts.createOrganization(opts.name)
        : (await accounts.signUp({ organizationName: opts.name, email: opts.email, password: opts.password! })).organization,
    );
    const out = { id: row.id, name: row.name, status: row.status };
    const owner = opts.email === undefined ? "" : ` with owner ${normalizeEmail(opts.email)}`;
    print(Boolean(opts.json), out, `created organization ${row.id} (${row.name})${owner}`);
  });

org
  .command("list")
  .addOption(jsonOption)
  .action(async (opts: { json?: boolean }) => {
    const rows = await withAccounts((accounts) => accounts.listOrganizations());
    print(Boolean(opts.json), rows, rows.map((r) => `${r.id}  ${r.status.padEnd(9)}  ${r.name}`).join("\n") || "no organizations");
  });

for (const [verb, status] of [["suspend", "suspended"], ["activate", "active"]] as const) {
  org
    .command(`${verb} <id>`)
    .description(status === "suspended" ? "suspend: its keys are refused on their next request" : "reactivate a suspended organization")
    .addOption(jsonOption)
    .action(async (id: string, opts: { json?: boolean }) => {
      const row = await withAccounts((accounts) => accounts.setStatus(id, status));
      if (!row) throw new CliError(`no organization ${id}`);
      print(Boolean(opts.json), { id: row.id, name: row.name, status: row.status }, `${row.id} is now ${row.status}`);
    });
}

const key = program.command("key").description("API keys");

key
  .command("create")
  .requiredOption("--org <id>", "organization id")
  .requiredOption("--label <label>", "what the key is for, e.g. 'checkout service'")
  .addOption(new Option("--env <env>", "live or test").choices(["live", "test"]).default("live"))
  .addOption(jsonOption)
  .action(async (opts: { org: string; label: string; env: "live" | "test"; json?: boolean }) => {
    const created = await withAccounts((accounts) => accounts.createKey(opts.org, opts.label, opts.env));
    const out = { id: created.id, key: created.key, prefix: created.prefix, label: created.label, env: created.env };
    print(Boolean(opts.json), out, `${created.key}\n\nThis key is shown once; store it now. Its public prefix is ${created.prefix}.`);
  });

key
  .command("list")
  .requiredOption("--org <id>", "organization id")
  .addOption(jsonOption)
  .action(async (opts: { org: string; json?: boolean }) => {
    const rows = await withAccounts((accounts) => accounts.listKeys(opts.org));
    const out = rows.map(({ key_hash: _hash, ...rest }) => rest);
    print(Boolean(opts.json), out, out.map((k) => `${k.prefix}…  ${k.env}  ${k.status.padEnd(7)}  ${k.label}`).join("\n") || "no keys");
  });

key
  .command("revoke <idOrPrefix>")
  .description("revoke a key by id or public prefix; refused on its next request")
  .addOption(jsonOption)
  .action(async (idOrPrefix: string, opts: { json?: boolean }) => {
    const revoked = await withAccounts((accounts) => accounts.revokeKey(idOrPrefix));
    if (revoked.length === 0) throw new CliError(`no active key with id or prefix ${idOrPrefix}`);
    const out = revoked.map((k) => ({ id: k.id, prefix: k.prefix, label: k.label, status: k.status }));
    print(Boolean(opts.json), out, out.map((k) => `revoked ${k.prefix}… (${k.label})`).join("\n"));
  });

addBatchCommands(program);

addJobCommands(program);

addBoundaryCommands(program);

addDataStatusCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const known = error instanceof CliError || error instanceof KeyError || error instanceof AccountError;
  // An account rule names the form field it is about, which is the option of the same name here.
  const message = error instanceof AccountError ? `--${error.field}: ${error.message}` : known ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`buckeye: ${message}\n`);
  process.exit(known ? 1 : 2);
}
