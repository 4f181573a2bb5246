import SQLite from "better-sqlite3";
import { CompiledQuery } from "kysely";
import type { Store } from "./connect.ts";
import type { ApiKey, Db, KeyEnv, OrganizationStatus } from "./database.ts";
import { newId } from "../ids.ts";
import { watchWalIndex } from "./wal-index.ts";

export interface KeyCandidate {
  id: string;
  organization_id: string;
  key_hash: string;
  key_status: ApiKey["status"];
  org_status: OrganizationStatus;
}

export interface NewKeyFields {
  organizationId: string;
  label: string;
  env: KeyEnv;
  prefix: string;
  keyHash: string;
}

/**
 * Inserts the key unless its organization already holds `maxActive` active keys (then null). The
 * organization's row is written first, so two creations for one organization take turns (a row
 * lock on PostgreSQL, the write lock on SQLite) and cannot both see room for the last key.
 */
export async function insertApiKeyWithinCap(db: Db, fields: NewKeyFields, maxActive: number, now: Date = new Date()): Promise<ApiKey | null> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable("organizations")
      .set((eb) => ({ id: eb.ref("id") }))
      .where("id", "=", fields.organizationId)
      .execute();
    const { active } = await trx
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<number | string>().as("active"))
      .where("organization_id", "=", fields.organizationId)
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    if (Number(active) >= maxActive) return null;
    return insertApiKey(trx, fields, now);
  });
}

export async function insertApiKey(db: Db, fields: NewKeyFields, now: Date = new Date()): Promise<ApiKey> {
  const row: ApiKey = {
    id: newId("key"),
    organization_id: fields.organizationId,
    label: fields.label,
    env: fields.env,
    prefix: fields.prefix,
    key_hash: fields.keyHash,
    status: "active",
    created_at: now.toISOString(),
    revoked_at: null,
    last_used_at: null,
  };
  await db.insertInto("api_keys").values(row).execute();
  return row;
}

function keysByPrefixQuery(db: Db, prefix: string) {
  return db
    .selectFrom("api_keys")
    .innerJoin("organizations", "organizations.id", "api_keys.organization_id")
    .select([
      "api_keys.id as id",
      "api_keys.organization_id as organization_id",
      "api_keys.key_hash as key_hash",
      "api_keys.status as key_status",
      "organizations.status as org_status",
    ])
    .where("api_keys.prefix", "=", prefix);
}

export type KeyFinder = (prefix: string) => Promise<KeyCandidate[]>;

/**
 * Every key sharing a public prefix, with its organization's status, read fresh. It runs when a
 * key's cached verdict is missing or outdated (src/auth/key-verdicts.ts), so the query is
 * compiled once and, on SQLite, prepared once.
 */
export function createKeyFinder(store: Store): KeyFinder {
  const { sql } = keysByPrefixQuery(store.db, "").compile();
  if (store.sqlite) {
    const statement = store.sqlite.prepare<[string], KeyCandidate>(sql);
    return async (prefix) => statement.all(prefix);
  }
  if (store.postgres) {
    const pool = store.postgres;
    // A named statement: each connection parses and plans it once, not on every request.
    return async (prefix) => (await (await pool()).query<KeyCandidate>({ name: "buckeye_keys_by_prefix", text: sql, values: [prefix] })).rows;
  }
  return async (prefix) => (await store.db.executeQuery<KeyCandidate>(CompiledQuery.raw(sql, [prefix]))).rows;
}

/**
 * Reads `key_epoch` (migration 070), the number every change to a key's verdict moves. Where it
 * can be read without a statement it is: on a SQLite file a connection of its own watches the
 * WAL-index header (wal-index.ts), which changes with every commit by any connection (the
 * server's own, the CLI's, another process's), and reads the epoch row only then; a check is one
 * `pread` that touches no table and takes no lock. Without a WAL index it asks `PRAGMA
 * data_version` instead. On PostgreSQL (and an in-memory SQLite) the row is read each time.
 */
export interface KeyEpochReader {
  read(): string | Promise<string>;
  close(): void;
}

const EPOCH_SQL = "SELECT epoch FROM key_epoch WHERE id = 1";

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

export function createKeyEpochReader(store: Store): KeyEpochReader {
  if (store.sqlite && !store.sqlite.memory) {
    const watcher = new SQLite(store.sqlite.name, { fileMustExist: true });
    watcher.pragma("busy_timeout = 5000");
    const epoch = watcher.prepare<[], number | bigint>(EPOCH_SQL).pluck();
    // Reading through the watcher first makes sure the WAL index exists before it is looked for.
    let current = String(epoch.get());
    const walIndex = watchWalIndex(store.sqlite.name);
    const changed = walIndex ? () => walIndex.changed() : dataVersionMoved(watcher);
    return {
      read: () => {
        // The change signal first, then the epoch: a commit between the two moves the signal again.
        if (changed()) current = String(epoch.get());
        return current;
      },
      close: () => {
        walIndex?.close();
        watcher.close();
      },
    };
  }
  if (store.sqlite) {
    const epoch = store.sqlite.prepare<[], number | bigint>(EPOCH_SQL).pluck();
    return { read: () => String(epoch.get()), close: () => {} };
  }
  if (store.postgres) {
    const pool = store.postgres;
    return {
      read: async () => String((await (await pool()).query<{ epoch: string }>({ name: "buckeye_key_epoch", text: EPOCH_SQL })).rows[0]!.epoch),
      close: () => {},
    };
  }
  return { read: async () => String((await store.db.executeQuery<{ epoch: string }>(CompiledQuery.raw(EPOCH_SQL))).rows[0]!.epoch), close: () => {} };
}

export async function listApiKeys(db: Db, organizationId: string): Promise<ApiKey[]> {
  return db.selectFrom("api_keys").selectAll().where("organization_id", "=", organizationId).orderBy("created_at").execute();
}

/** Revokes by id or by public prefix; returns the keys revoked now (none if already revoked). */
export async function revokeApiKey(db: Db, idOrPrefix: string, organizationId?: string, now: Date = new Date()): Promise<ApiKey[]> {
  return db
    .updateTable("api_keys")
    .set({ status: "revoked", revoked_at: now.toISOString() })
    .where((eb) => eb.or([eb("id", "=", idOrPrefix), eb("prefix", "=", idOrPrefix)]))
    .where("status", "=", "active")
    .$if(organizationId !== undefined, (q) => q.where("organization_id", "=", organizationId!))
    .returningAll()
    .execute();
}

/** Records when keys were last used; called in batches, not on every request. */
export async function touchApiKeys(db: Db, usedAt: ReadonlyMap<string, string>): Promise<void> {
  for (const [id, at] of usedAt) {
    await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", id).execute();
  }
}
