/**
 * GET /readyz: 200 when this instance can answer every kind of lookup, else 503 with the
 * reasons, so a load balancer sends traffic elsewhere and an operator sees what to fix
 * (for example: no county and place polygons in GEO_DATA_DIR, run `buckeye data fetch-geo`). The check itself
 * (src/freshness/readiness.ts) is the one the customers' status page reads, and its first call
 * warms the geo pool. An instance that started without polygons looks at GEO_DATA_DIR again on
 * each call, so once `buckeye data fetch-geo` has written them the reason says that a restart will load them.
 *
 * Rates whose last successful reconciliation is older than RECONCILE_STALE_AFTER_DAYS make the
 * status `stale`, still 200: every instance shares the same data, so taking them all out of the
 * load balancer would answer nobody; the reason tells the operator to reconcile.
 */
import type { H3Event } from "h3";
import { checkReadiness, OHIO_COUNTIES, type Readiness } from "../../freshness/readiness.ts";
import type { ApiContext } from "../context.ts";

export function readinessOf(ctx: ApiContext): () => Promise<Readiness> {
  return () =>
    checkReadiness({
      db: ctx.db,
      counties: () => ctx.rates.table.counties.length,
      zips: () => ctx.zips.size,
      pool: ctx.lookups.pool,
      freshness: ctx.freshness,
      now: ctx.now,
      staleAfterDays: ctx.config.reconcileStaleAfterDays,
    });
}

/** The operator's wording: a check per part and a reason for each that fails. */
export function readyzBody(r: Readiness): { status: string; checks: Record<string, string>; reasons: string[] } {
  const reasons: string[] = [];
  const checks: Record<string, string> = {};
  if (r.database.ok) checks.database = "ok";
  else {
    checks.database = "unreachable";
    reasons.push(`database: ${r.database.error}`);
  }
  if (r.rates.complete) checks.data = `ok (${r.rates.counties} counties, ${r.rates.zips} ZIP codes)`;
  else {
    checks.data = "incomplete";
    reasons.push(`data: ${r.rates.counties} of ${OHIO_COUNTIES} counties and ${r.rates.zips} ZIP codes loaded`);
  }
  const geo = r.boundaries;
  if (geo.state === "ready") checks.boundaries = `ok (counties TIGER/Line ${geo.countyVintage}, places ${geo.placeVintage}, ${geo.threads} worker threads)`;
  else if (geo.state === "unavailable") {
    checks.boundaries = "unavailable";
    reasons.push(`boundaries-unavailable: ${geo.reason}. Address and lat/lon lookups answer 503; county and ZIP lookups work.`);
  } else {
    checks.boundaries = "loading";
    reasons.push("boundaries: the worker threads are still loading the county and place polygons");
  }
  const rec = r.reconciliation;
  const confirmed = `confirmed through ${rec.confirmedThrough}`;
  if (rec.stale) {
    checks.reconciliation = "stale";
    reasons.push(
      `rates-stale: the last successful reconciliation was on ${rec.lastReconciled}, ${rec.ageDays} days ago, more than RECONCILE_STALE_AFTER_DAYS (${rec.staleAfterDays}); rates are ${confirmed}. Run \`buckeye reconcile\` against the state's current rate file.`,
    );
  } else {
    checks.reconciliation = `ok (last ${rec.lastReconciled}, ${rec.ageDays} days ago; ${confirmed})`;
  }
  return { status: !r.ready ? "not ready" : rec.stale ? "stale" : "ready", checks, reasons };
}

export function getReadyz(ctx: ApiContext) {
  const readiness = readinessOf(ctx);
  return async (event: H3Event) => {
    const r = await readiness();
    event.res.status = r.ready ? 200 : 503;
    return readyzBody(r);
  };
}
