/**
 * The key epoch of a SQLite database. Where it can be read without a statement it is: on a file a
 * connection of its own watches the WAL-index header (wal-index.ts), which changes with every commit
 * by any connection (the server's own, the CLI's, another process's), and reads the epoch row only
 * then; a check is one `pread` that touches no table and takes no lock. Without a WAL index it asks
 * `PRAGMA data_version` instead. An in-memory database has no other connection: its row is read each time.
 */
import SQLite from "better-sqlite3";
import { KEY_EPOCH_SQL } from "../store/api-keys.repository.ts";
import type { KeyEpochSource } from "./key-epoch.ts";
import { watchWalIndex } from "./wal-index.ts";

/** Without a WAL index: whether `PRAGMA data_version` moved since the last call (true the first time). */
function dataVersionMoved(watcher: SQLite.Database): () => boolean {
  const version = watcher.prepare<[], number>("PRAGMA data_version").pluck();
  let seen: number | undefined;
  return () => {
    const now = version.get();
    const moved = now !== seen;
    seen = now;
    return moved;
  };
}

export function sqliteKeyEpoch(database: SQLite.Database): KeyEpochSource {
  if (database.memory) {
    const epoch = database.prepare<[], number | bigint>(KEY_EPOCH_SQL).pluck();
    return { read: () => String(epoch.get()), announce: async () => {}, close: () => {} };
  }
  const watcher = new SQLite(database.name, { fileMustExist: true });
  watcher.pragma("busy_timeout = 5000");
  const epoch = watcher.prepare<[], number | bigint>(KEY_EPOCH_SQL).pluck();
  // Reading through the watcher first makes sure the WAL index exists before it is looked for.
  let current = String(epoch.get());
  const walIndex = watchWalIndex(database.name);
  const changed = walIndex ? () => walIndex.changed() : dataVersionMoved(watcher);
  return {
    read: () => {
      // The change signal first, then the epoch: a commit between the two moves the signal again.
      if (changed()) current = String(epoch.get());
      return current;
    },
    announce: async () => {},
    close: () => {
      walIndex?.close();
      watcher.close();
    },
  };
}
