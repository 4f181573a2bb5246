/** Requests per API key per Ohio calendar day, written in batches by src/usage/usage-recorder.ts. */
import type { Db } from "./database.ts";

export interface UsageCount {
  keyId: string;
  day: string;
  count: number;
}

/** Adds counts to the stored ones (insert, or add on conflict): safe for several instances at once. */
export async function addUsage(db: Db, counts: readonly UsageCount[]): Promise<void> {
  // Chunked so a large flush stays under SQLite's bound-parameter limit.
  for (let start = 0; start < counts.length; start += 300) {
    await db
      .insertInto("api_key_usage")
      .values(counts.slice(start, start + 300).map((c) => ({ key_id: c.keyId, day: c.day, count: c.count })))
      .onConflict((oc) => oc.columns(["key_id", "day"]).doUpdateSet((eb) => ({ count: eb("api_key_usage.count", "+", eb.ref("excluded.count")) })))
      .execute();
  }
}

/** Every count of the organization's keys from `fromDay` to `toDay` inclusive. */
export async function listUsage(db: Db, organizationId: string, fromDay: string, toDay: string): Promise<UsageCount[]> {
  const rows = await db
    .selectFrom("api_key_usage")
    .innerJoin("api_keys", "api_keys.id", "api_key_usage.key_id")
    .select(["api_key_usage.key_id as keyId", "api_key_usage.day as day", "api_key_usage.count as count"])
    .where("api_keys.organization_id", "=", organizationId)
    .where("api_key_usage.day", ">=", fromDay)
    .where("api_key_usage.day", "<=", toDay)
    .orderBy("api_key_usage.day")
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}
