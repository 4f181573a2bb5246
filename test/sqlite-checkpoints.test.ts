/**
 * Who runs SQLite's WAL checkpoints (src/store/connect.ts, `checkpoints`): the service's connection, whose
 * thread answers requests, leaves the checkpoint of pages other connections wrote (the batch lane's
 * threads) to them; a checkpoint copies those pages into the database file on the thread that commits.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../src/store/connect.ts";

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Another connection writes 2,000 pages (8 MB) into the WAL and checkpoints none of them; then `store` commits one small write. Returns the database file's growth, in bytes. */
function growthAfterSmallCommit(store: Store, path: string): number {
  const other = new SQLite(path);
  other.pragma("wal_autocheckpoint = 0");
  other.exec("create table bulk (b blob)");
  const insert = other.prepare("insert into bulk values (randomblob(4000))");
  other.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run();
  })();
  // Kept open until after: the last connection to close checkpoints the WAL.
  try {
    const before = statSync(path).size;
    store.sqlite!.exec("create table small (x)");
    return statSync(path).size - before;
  } finally {
    other.close();
  }
}

function sqliteStore(checkpoints?: boolean): { store: Store; path: string } {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-checkpoints-"));
  dirs.push(dir);
  const path = join(dir, "db.sqlite");
  const store = openStore(`sqlite:${path}`, checkpoints === undefined ? {} : { checkpoints });
  stores.push(store);
  return { store, path };
}

describe("SQLite WAL checkpoints", () => {
  it("a connection that leaves checkpoints to others (the service's) does not copy their pages into the database file when it commits", () => {
    const { store, path } = sqliteStore(false);
    expect(growthAfterSmallCommit(store, path)).toBe(0);
  });

  it("a connection that runs its own (a batch lane thread's, SQLite's default) checkpoints them at its commit", () => {
    const { store, path } = sqliteStore();
    expect(growthAfterSmallCommit(store, path)).toBeGreaterThan(4_000_000);
  });
});
