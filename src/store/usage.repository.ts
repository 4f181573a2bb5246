/**
 * Requests per API key per Ohio calendar day, by outcome, written in batches by
 * src/usage/usage-recorder.ts. What each outcome holds: docs/guides/dashboard.md, "Usage counting".
 */
import type { Db } from "./database.ts";

/** A day's requests of one key in each outcome class. */
export interface Outcomes {
  /** Status below 400: the request was answered. */
  answered: number;
  /** 4xx but 429: refused as sent (a bad parameter, a missing resource, a body too large). */
  clientErrors: number;
  /** 429: over a rate limit, or over a cap on work in flight. */
  rateLimited: number;
  /** 5xx: the service or an upstream it needs failed. */
  serverErrors: number;
}

export interface UsageCount extends Outcomes {
  keyId: string;
  day: string;
}

export interface StoredUsage extends UsageCount {
  /** Requests of every outcome. */
  total: number;
  /**
   * Requests counted before outcomes were recorded (migrations/2026-12-02-460-usage-outcomes.ts),
   * whose outcome is not known: total less the four classes.
   */
  unclassified: number;
}

/** Adds counts to the stored ones (insert, or add on conflict): safe for several instances at once. */
export async function addUsage(db: Db, counts: readonly UsageCount[]): Promise<void> {
  // Chunked so a large flush stays under SQLite's bound-parameter limit (7 a row).
  for (let start = 0; start < counts.length; start += 300) {
    await db
      .insertInto("api_key_usage")
      .values(
        counts.slice(start, start + 300).map((c) => ({
          key_id: c.keyId,
          day: c.day,
          count: c.answered + c.clientErrors + c.rateLimited + c.serverErrors,
          answered: c.answered,
          client_errors: c.clientErrors,
          rate_limited: c.rateLimited,
          server_errors: c.serverErrors,
        })),
      )
      .onConflict((oc) =>
        oc.columns(["key_id", "day"]).doUpdateSet((eb) => ({
          count: eb("api_key_usage.count", "+", eb.ref("excluded.count")),
          answered: eb("api_key_usage.answered", "+", eb.ref("excluded.answered")),
          client_errors: eb("api_key_usage.client_errors", "+", eb.ref("excluded.client_errors")),
          rate_limited: eb("api_key_usage.rate_limited", "+", eb.ref("excluded.rate_limited")),
          server_errors: eb("api_key_usage.server_errors", "+", eb.ref("excluded.server_errors")),
        })),
      )
      .execute();
  }
}

/** Every count of the organization's keys from `fromDay` to `toDay` inclusive. */
export async function listUsage(db: Db, organizationId: string, fromDay: string, toDay: string): Promise<StoredUsage[]> {
  const rows = await db
    .selectFrom("api_key_usage")
    .innerJoin("api_keys", "api_keys.id", "api_key_usage.key_id")
    .select([
      "api_key_usage.key_id as keyId",
      "api_key_usage.day as day",
      "api_key_usage.count as total",
      "api_key_usage.answered as answered",
      "api_key_usage.client_errors as clientErrors",
      "api_key_usage.rate_limited as rateLimited",
      "api_key_usage.server_errors as serverErrors",
    ])
    .where("api_keys.organization_id", "=", organizationId)
    .where("api_key_usage.day", ">=", fromDay)
    .where("api_key_usage.day", "<=", toDay)
    .orderBy("api_key_usage.day")
    .execute();
  return rows.map((r) => {
    const outcomes = { answered: Number(r.answered), clientErrors: Number(r.clientErrors), rateLimited: Number(r.rateLimited), serverErrors: Number(r.serverErrors) };
    const total = Number(r.total);
    return { keyId: r.keyId, day: r.day, total, ...outcomes, unclassified: total - outcomes.answered - outcomes.clientErrors - outcomes.rateLimited - outcomes.serverErrors };
  });
}
