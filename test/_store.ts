/** A fresh, migrated store of its own (SQLite, or a PostgreSQL schema under TEST_DATABASE_URL), for tests of services without HTTP. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { freshDatabase } from "./_setup.ts";

export async function freshStore(): Promise<{ store: Store; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-store-"));
  const database = freshDatabase(dir);
  const store = openStore(database.url);
  await migrateToLatest(store.db);
  return {
    store,
    close: async () => {
      await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
