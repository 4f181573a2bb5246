/**
 * `buckeye org …` and `buckeye key …`: organizations and API keys, through the account service the
 * dashboard calls too (src/accounts/account-service.ts).
 */
import { type Command, Option } from "commander";
import { createAccountService, LimitsError, type AccountService, type ShownLimit } from "../accounts/account-service.ts";
import { normalizeEmail } from "../accounts/accounts.ts";
import { RESET_TTL_MS } from "../accounts/password-reset.ts";
import { resetLink } from "../accounts/reset-mail.ts";
import { loadConfig } from "../config.ts";
import { limitByFlag, limitDefaults, LIMIT_NAMES, LIMITS, parseLimitValue, type LimitName, type OrganizationLimits } from "../organization-limits.ts";
import { withRuntime, type Runtime } from "../runtime.ts";
import { CliError, jsonOption, print } from "./output.ts";

/** The account service over the configured database, for one command (the same actions the dashboard calls). */
function withAccounts<T>(work: (accounts: AccountService) => Promise<T>): Promise<T> {
  const config = loadConfig();
  return withRuntime(config, (runtime) => work(createAccountService({ db: runtime.store.db, now: () => runtime.clock.now(), keyChanged: () => announce(runtime), limitDefaults: limitDefaults(config) })));
}

