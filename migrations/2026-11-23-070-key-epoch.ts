import { sql, SqliteAdapter, type Kysely } from "kysely";

/**
 * `key_epoch`: one row whose number goes up, in the same transaction, whenever anything that
 * decides an API key's verdict changes: a key inserted, revoked, re-hashed or deleted, an
 * organization suspended, reactivated or deleted. Triggers keep it, so every writer (the server,
 * the CLI in another process, another instance, a hand-typed UPDATE) moves it and none can
 * forget to. The server caches key verdicts and trusts one only while the epoch it was read at is
 * still the epoch (src/auth/key-verdicts.ts). `last_used_at` is not watched: usage is not a verdict.
 */
const WATCHED = [
  ["api_keys", "INSERT"],
  ["api_keys", "UPDATE OF status, key_hash, prefix, organization_id"],
  ["api_keys", "DELETE"],
  ["organizations", "UPDATE OF status"],
  ["organizations", "DELETE"],
] as const;

const triggerName = (table: string, event: string) => `${table}_${event.split(" ")[0]!.toLowerCase()}_key_epoch`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("key_epoch")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("epoch", "bigint", (c) => c.notNull())
    .execute();
  await db.insertInto("key_epoch").values({ id: 1, epoch: 0 }).execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const [table, event] of WATCHED) {
      await sql
        .raw(`CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table} BEGIN UPDATE key_epoch SET epoch = epoch + 1 WHERE id = 1; END`)
        .execute(db);
    }
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION bump_key_epoch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE key_epoch SET epoch = epoch + 1 WHERE id = 1; RETURN NULL; END $$`,
    )
    .execute(db);
  for (const [table, event] of WATCHED) {
    await sql.raw(`CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bump_key_epoch()`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const [table, event] of WATCHED) await sql.raw(`DROP TRIGGER ${triggerName(table, event)}${sqlite ? "" : ` ON ${table}`}`).execute(db);
  if (!sqlite) await sql.raw("DROP FUNCTION bump_key_epoch()").execute(db);
  await db.schema.dropTable("key_epoch").execute();
}
