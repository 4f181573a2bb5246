/**
 * SYNTHETIC boundary files for tests (src/boundaries/synthetic-file.ts, built from data/), a fresh
 * store to import them into, and the generator's records so a test reads what it expects from the
 * file it wrote instead of hard-coding answers. Nothing here is a real boundary file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { SYNTHETIC_CITY_MARK, syntheticBoundaryRecords, writeSyntheticBoundaryFile, type SyntheticOptions } from "../src/boundaries/synthetic-file.ts";
import type { BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { freshDatabase } from "./_setup.ts";

export const DATA_DIR = new URL("../data", import.meta.url).pathname;

/** Franklin + Delaware (COTA's Delaware district), Delaware alone, Union + others, Wood (Rossford district) and Lucas. */
export const TEST_ZIPS = ["43081", "43015", "43064", "43460", "43604"];

export interface BoundaryWorkspace {
  dir: string;
  store: Store;
  databaseUrl: string;
  /** Writes `<name>` (a version plus "-synthetic.csv") with `records` records from TEST_ZIPS. */
  write(name: string, records: number, options?: Partial<SyntheticOptions>): Promise<string>;
  /**
   * Writes `<name>` (a version plus ".csv") as a STAND-IN for a state's file: a synthetic file with its
   * synthetic mark taken out of every city, for the tests of what only a state's file may do (be
   * imported without --synthetic: the scheduled job, a real import after a synthetic one). Never
   * written outside the test's temporary folder.
   */
  writeStandIn(name: string, records: number): Promise<string>;
  close(): Promise<void>;
}

export async function boundaryWorkspace(): Promise<BoundaryWorkspace> {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-boundaries-"));
  const database = freshDatabase(dir, "boundaries");
  const store = openStore(database.url);
  await migrateToLatest(store.db);
  return {
    dir,
    store,
    databaseUrl: database.url,
    async write(name, records, options = {}) {
      const path = join(dir, name);
      await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, zips: TEST_ZIPS, records, ...options });
      return path;
    },
    async writeStandIn(name, records) {
      const path = join(dir, name);
      await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, zips: TEST_ZIPS, records });
      writeFileSync(path, readFileSync(path, "utf8").replaceAll(SYNTHETIC_CITY_MARK, ""));
      return path;
    },
    async close() {
      await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The generator's records with their line numbers (line n is the n-th record). */
export function linedRecords(records: number, options: Partial<SyntheticOptions> = {}): Array<BoundaryRecord & { line: number }> {
  return [...syntheticBoundaryRecords({ dataDir: DATA_DIR, zips: TEST_ZIPS, records, ...options })].map((record, i) => ({ ...record, line: i + 1 }));
}
