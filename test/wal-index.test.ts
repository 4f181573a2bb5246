/**
 * The WAL-index header as the key-verdict cache's change signal (src/auth/wal-index.ts): every
 * commit, by any connection, is seen on the next look, and nothing else is. Real SQLite files; the
 * cross-process case (a revocation by the CLI in another process) is in test/cli-and-server.test.ts
 * and test/authentication.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchWalIndex, type WalIndexWatcher } from "../src/auth/wal-index.ts";

const dir = mkdtempSync(join(tmpdir(), "buckeye-wal-"));
const path = join(dir, "wal.sqlite");
let writer: SQLite.Database;
let reader: SQLite.Database;
let watcher: WalIndexWatcher;

beforeAll(() => {
  writer = new SQLite(path);
  writer.pragma("journal_mode = WAL");
  writer.exec("CREATE TABLE t (x INTEGER)");
  reader = new SQLite(path);
  reader.prepare("SELECT count(*) FROM t").get();
  watcher = watchWalIndex(path)!;
});
afterAll(() => {
  watcher?.close();
  reader?.close();
  writer?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a commit by any connection moves the WAL-index header", () => {
  it("the first look reports a change; without a commit the next does not", () => {
    expect(watcher.changed()).toBe(true);
    expect(watcher.changed()).toBe(false);
    reader.prepare("SELECT count(*) FROM t").get();
    expect(watcher.changed(), "a read is not a commit").toBe(false);
  });

  it("each commit is seen once, on the next look", () => {
    for (let i = 0; i < 50; i++) {
      writer.prepare("INSERT INTO t VALUES (?)").run(i);
      expect(watcher.changed()).toBe(true);
      expect(watcher.changed()).toBe(false);
    }
  });

  it("a commit after a checkpoint that restarts the log is seen too", () => {
    writer.pragma("wal_checkpoint(TRUNCATE)");
    watcher.changed();
    writer.prepare("INSERT INTO t VALUES (1)").run();
    expect(watcher.changed()).toBe(true);
    writer.prepare("INSERT INTO t VALUES (2)").run();
    expect(watcher.changed()).toBe(true);
  });

  it("a rolled-back transaction is not a change", () => {
    watcher.changed();
    writer.exec("BEGIN; INSERT INTO t VALUES (3); ROLLBACK");
    expect(watcher.changed()).toBe(false);
  });
});

describe("a database not in WAL mode has no WAL index", () => {
  it("there is nothing to watch (the epoch reader then asks PRAGMA data_version)", () => {
    const plain = join(dir, "plain.sqlite");
    const db = new SQLite(plain);
    db.pragma("journal_mode = DELETE");
    db.exec("CREATE TABLE t (x)");
    expect(watchWalIndex(plain)).toBeNull();
    db.close();
  });
});
