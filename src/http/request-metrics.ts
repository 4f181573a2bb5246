/**
 * What every answer adds to the metrics (docs/operations/metrics.md): its route's template (the
 * pattern h3 matched, never the path or the query, which hold customers' addresses; `unmatched`
 * when no route took it), method and status, and its time. The cells are found by the route h3
 * matched (the same object for every request it takes) and the method, so an answer costs two map
 * reads and two additions (src/metric-tallies.ts): no label string is built or hashed per request.
 */
import type { H3Event } from "h3";
import type { CounterCell, HistogramCell } from "../metric-tallies.ts";
import { httpRequests, httpRequestSeconds, problems, rateLimited } from "../metrics.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A route and method's cells: its time, and a count per status. */
interface RouteCells {
  timing: HistogramCell;
  byStatus: Map<number, CounterCell>;
}

const UNMATCHED = { route: "unmatched" };
const cellsOf = new WeakMap<object, Map<string, RouteCells>>();

function routeCells(matched: { route?: string }, method: string): RouteCells {
  let byMethod = cellsOf.get(matched);
  if (!byMethod) cellsOf.set(matched, (byMethod = new Map()));
  let cells = byMethod.get(method);
  if (!cells) byMethod.set(method, (cells = { timing: httpRequestSeconds.cell({ route: matched.route ?? "unmatched", method }), byStatus: new Map() }));
  return cells;
}

export function countResponse(response: Response, event: H3Event): void {
  const matched = (event.context.matchedRoute as { route?: string } | undefined) ?? UNMATCHED;
  // A method nobody routes would otherwise add a label value per made-up word.
  const method = METHODS.has(event.req.method) ? event.req.method : "other";
  const cells = routeCells(matched, method);
  const status = response.status;
  let counter = cells.byStatus.get(status);
  if (!counter) cells.byStatus.set(status, (counter = httpRequests.cell({ route: matched.route ?? "unmatched", method, status: String(status) })));
  counter.value += 1;
  const started = event.context.startedAt;
  if (started !== undefined) cells.timing.observe((performance.now() - started) / 1000);
}

/** The kind of limit a 429 problem reports, by its slug (src/web/problem.ts). */
const LIMIT_KINDS: Record<string, string> = {
  "rate-limit-exceeded": "key",
  "organization-rate-limit-exceeded": "organization",
  "batch-jobs-in-flight": "batch_jobs",
  "batch-uploads-in-flight": "batch_uploads",
  "batch-downloads-in-flight": "batch_downloads",
};

/** A problem answer: its type's slug, and for a rate limit's 429 the limit that refused it. */
export function countProblem(type: string): void {
  const slug = type.slice(type.lastIndexOf("/") + 1);
  problems.inc({ type: slug });
  const kind = LIMIT_KINDS[slug];
  if (kind) rateLimited.inc({ kind });
}
