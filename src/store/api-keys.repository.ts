import { CompiledQuery } from "kysely";
import type { Store } from "./connect.ts";
import type { ApiKey, Db, KeyEnv, OrganizationLimitsTable, OrganizationStatus } from "./database.ts";
import { newId } from "../ids.ts";

export interface KeyCandidate {
  id: string;
  organization_id: string;
  key_hash: string;
  key_status: ApiKey["status"];
  org_status: OrganizationStatus;
  /** Null while the organization is in trial. */
  org_verified_at: string | null;
  /** The organization's own limits (null where it has none, and when it has no row): a verdict carries them. */
  requests_per_second_per_key: OrganizationLimitsTable["requests_per_second_per_key"];
  requests_per_second_per_org: OrganizationLimitsTable["requests_per_second_per_org"];
  active_keys: OrganizationLimitsTable["active_keys"];
  jobs_in_flight: OrganizationLimitsTable["jobs_in_flight"];
  jobs_stored: OrganizationLimitsTable["jobs_stored"];
  rows_per_job: OrganizationLimitsTable["rows_per_job"];
  retention_days: OrganizationLimitsTable["retention_days"];
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
    .leftJoin("organization_limits", "organization_limits.organization_id", "api_keys.organization_id")
    .select([
      "api_keys.id as id",
      "api_keys.organization_id as organization_id",
      "api_keys.key_hash as key_hash",
      "api_keys.status as key_status",
      "organizations.status as org_status",
      "organizations.verified_at as org_verified_at",
      "organization_limits.requests_per_second_per_key",
      "organization_limits.requests_per_second_per_org",
      "organization_limits.active_keys",
      "organization_limits.jobs_in_flight",
      "organization_limits.jobs_stored",
      "organization_limits.rows_per_job",
      "organization_limits.retention_days",
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

/** The key tables' epoch (migration 070): every change to a key's verdict moves it. The key-epoch sources of src/auth/ read it. */
export const KEY_EPOCH_SQL = "SELECT epoch FROM key_epoch WHERE id = 1";

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
