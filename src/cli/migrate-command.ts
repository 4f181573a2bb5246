/** `buckeye migrate`: brings the database schema to the latest migration, as every other command does before its work. */
import type { Command } from "commander";
import { loadConfig } from "../config.ts";
import { withRuntime } from "../runtime.ts";
import { jsonOption, print } from "./output.ts";

export function addMigrateCommand(program: Command): void {
  program
    .command("migrate")
    .description("bring the database schema to the latest migration")
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const applied = await withRuntime(loadConfig(), async (runtime) => runtime.applied);
      print(Boolean(opts.json), { applied }, applied.length ? `applied: ${applied.join(", ")}` : "schema is up to date");
    });
}
