import { PostgresIntrospector, sql } from "kysely";
import { Migrator, type MigrationResultSet } from "kysely/migration";
import { migrations } from "../../migrations/index.ts";
import type { Db } from "./database.ts";

/**
 * The schema kysely's migration tables belong in. On PostgreSQL it must be named: kysely looks
 * for its tables across every schema of the database, so a second service in another schema
 * (`?schema=`) would otherwise find the first one's tables and skip creating its own.
 */
async function migrationTableSchema(db: Db): Promise<string | undefined> {
  if (!(db.introspection instanceof PostgresIntrospector)) return undefined;
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  return rows[0]?.schema;
}

/**
 * kysely checks for its migration tables by listing the tables of every schema in the database.
 * On PostgreSQL that catalog query can fail while another schema is being created or dropped
 * at the same moment (several services sharing one database, as the tests do). Such a failure
 * happens before any migration runs, changes nothing, and is retried a few times.
 */
const CATALOG_RACE_ATTEMPTS = 5;

/** kysely's migrator over our migrations, with its tables in the store's own schema. */
async function migratorFor(db: Db): Promise<Migrator> {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: await migrationTableSchema(db),
  });
}

/** Runs `step` on the migrator, again after a catalog race (see CATALOG_RACE_ATTEMPTS); answers its last result. */
async function withCatalogRetries(db: Db, step: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
  const migrator = await migratorFor(db);
  const racesCatalog = db.introspection instanceof PostgresIntrospector;
  for (let attempt = 1; ; attempt++) {
    const result = await step(migrator);
    if (!result.error || !racesCatalog || result.results !== undefined || attempt >= CATALOG_RACE_ATTEMPTS) return result;
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}

/** Brings the schema to the latest migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const result = await withCatalogRetries(db, (migrator) => migrator.migrateToLatest());
  if (!result.error) return result;
  const failed = result.results?.find((r) => r.status === "Error")?.migrationName ?? "the migration table check";
  throw new Error(`migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
}

/** Takes the latest migration back (its `down`), as a test of what a migration does to rows written before it. */
export function migrateDownOne(db: Db): Promise<MigrationResultSet> {
  return withCatalogRetries(db, (migrator) => migrator.migrateDown());
}
