/**
 * Where an instance reads the key tables' epoch, the value every change to a key's verdict moves
 * (src/auth/key-verdicts.ts trusts a cached verdict only while it holds), and how it tells the other
 * instances of a change. One source per store: SQLite (sqlite-key-epoch.ts), PostgreSQL
 * (postgres-key-epoch.ts), and Redis when the instances share it (redis-key-epoch.ts).
 */
import type { KeyEpoch } from "./key-verdicts.ts";

export interface KeyEpochSource {
  /** The epoch now; `undefined` when it cannot be known, so that no cached verdict is trusted. */
  read(): KeyEpoch | Promise<KeyEpoch>;
  /**
   * Call after committing a key or organization change. A database's own epoch moved with the
   * commit; Redis is told here.
   */
  announce(): Promise<void>;
  close(): void;
}
