import { sql, SqliteAdapter, type Kysely } from "kysely";

/**
 * Trial organizations (docs/guides/dashboard.md, "Trial organizations"): an organization made by
 * open sign-up is in trial until an operator verifies it (`buckeye org verify`), and a trial
 * organization gets a small allowance. `organizations.verified_at` is null while it is in trial.
 * Organizations that exist already were made before the rule, so they count as verified.
 *
 * Verifying changes what a key's verdict says (its organization's allowance), so it moves the key
 * epoch like a change of status does (migration 2026-11-23-070), and cached verdicts are read again.
 */
const TRIGGER = "organizations_verified_key_epoch";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("organizations").addColumn("verified_at", "text").execute();
  await db.updateTable("organizations").set({ verified_at: sql.ref("created_at") }).execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql.raw(`CREATE TRIGGER ${TRIGGER} AFTER UPDATE OF verified_at ON organizations BEGIN UPDATE key_epoch SET epoch = epoch + 1 WHERE id = 1; END`).execute(db);
    return;
  }
  await sql.raw(`CREATE TRIGGER ${TRIGGER} AFTER UPDATE OF verified_at ON organizations FOR EACH STATEMENT EXECUTE FUNCTION bump_key_epoch()`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await sql.raw(`DROP TRIGGER ${TRIGGER}${sqlite ? "" : " ON organizations"}`).execute(db);
  await db.schema.alterTable("organizations").dropColumn("verified_at").execute();
}
