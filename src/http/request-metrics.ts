/**
 * What every answer adds to the metrics (docs/operations/metrics.md): its route's template (the
 * pattern h3 matched, never the path or the query, which hold customers' addresses; `unmatched`
 * when no route took it), method and status, and its time. The labelled children are kept, so an
 * answer costs two map reads and two additions, not a label hash each.
 */
import type { H3Event } from "h3";
import { httpRequests, httpRequestSeconds, problems, rateLimited } from "../metrics.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const counted = new Map<string, { inc(): void }>();
const timed = new Map<string, { observe(value: number): void }>();

export function countResponse(response: Response, event: H3Event): void {
  const route = (event.context.matchedRoute as { route?: string } | undefined)?.route ?? "unmatched";
  // A method nobody routes would otherwise add a label value per made-up word.
  const method = METHODS.has(event.req.method) ? event.req.method : "other";
  const key = `${method} ${route}`;
  const status = response.status;
  const countKey = `${key} ${status}`;
  let counter = counted.get(countKey);
  if (!counter) counted.set(countKey, (counter = httpRequests.labels(route, method, String(status))));
  counter.inc();
  const started = event.context.startedAt;
  if (started === undefined) return;
  let histogram = timed.get(key);
  if (!histogram) timed.set(key, (histogram = httpRequestSeconds.labels(route, method)));
  histogram.observe((performance.now() - started) / 1000);
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
