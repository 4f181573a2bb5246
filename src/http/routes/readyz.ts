/**
 * GET /readyz: 200 when this instance can answer every kind of lookup, else 503 with the
 * reasons, so a load balancer sends traffic elsewhere and an operator sees what to fix
 * (for example: no boundary files in GEO_DATA_DIR, run `buckeye data fetch-geo`). The first
 * call also warms the geo pool, so a readiness probe loads the polygons before traffic does.
 * An instance that started without polygons looks at GEO_DATA_DIR again on each call, so once
 * `buckeye data fetch-geo` has written them the reason says that a restart will load them.
 *
 * Rates whose last successful reconciliation is older than RECONCILE_STALE_AFTER_DAYS make the
 * status `stale`, still 200: every instance shares the same data, so taking them all out of the
 * load balancer would answer nobody; the reason tells the operator to reconcile.
 */
import { sql } from "kysely";
import type { H3Event } from "h3";
import { staleness } from "../../freshness/rates-freshness.ts";
import { dateInOhio } from "../../rates/calendar.ts";
import type { ApiContext } from "../context.ts";

const OHIO_COUNTIES = 88;
/** A probe must answer even when the database hangs (a network partition, a full pool). */
const DATABASE_DEADLINE_MS = 2000;

function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function getReadyz(ctx: ApiContext) {
  return async (event: H3Event) => {
    const reasons: string[] = [];
    const checks: Record<string, string> = {};
    try {
      await withDeadline(sql`select 1`.execute(ctx.db), DATABASE_DEADLINE_MS, "no answer");
      checks.database = "ok";
    } catch (error) {
      checks.database = "unreachable";
      reasons.push(`database: ${(error as Error).message}`);
    }
    // Rate data: the shipped tables (and any reconciled periods) must hold every Ohio county.
    const { counties } = ctx.rates.table;
    if (counties.length === OHIO_COUNTIES && ctx.zips.size > 0) {
      checks.data = `ok (${counties.length} counties, ${ctx.zips.size} ZIP codes)`;
    } else {
      checks.data = "incomplete";
      reasons.push(`data: ${counties.length} of ${OHIO_COUNTIES} counties and ${ctx.zips.size} ZIP codes loaded`);
    }
    const pool = ctx.lookups.pool;
    if (pool.readiness.state === "idle") void pool.warm();
    const geo = pool.readiness;
    if (geo.state === "ready") {
      checks.boundaries = `ok (counties TIGER/Line ${geo.boundaries.countyVintage}, places ${geo.boundaries.placeVintage}, ${pool.threads} worker threads)`;
    } else if (geo.state === "unavailable") {
      checks.boundaries = "unavailable";
      const reason = pool.missingPolygons ?? geo.reason;
      reasons.push(`boundaries-unavailable: ${reason}. Address and lat/lon lookups answer 503; county and ZIP lookups work.`);
    } else {
      checks.boundaries = "loading";
      reasons.push("boundaries: the worker threads are still loading the county and place polygons");
    }
    const ready = reasons.length === 0;
    const freshness = await ctx.freshness();
    const age = staleness(freshness.lastReconciled, dateInOhio(ctx.now()), ctx.config.reconcileStaleAfterDays);
    const confirmed = `confirmed through ${freshness.confirmedThrough}`;
    if (age.stale) {
      checks.reconciliation = "stale";
      reasons.push(
        `rates-stale: the last successful reconciliation was on ${freshness.lastReconciled}, ${age.ageDays} days ago, more than RECONCILE_STALE_AFTER_DAYS (${ctx.config.reconcileStaleAfterDays}); rates are ${confirmed}. Run \`buckeye reconcile\` against the state's current rate file.`,
      );
    } else {
      checks.reconciliation = `ok (last ${freshness.lastReconciled}, ${age.ageDays} days ago; ${confirmed})`;
    }
    event.res.status = ready ? 200 : 503;
    return { status: !ready ? "not ready" : age.stale ? "stale" : "ready", checks, reasons };
  };
}
