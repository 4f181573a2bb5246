/**
 * `buckeye boundaries import <path-or-url> [--force] [--synthetic] [--json]`, `buckeye boundaries status [--json]`
 * and `buckeye boundaries rollback [--json]`: the state's SST boundary file, against the configured
 * database. A running server follows a switch within its index's refresh time (5 s).
 */
import type { Command } from "commander";
import { loadConfig } from "../config.ts";
import { withRuntime } from "../runtime.ts";
import { boundaryStatus, rollbackBoundaries, type ZipSourcesComparison } from "../boundaries/versions.ts";
import { readZipCounties } from "../boundaries/zip-table.ts";
import { importInThread } from "../boundaries/import-thread.ts";
import type { ChangeReport, SkippedRows } from "../boundaries/import-file.ts";
import type { SkipReason } from "../boundaries/record-layout.ts";
import { jsonOption, print } from "./output.ts";

const SKIP_REASONS: Record<SkipReason, string> = { "no-county": "no county", "other-state": "another state's FIPS" };

/** "; 3 rows skipped, answering no Ohio lookup (no county: 3, lines 12, 40, 77, …)", or nothing. */
function skippedText(skipped: SkippedRows | undefined): string {
  if (!skipped || skipped.rows === 0) return "";
  const reasons = (Object.entries(skipped.by_reason) as Array<[SkipReason, { rows: number; first_lines: number[] }]>).map(
    ([reason, { rows, first_lines }]) => `${SKIP_REASONS[reason]}: ${rows}, line${first_lines.length > 1 ? "s" : ""} ${first_lines.join(", ")}${rows > first_lines.length ? ", …" : ""}`,
  );
  return `; ${skipped.rows} row${skipped.rows === 1 ? "" : "s"} skipped, answering no Ohio lookup (${reasons.join("; ")})`;
}

/** "; against OHB2026Q3JUN1: 0.4 % of its ranges moved (12 changed county or transit, 8 removed, 3 shadowed; 30 added), 0 duplicate rows", or nothing. */
function changesText(changes: ChangeReport | null | undefined): string {
  if (!changes) return "";
  // A report stored before shadowed ranges were judged has no count of them.
  const shadowed = "ranges_shadowed" in changes ? `, ${changes.ranges_shadowed} shadowed` : "";
  return `; against ${changes.against}: ${(changes.changed_share * 100).toFixed(1)} % of its ranges moved (${changes.ranges_changed} changed county or transit, ${changes.ranges_removed} removed${shadowed}; ${changes.ranges_added} added), ${changes.duplicate_rows} duplicate row${changes.duplicate_rows === 1 ? "" : "s"}`;
}

/** "ZIP lookups: 1,412 ZIPs answer from the file; 37 differ from the Census ZCTA table (2 not in it), e.g. 43002, …". */
export function zipSourcesText(z: ZipSourcesComparison): string {
  const examples = z.examples.length === 0 ? "" : `, e.g. ${z.examples.join(", ")}${z.differing > z.examples.length ? ", …" : ""}`;
  return `ZIP lookups: ${z.zips} ZIP${z.zips === 1 ? "" : "s"} answer from the file's records; ${z.differing} differ${z.differing === 1 ? "s" : ""} from the Census ZCTA table in their counties (${z.not_in_table} not in it)${examples}`;
}

export function addBoundaryCommands(program: Command): void {
  const boundaries = program.command("boundaries").description("the state's SST boundary file: exact address ranges and ZIP+4 ranges");

  boundaries
    .command("import <pathOrUrl>")
    .description("import a boundary file (CSV, or a ZIP holding one CSV) as a new version and switch lookups to it")
    .option("--force", "import it even when it has fewer than 90 % of the active version's records, or its change report refuses it (more than 1 % of the active version's ranges moved, a county or transit code losing more than 1 % of its ranges, nothing compared, more than 5 % duplicate rows or newly contradicting ZIPs; docs/guides/boundary-file.md)")
    .option("--sha256 <hex>", "the SHA-256 the file must have (required for an http:// URL)")
    .option("--synthetic", "the file is SYNTHETIC (scripts/make-boundary-file.ts): its version is labelled -SYNTHETIC and every answer from it says so; for a throwaway database only")
    .addOption(jsonOption())
    .action(async (source: string, opts: { force?: boolean; sha256?: string; synthetic?: boolean; json?: boolean }) => {
      // Migrated first, here; the import itself runs in a thread with a bounded heap (import-thread.ts).
      const config = loadConfig();
      await withRuntime(config, async () => {});
      const result = await importInThread({
        databaseUrl: config.databaseUrl,
        source,
        force: Boolean(opts.force),
        synthetic: Boolean(opts.synthetic),
        caps: config.jobs.boundaryCaps,
        sha256: opts.sha256 ?? null,
        dataDir: config.dataDir,
      });
      const text =
        result.status === "refused"
          ? `refused ${source}: ${result.error}\nnothing changed${result.version ? `; the active version is unchanged` : ""}`
          : result.status === "unchanged"
            ? `${result.version} is already the active version; nothing to do`
            : `imported ${result.version}: ${result.records} records (${result.address_ranges} address ranges, ${result.zip4_ranges} ZIP+4 ranges, ${result.zip5_ranges} ZIP ranges) in ${result.seconds} s${changesText(result.changes)}${skippedText(result.skipped)}${result.previous_version ? `; ${result.previous_version} kept for rollback` : ""}`;
      print(Boolean(opts.json), result, text, result.status === "refused");
    });

  boundaries
    .command("status")
    .description("the active boundary file version, the one kept for rollback, when each was imported, and how many of its ZIPs differ from the Census ZCTA table")
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const config = loadConfig();
      const zipTable = readZipCounties(config.dataDir);
      const status = await withRuntime(config, ({ store }) => boundaryStatus(store.db, zipTable));
      const line = (label: string, v: typeof status.active) =>
        v
          ? `${label}: ${v.version}${v.synthetic ? " (SYNTHETIC: made-up data, not the state's)" : ""}, ${v.records} records, imported ${v.imported_at}${skippedText(v.report?.skipped)}`
          : `${label}: none`;
      const lines = [line("active", status.active), line("previous", status.previous)];
      if (status.zip_sources) lines.push(zipSourcesText(status.zip_sources));
      print(Boolean(opts.json), status, lines.join("\n"), false);
    });

  boundaries
    .command("rollback")
    .description("switch lookups back to the previous version (the current one is kept, so it can be switched to again)")
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const status = await withRuntime(loadConfig(), ({ store, clock }) => rollbackBoundaries(store.db, clock.now()));
      if (status === null) {
        print(Boolean(opts.json), { error: "there is no previous version to go back to" }, "there is no previous version to go back to", true);
        return;
      }
      print(Boolean(opts.json), status, `active: ${status.active?.version}; previous: ${status.previous?.version ?? "none"}`, false);
    });
}
