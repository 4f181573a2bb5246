/**
 * `buckeye org …` and `buckeye key …`: organizations and API keys, through the account service the
 * dashboard calls too (src/accounts/account-service.ts).
 */
import { type Command, Option } from "commander";
import { createAccountService, type AccountService } from "../accounts/account-service.ts";
import { normalizeEmail } from "../accounts/accounts.ts";
import { RESET_TTL_MS } from "../accounts/password-reset.ts";
import { resetLink } from "../accounts/reset-mail.ts";
import { loadConfig } from "../config.ts";
import { withRuntime, type Runtime } from "../runtime.ts";
import { CliError, jsonOption, print } from "./output.ts";

/** The account service over the configured database, for one command (the same actions the dashboard calls). */
function withAccounts<T>(work: (accounts: AccountService) => Promise<T>): Promise<T> {
  const config = loadConfig();
  return withRuntime(config, (runtime) => work(createAccountService({ db: runtime.store.db, now: () => new Date(), keyChanged: () => announce(runtime), activeKeysPerOrganization: config.activeKeysPerOrganization })));
}

/** After a committed key revocation or organization status change: the change stands even when Redis cannot be told, so say what to do. */
async function announce(runtime: Runtime): Promise<void> {
  try {
    await runtime.announceKeyChange();
  } catch (error) {
    throw new CliError(
      `the change is committed, but Redis (REDIS_URL) could not be told: instances that cached this key's verdict keep it until Redis is told. Run the command again. (${(error as Error).message})`,
    );
  }
}

export function addOrgCommands(program: Command): void {
  const org = program.command("org").description("organizations");

  org
    .command("create")
    .description("create an organization (and, with --email and --password, its dashboard owner)")
    .requiredOption("--name <name>", "organization name")
    .option("--email <email>", "also create its owner, who signs in to the dashboard with this email")
    .option("--password <password>", "the owner's password, at least 12 characters and not a common one (with --email)")
    .option("--allow-duplicate", "create it even when an organization of the same name exists")
    .addOption(jsonOption())
    .action(async (opts: { name: string; email?: string; password?: string; allowDuplicate?: boolean; json?: boolean }) => {
      if ((opts.email === undefined) !== (opts.password === undefined)) throw new CliError("--email and --password go together");
      const row = await withAccounts(async (accounts) => {
        // Re-running a setup script must not make a second organization nobody meant to have.
        const same = (await accounts.listOrganizations()).find((existing) => existing.name.trim().toLowerCase() === opts.name.trim().toLowerCase());
        if (same && !opts.allowDuplicate) {
          throw new CliError(`an organization named "${same.name}" already exists (${same.id}); use its id, or pass --allow-duplicate to create another`);
        }
        return opts.email === undefined
          ? accounts.createOrganization(opts.name)
          : (await accounts.signUp({ organizationName: opts.name, email: opts.email, password: opts.password! }, { trial: false })).organization;
      });
      const out = { id: row.id, name: row.name, status: row.status };
      const owner = opts.email === undefined ? "" : ` with owner ${normalizeEmail(opts.email)}`;
      print(Boolean(opts.json), out, `created organization ${row.id} (${row.name})${owner}`);
    });

  org
    .command("list")
    .description("list organizations: id, status, verified or trial, name")
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const rows = await withAccounts((accounts) => accounts.listOrganizations());
      print(Boolean(opts.json), rows, rows.map((r) => `${r.id}  ${r.status.padEnd(9)}  ${(r.verified_at ? "verified" : "trial").padEnd(8)}  ${r.name}`).join("\n") || "no organizations");
    });

  org
    .command("verify <id>")
    .description("end a trial: an organization made by dashboard sign-up gets the full allowance (rate, batch jobs, deliveries)")
    .addOption(jsonOption())
    .action(async (id: string, opts: { json?: boolean }) => {
      const row = await withAccounts((accounts) => accounts.verify(id));
      if (!row) throw new CliError(`no organization ${id}`);
      print(Boolean(opts.json), { id: row.id, name: row.name, status: row.status, verified_at: row.verified_at }, `${row.id} is verified (since ${row.verified_at})`);
    });

  for (const [verb, status] of [["suspend", "suspended"], ["activate", "active"]] as const) {
    org
      .command(`${verb} <id>`)
      .description(status === "suspended" ? "suspend: its keys are refused on their next request" : "reactivate a suspended organization")
      .addOption(jsonOption())
      .action(async (id: string, opts: { json?: boolean }) => {
        const row = await withAccounts((accounts) => accounts.setStatus(id, status));
        if (!row) throw new CliError(`no organization ${id}`);
        print(Boolean(opts.json), { id: row.id, name: row.name, status: row.status }, `${row.id} is now ${row.status}`);
      });
  }
}

