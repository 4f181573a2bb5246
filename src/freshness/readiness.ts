/**
 * Whether this instance can answer every kind of lookup, checked now: the database answers, the
 * rate tables hold every Ohio county, the boundary polygons are loaded in the worker threads, and
 * how long ago the rates were last reconciled. GET /readyz reports it to a load balancer and an
 * operator (src/http/routes/readyz.ts), the status page to customers (src/dashboard/status-page.ts):
 * one check, so the two never disagree. Asking warms the geo pool, so a readiness probe loads the
 * polygons before traffic does.
 */
import { sql } from "kysely";
import type { GeoPool } from "../lookup/worker-pool.ts";
import { dateInOhio, type IsoDate } from "../rates/calendar.ts";
import type { Db } from "../store/database.ts";
import { staleness, type RatesFreshness } from "./rates-freshness.ts";

export const OHIO_COUNTIES = 88;
/** A probe must answer even when the database hangs (a network partition, a full pool). */
const DATABASE_DEADLINE_MS = 2000;

export interface ReadinessSources {
  db: Db;
  /** The county rows of the rate table in force, and how many ZIP codes are indexed. */
  counties: () => number;
  zips: () => number;
  pool: Pick<GeoPool, "readiness" | "warm" | "missingPolygons" | "threads">;
  freshness: () => RatesFreshness | Promise<RatesFreshness>;
  now: () => Date;
  staleAfterDays: number;
}

export interface Readiness {
  /** Every lookup can be answered (stale rates still count as ready: they are answered, flagged). */
  ready: boolean;
  database: { ok: true } | { ok: false; error: string };
  rates: { counties: number; zips: number; complete: boolean };
  boundaries:
    | { state: "ready"; countyVintage: number; placeVintage: number; threads: number }
    | { state: "loading" }
    | { state: "unavailable"; reason: string };
  reconciliation: { lastReconciled: IsoDate; ageDays: number; confirmedThrough: IsoDate; staleAfterDays: number; stale: boolean };
}

function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  let database: Readiness["database"];
  try {
    await withDeadline(sql`select 1`.execute(sources.db), DATABASE_DEADLINE_MS, "no answer");
    database = { ok: true };
  } catch (error) {
    database = { ok: false, error: (error as Error).message };
  }
  const counties = sources.counties();
  const zips = sources.zips();
  const rates = { counties, zips, complete: counties === OHIO_COUNTIES && zips > 0 };
  const pool = sources.pool;
  if (pool.readiness.state === "idle") void pool.warm();
  const geo = pool.readiness;
  const boundaries: Readiness["boundaries"] =
    geo.state === "ready"
      ? { state: "ready", countyVintage: geo.boundaries.countyVintage, placeVintage: geo.boundaries.placeVintage, threads: pool.threads }
      : geo.state === "unavailable"
        ? { state: "unavailable", reason: pool.missingPolygons ?? geo.reason }
        : { state: "loading" };
  const freshness = await sources.freshness();
  const age = staleness(freshness.lastReconciled, dateInOhio(sources.now()), sources.staleAfterDays);
  return {
    ready: database.ok && rates.complete && boundaries.state === "ready",
    database,
    rates,
    boundaries,
    reconciliation: { lastReconciled: freshness.lastReconciled, ageDays: age.ageDays, confirmedThrough: freshness.confirmedThrough, staleAfterDays: sources.staleAfterDays, stale: age.stale },
  };
}
