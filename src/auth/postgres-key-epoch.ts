/**
 * The key epoch of a PostgreSQL database: the row, read each time (one short query per event-loop
 * turn, see key-check.ts), as a named statement that each connection parses and plans once.
 */
import { CompiledQuery } from "kysely";
import { KEY_EPOCH_SQL } from "../store/api-keys.repository.ts";
import type { Store } from "../store/connect.ts";
import type { KeyEpochSource } from "./key-epoch.ts";

export function postgresKeyEpoch(store: Store): KeyEpochSource {
  const pool = store.postgres;
  const read = pool
    ? async () => String((await (await pool()).query<{ epoch: string }>({ name: "buckeye_key_epoch", text: KEY_EPOCH_SQL })).rows[0]!.epoch)
    : async () => String((await store.db.executeQuery<{ epoch: string }>(CompiledQuery.raw(KEY_EPOCH_SQL))).rows[0]!.epoch);
  return { read, announce: async () => {}, close: () => {} };
}
