import type { Kysely } from "kysely";

/**
 * Webhooks, the events outbox and its deliveries, exemption certificates, and the reconciliation
 * log with the rate periods it records. Text ISO timestamps, text ids and integer counters only,
 * so the same statements run on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_secret_expires_at", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("disabled_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhooks_organization").on("webhooks").column("organization_id").execute();

  await db.schema
    .createTable("events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("organization_id", "text")
    .addColumn("webhook_id", "text")
    .addColumn("dedupe_key", "text", (c) => c.unique())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("event_id", "text", (c) => c.notNull().references("events.id"))
    .addColumn("webhook_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("claimed_by", "text")
    .addColumn("claimed_until", "text")
    .addColumn("last_status_code", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .execute();
  await db.schema.createIndex("deliveries_due").on("deliveries").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("deliveries_webhook").on("deliveries").columns(["webhook_id", "created_at"]).execute();

  await db.schema
    .createTable("delivery_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("delivery_id", "text", (c) => c.notNull())
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("latency_ms", "integer", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("instance", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("delivery_attempts_delivery").on("delivery_attempts").columns(["delivery_id", "number"]).execute();

  await db.schema
    .createTable("certificates")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("organization_id", "text", (c) => c.notNull().references("organizations.id"))
    .addColumn("customer_id", "text", (c) => c.notNull())
    .addColumn("customer_name", "text", (c) => c.notNull())
    .addColumn("exempt_reason", "text", (c) => c.notNull())
    .addColumn("expires_on", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("certificates_expiry").on("certificates").column("expires_on").execute();
  await db.schema.createIndex("certificates_organization").on("certificates").column("organization_id").execute();

  await db.schema
    .createTable("reconciliations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("file_name", "text")
    .addColumn("reconciled_on", "text", (c) => c.notNull())
    .addColumn("rows", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("periods_recorded", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("events_emitted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("discrepancies", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("reconciliations_finished").on("reconciliations").columns(["status", "finished_at"]).execute();

  await db.schema
    .createTable("recorded_rate_periods")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("fips", "text", (c) => c.notNull())
    .addColumn("component", "text", (c) => c.notNull())
    .addColumn("authority", "text")
    .addColumn("rate_millionths", "integer", (c) => c.notNull())
    .addColumn("effective_from", "text", (c) => c.notNull())
    .addColumn("effective_to", "text")
    .addColumn("announced_on", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("reconciliation_id", "text", (c) => c.notNull())
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .addUniqueConstraint("recorded_rate_periods_key", ["fips", "component", "effective_from"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["recorded_rate_periods", "reconciliations", "certificates", "delivery_attempts", "deliveries", "events", "webhooks"]) {
    await db.schema.dropTable(table).execute();
  }
}
