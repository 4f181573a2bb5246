import type { Kysely } from "kysely";

/**
 * Fair delivery slots (docs/guides/webhooks-and-jobs.md, "Fairness between organizations").
 *
 * `delivery_turns` holds when each organization was last given a delivery slot, so the next slot
 * goes to the organization that has waited longest since it became due or was last served, not to
 * the one whose backlog is oldest.
 *
 * `webhooks.consecutive_failures` and `webhooks.last_success_at` are the endpoint's record: an
 * endpoint whose last attempt failed (or that never answered, in an organization with a failing
 * endpoint) has one delivery in flight at a time, and such deliveries share half of an instance's
 * slots, so receivers that never answer cannot hold every slot.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("delivery_turns")
    .addColumn("organization_id", "text", (c) => c.primaryKey().references("organizations.id"))
    .addColumn("last_claimed_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.alterTable("webhooks").addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("webhooks").addColumn("last_success_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("webhooks").dropColumn("last_success_at").execute();
  await db.schema.alterTable("webhooks").dropColumn("consecutive_failures").execute();
  await db.schema.dropTable("delivery_turns").execute();
}