/** After a committed change to a key's verdict (a revocation, an organization's status or limits): the change stands even when Redis cannot be told, so say what to do. */
async function announce(runtime: Runtime): Promise<void> {
  try {
    await runtime.announceKeyChange();
  } catch (error) {
    throw new CliError(
      `the change is committed, but Redis (REDIS_URL) could not be told: instances that cached the verdicts of the keys it touches (with their organization's limits) keep them until Redis is told. Run the command again. (${(error as Error).message})`,
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
    .option("--reuse", 'when an organization of this name exists, answer it ("created": false) instead of refusing, so a setup script can run again')
    .addOption(jsonOption())
    .action(async (opts: { name: string; email?: string; password?: string; allowDuplicate?: boolean; reuse?: boolean; json?: boolean }) => {
      if ((opts.email === undefined) !== (opts.password === undefined)) throw new CliError("--email and --password go together");
      if (opts.reuse && opts.allowDuplicate) throw new CliError("--reuse and --allow-duplicate contradict each other; pass one");
      const { row, created } = await withAccounts(async (accounts) => {
        // Re-running a setup script must not make a second organization nobody meant to have.
        const same = (await accounts.listOrganizations()).find((existing) => existing.name.trim().toLowerCase() === opts.name.trim().toLowerCase());
        if (same && opts.reuse) return { row: same, created: false };
        if (same && !opts.allowDuplicate) {
          throw new CliError(`an organization named "${same.name}" already exists (${same.id}); use its id, pass --reuse to answer it, or --allow-duplicate to create another`);
        }
        const row =
          opts.email === undefined
            ? await accounts.createOrganization(opts.name)
            : (await accounts.signUp({ organizationName: opts.name, email: opts.email, password: opts.password! }, { trial: false })).organization;
        return { row, created: true };
      });
      const out = { id: row.id, name: row.name, status: row.status, created };
      const owner = opts.email === undefined ? "" : ` with owner ${normalizeEmail(opts.email)}`;
      print(Boolean(opts.json), out, created ? `created organization ${row.id} (${row.name})${owner}` : `organization ${row.id} (${row.name}) already exists; nothing created`);
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

  org
    .command("show <id>")
    .description("show an organization: its status, whether it is in trial, and each limit with its value and whether it is the organization's own or the default")
    .addOption(jsonOption())
    .action(async (id: string, opts: { json?: boolean }) => {
      const shown = await withAccounts(async (accounts) => {
        const row = (await accounts.listOrganizations()).find((candidate) => candidate.id === id);
        return row ? { row, limits: (await accounts.limits(id))! } : null;
      });
      if (!shown) throw new CliError(`no organization ${id}`);
      const { row, limits } = shown;
      const out = { id: row.id, name: row.name, status: row.status, trial: row.verified_at === null, created_at: row.created_at, verified_at: row.verified_at, limits: limitsDocument(limits) };
      const head = [`${row.id}  ${row.name}`, `status    ${row.status}, ${row.verified_at ? `verified ${row.verified_at}` : "in trial"}`, `created   ${row.created_at}`, "limits"];
      print(Boolean(opts.json), out, [...head, limitsText(limits)].join("\n"));
    });

  const limits = org.command("limits").description("limits an operator sets per organization, in place of the settings' defaults (docs/operations/organization-limits.md)");

  const set = limits
    .command("set <id>")
    .description("set one or more of an organization's limits; every instance applies them from its next request")
    .addOption(jsonOption());
  for (const name of LIMIT_NAMES) set.addOption(new Option(`--${LIMITS[name].flag} <n>`, `${LIMITS[name].what}, 1 to ${LIMITS[name].max}`));
  set.action(async (id: string, opts: Record<string, string | boolean | undefined>) => {
    const changes: Partial<Record<LimitName, number>> = {};
    for (const option of set.options) {
      const name = limitByFlag(option.long?.slice(2) ?? "");
      const text = name && opts[option.attributeName()];
      if (!name || typeof text !== "string") continue;
      const parsed = parseLimitValue(name, text);
      if (!parsed.ok) throw new CliError(parsed.problem);
      changes[name] = parsed.value;
    }
    if (Object.keys(changes).length === 0) throw new CliError(`name a limit to set: ${LIMIT_NAMES.map((name) => `--${LIMITS[name].flag} <n>`).join(", ")}`);
    const shown = await changeLimits(id, changes);
    print(Boolean(opts.json), limitsDocument(shown), `${id}'s limits are now:\n${limitsText(shown)}`);
  });

  limits
    .command("unset <id> [limits...]")
    .description(`clear limits of an organization back to their defaults: any of ${LIMIT_NAMES.map((name) => LIMITS[name].flag).join(", ")}`)
    .option("--all", "clear every limit of its own")
    .addOption(jsonOption())
    .action(async (id: string, names: string[], opts: { all?: boolean; json?: boolean }) => {
      if (opts.all && names.length > 0) throw new CliError("name limits or pass --all, not both");
      const unknown = names.filter((flag) => !limitByFlag(flag.replace(/^--/, "")));
      if (unknown.length > 0) throw new CliError(`no limit named ${unknown.join(", ")}; the limits are ${LIMIT_NAMES.map((name) => LIMITS[name].flag).join(", ")}`);
      const chosen = opts.all ? LIMIT_NAMES : names.map((flag) => limitByFlag(flag.replace(/^--/, ""))!);
      if (chosen.length === 0) throw new CliError(`name a limit to clear (${LIMIT_NAMES.map((name) => LIMITS[name].flag).join(", ")}), or pass --all`);
      const shown = await changeLimits(id, Object.fromEntries(chosen.map((name) => [name, null])) as Partial<OrganizationLimits>);
      print(Boolean(opts.json), limitsDocument(shown), `${id}'s limits are now:\n${limitsText(shown)}`);
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

/** A change of limits, its refusal as the CLI says it (one line, nothing changed). */
async function changeLimits(id: string, changes: Partial<OrganizationLimits>): Promise<ShownLimit[]> {
  try {
    return await withAccounts((accounts) => accounts.changeLimits(id, changes));
  } catch (error) {
    if (error instanceof LimitsError) throw new CliError(error.message);
    throw error;
  }
}

/** Each limit by its CLI name, with its value and where the value comes from. */
function limitsDocument(shown: ShownLimit[]): Record<string, { value: number; source: "organization" | "default" }> {
  return Object.fromEntries(shown.map((limit) => [LIMITS[limit.name].flag, { value: limit.value, source: limit.own ? "organization" : "default" }]));
}

function limitsText(shown: ShownLimit[]): string {
  const width = Math.max(...shown.map((limit) => LIMITS[limit.name].flag.length));
  return shown
    .map((limit) => {
      const { flag, setting } = LIMITS[limit.name];
      const source = limit.own ? "own" : `default${setting ? ` (${setting})` : ""}`;
      return `  ${flag.padEnd(width)}  ${String(limit.value).padStart(7)}  ${source}`;
    })
    .join("\n");
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
      // An empty id is what a script's failed `org create` leaves in its variable: say so rather than "no organization".
      if (opts.org.trim() === "") throw new CliError("--org is empty; give an organization's id (buckeye org list)");
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
