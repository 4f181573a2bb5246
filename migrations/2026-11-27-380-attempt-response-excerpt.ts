import type { Kysely } from "kysely";

/**
 * What the receiver answered, kept with each delivery attempt so the dashboard's delivery log can
 * show it (docs/guides/dashboard.md, "Webhooks"): the first 2 KB of the answer's body, as UTF-8
 * text, and whether there was more. Attempts logged before this migration have neither (null, 0).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("delivery_attempts").addColumn("response_excerpt", "text").execute();
  await db.schema.alterTable("delivery_attempts").addColumn("response_truncated", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("delivery_attempts").dropColumn("response_truncated").execute();
  await db.schema.alterTable("delivery_attempts").dropColumn("response_excerpt").execute();
}