export function addKeyCommands(program: Command): void {
  const key = program.command("key").description("API keys");

  key
    .command("create")
    .description("create an API key for an organization; the full key is shown this once")
    .requiredOption("--org <id>", "organization id")
    .requiredOption("--label <label>", "what the key is for, e.g. 'checkout service'")
    .addOption(new Option("--env <env>", "live or test").choices(["live", "test"]).default("live"))
    .addOption(jsonOption())
    .action(async (opts: { org: string; label: string; env: "live" | "test"; json?: boolean }) => {
      const created = await withAccounts((accounts) => accounts.createKey(opts.org, opts.label, opts.env));
      const out = { id: created.id, key: created.key, prefix: created.prefix, label: created.label, env: created.env };
      print(Boolean(opts.json), out, `${created.key}\n\nThis key is shown once; store it now. Its public prefix is ${created.prefix}.`);
    });

  key
    .command("list")
    .description("list an organization's keys by public prefix (never the key itself)")
    .requiredOption("--org <id>", "organization id")
    .addOption(jsonOption())
    .action(async (opts: { org: string; json?: boolean }) => {
      const rows = await withAccounts((accounts) => accounts.listKeys(opts.org));
      const out = rows.map(({ key_hash: _hash, ...rest }) => rest);
      print(Boolean(opts.json), out, out.map((k) => `${k.prefix}…  ${k.env}  ${k.status.padEnd(7)}  ${k.label}`).join("\n") || "no keys");
    });

  key
    .command("revoke <idOrPrefix>")
    .description("revoke a key by id or public prefix; refused on its next request")
    .addOption(jsonOption())
    .action(async (idOrPrefix: string, opts: { json?: boolean }) => {
      const revoked = await withAccounts((accounts) => accounts.revokeKey(idOrPrefix));
      if (revoked.length === 0) throw new CliError(`no active key with id or prefix ${idOrPrefix}`);
      const out = revoked.map((k) => ({ id: k.id, prefix: k.prefix, label: k.label, status: k.status }));
      print(Boolean(opts.json), out, out.map((k) => `revoked ${k.prefix}… (${k.label})`).join("\n"));
    });
}

/** Where links printed by the CLI point: PUBLIC_URL, or this machine's listener when unset. */
function linkBase(config: { publicUrl: string | null; host: string; port: number }): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

export function addUserCommands(program: Command): void {
  const user = program.command("user").description("dashboard users");

  user
    .command("reset-password <email>")
    .description(`print a one-time link (valid ${RESET_TTL_MS / 60_000} minutes) with which the user sets a new password; using it signs the user out everywhere`)
    .addOption(jsonOption())
    .action(async (email: string, opts: { json?: boolean }) => {
      const config = loadConfig();
      const issued = await withAccounts((accounts) => accounts.issuePasswordReset(email));
      if (!issued) throw new CliError(`no dashboard user with email ${normalizeEmail(email)}`);
      const link = resetLink(linkBase(config), issued.token);
      const note = config.publicUrl ? "" : "\n(PUBLIC_URL is unset, so the link names this machine's listener; replace its start with the address the user reaches the service at.)";
      print(
        Boolean(opts.json),
        { email: issued.email, link, expires_at: issued.expiresAt.toISOString() },
        `${link}\n\nGive this link to ${issued.email} over a channel you trust. It works once, until ${issued.expiresAt.toISOString()}.${note}`,
      );
    });
}
