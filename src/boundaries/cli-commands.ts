/**
 * `buckeye boundaries import <path-or-url> [--force] [--synthetic] [--json]`, `buckeye boundaries status [--json]`
 * and `buckeye boundaries rollback [--json]`: the state's SST boundary file, against the configured
 * database. A running server follows a switch within its index's refresh time (5 s).
 */
import { type Command, Option } from "commander";
import { loadConfig } from "../config.ts";
import { openStore, type Store } from "../store/connect.ts";
import { migrateToLatest } from "../store/migrate.ts";
import { boundaryStatus, rollbackBoundaries } from "./versions.ts";
import { importInThread } from "./import-thread.ts";

async function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(loadConfig().databaseUrl);
  try {
    await migrateToLatest(store.db);
    return await work(store);
  } finally {
    await store.close();
  }
}

function report(json: boolean, value: unknown, text: string, failed: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
  if (failed) process.exitCode = 1;
}

export function addBoundaryCommands(program: Command): void {
  const json = () => new Option("--json", "print one JSON document");
  const boundaries = program.command("boundaries").description("the state's SST boundary file: exact address ranges and ZIP+4 ranges");

  boundaries
    .command("import <pathOrUrl>")
    .description("import a boundary file (CSV, or a ZIP holding one CSV) as a new version and switch lookups to it")
    .option("--force", "import it even when it has fewer than 90 % of the active version's records")
    .option("--synthetic", "the file is SYNTHETIC (scripts/make-boundary-file.ts): its version is labelled -SYNTHETIC and every answer from it says so; for a throwaway database only")
    .addOption(json())
    .action(async (source: string, opts: { force?: boolean; synthetic?: boolean; json?: boolean }) => {
      // Migrated first, here; the import itself runs in a thread with a bounded heap (import-thread.ts).
      const databaseUrl = loadConfig().databaseUrl;
      await withStore(async () => {});
      const result = await importInThread({ databaseUrl, source, force: Boolean(opts.force), synthetic: Boolean(opts.synthetic) });
      const text =
        result.status === "refused"
          ? `refused ${source}: ${result.error}\nnothing changed${result.version ? `; the active version is unchanged` : ""}`
          : result.status === "unchanged"
            ? `${result.version} is already the active version; nothing to do`
            : `imported ${result.version}: ${result.records} records (${result.address_ranges} address ranges, ${result.zip4_ranges} ZIP+4 ranges, ${result.zip5_ranges} ZIP ranges) in ${result.seconds} s${result.previous_version ? `; ${result.previous_version} kept for rollback` : ""}`;
      report(Boolean(opts.json), result, text, result.status === "refused");
    });

  boundaries
    .command("status")
    .description("the active boundary file version, the one kept for rollback, and when each was imported")
    .addOption(json())
    .action(async (opts: { json?: boolean }) => {
      const status = await withStore((store) => boundaryStatus(store.db));
      const line = (label: string, v: typeof status.active) =>
        v ? `${label}: ${v.version}${v.synthetic ? " (SYNTHETIC: made-up data, not the state's)" : ""}, ${v.records} records, imported ${v.imported_at}` : `${label}: none`;
      report(Boolean(opts.json), status, [line("active", status.active), line("previous", status.previous)].join("\n"), false);
    });

  boundaries
    .command("rollback")
    .description("switch lookups back to the previous version (the current one is kept, so it can be switched to again)")
    .addOption(json())
    .action(async (opts: { json?: boolean }) => {
      const status = await withStore((store) => rollbackBoundaries(store.db));
      if (status === null) {
        report(Boolean(opts.json), { error: "there is no previous version to go back to" }, "there is no previous version to go back to", true);
        return;
      }
      report(Boolean(opts.json), status, `active: ${status.active?.version}; previous: ${status.previous?.version ?? "none"}`, false);
    });
}
