/**
 * The scheduled boundary import (job "boundary-import", SCHEDULE_BOUNDARY_IMPORT, on only when
 * BOUNDARY_SOURCE is set): imports the file BOUNDARY_SOURCE names when its version is new. The
 * source is a URL, a file, or a folder where the operator (or a sync job) drops the state's files:
 * then the newest OHB… file in it. A version already imported (active, or kept after a rollback)
 * is never imported again by the job, so it does not undo an operator's rollback; the CLI can.
 * Running servers switch on their index's next pointer read (within 5 s).
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { postedOn } from "../rates/sst-file-names.ts";
import type { Store } from "../store/connect.ts";
import { findVersion } from "../store/boundaries.repository.ts";
import { importBoundaryFile, versionFromName, type ImportCaps, type ImportResult } from "./import-file.ts";
import { importInThread } from "./import-thread.ts";

/** A sortable key for a version: year and quarter, then its posting date (a quarter's file may be posted the year before). */
export function versionOrder(version: string): string {
  const match = /^[A-Z]{2}B(\d{4})Q([1-4])([A-Z]{3})(\d{1,2})$/.exec(version);
  if (!match) return "";
  return `${match[1]}Q${match[2]} ${postedOn(Number(match[1]), Number(match[2]), match[3]!, Number(match[4])) ?? ""}`;
}

/** The newest boundary file in a folder, or null when it holds none. */
export function newestInFolder(folder: string): string | null {
  const files = readdirSync(folder)
    .map((name) => ({ name, version: versionFromName(name) }))
    .filter((f): f is { name: string; version: string } => f.version !== null && /\.(csv|zip)$/i.test(f.name))
    .sort((a, b) => versionOrder(b.version).localeCompare(versionOrder(a.version)));
  return files[0] ? join(folder, files[0].name) : null;
}

export type BoundaryJobResult = ImportResult | { status: "skipped"; reason: string };

/** What the job hands every import: the caps, the expected checksum (BOUNDARY_MAX_*, BOUNDARY_SHA256) and the shipped ZIP table's folder. Never force. */
export interface BoundaryJobSettings {
  caps?: Partial<ImportCaps>;
  sha256?: string | null;
  dataDir?: string;
}

/**
 * The import runs in a thread of its own with a bounded heap (import-thread.ts), off the thread that
 * answers requests, when the database can be opened again by URL; an in-memory SQLite database
 * cannot, so it is imported here.
 */
export async function runBoundaryImport(store: Pick<Store, "db" | "sqlite">, source: string | null, databaseUrl?: string, settings: BoundaryJobSettings = {}): Promise<BoundaryJobResult> {
  if (source === null) return { status: "skipped", reason: "BOUNDARY_SOURCE is not set" };
  let file = source;
  if (!/^https?:\/\//i.test(source) && statSync(source, { throwIfNoEntry: false })?.isDirectory()) {
    const newest = newestInFolder(source);
    if (newest === null) return { status: "skipped", reason: `no boundary file (OHB….csv or .zip) in ${source}` };
    file = newest;
  }
  const version = versionFromName(file.split(/[\\/]/).pop()!.split("?")[0]!);
  if (version !== null) {
    const known = await findVersion(store.db, version);
    if (known?.status === "ready") return { status: "skipped", reason: `${version} is already imported` };
  }
  if (databaseUrl === undefined || store.sqlite?.memory) return importBoundaryFile({ store, source: file, ...settings });
  return importInThread({ databaseUrl, source: file, ...settings });
}
