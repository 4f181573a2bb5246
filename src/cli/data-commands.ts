/**
 * `buckeye data status [--json]`: how current the rates are (confirmed through, last successful
 * reconciliation and its file, the latest run) and how old the boundaries are, each with its age,
 * read from DATA_DIR, the configured database and GEO_DATA_DIR.
 */
import { type Command, Option } from "commander";
import { loadConfig } from "../config.ts";
import { findBoundaryFiles } from "../geo/boundary-files.ts";
import { readDataMeta } from "../load-data.ts";
import { openStore } from "../store/connect.ts";
import { migrateToLatest } from "../store/migrate.ts";
import { latestSuccessfulReconciliation } from "../store/reconciliations.repository.ts";
import { formatDataStatus } from "../currency/data-status.ts";
import { ratesCurrency } from "../currency/rates-currency.ts";
import { readDataStatus } from "../currency/read-data-status.ts";

async function printDataStatus(opts: { json?: boolean }): Promise<void> {
  const config = loadConfig();
  const meta = readDataMeta(config.dataDir);
  const store = openStore(config.databaseUrl);
  try {
    await migrateToLatest(store.db);
    const status = await readDataStatus(
      {
        db: store.db,
        currency: async () => ratesCurrency(meta, await latestSuccessfulReconciliation(store.db)),
        polygons: findBoundaryFiles(config.geoDataDir),
        zctaVintage: meta.zcta_vintage,
        staleAfterDays: config.reconcileStaleAfterDays,
      },
      new Date(),
    );
    process.stdout.write(`${opts.json ? JSON.stringify(status, null, 2) : formatDataStatus(status)}\n`);
  } finally {
    await store.close();
  }
}

export function addDataStatusCommand(program: Command): void {
  const data = program.commands.find((command) => command.name() === "data") ?? program.command("data").description("boundary and rate data");
  data
    .command("status")
    .description("how current the rates are (confirmed through, last reconciliation) and how old the boundaries are, each with its age in days")
    .addOption(new Option("--json", "print one JSON document"))
    .action(printDataStatus);
}
