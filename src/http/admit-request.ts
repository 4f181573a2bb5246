/**
 * Admits an API request: its key, then its rate limits, in that order in every deployment.
 *
 * Bearer API keys (docs/api/errors.md): no header or no `tax_live_`/`tax_test_`
 * key → 401 unauthorized; a key that fails its checksum, is unknown, revoked or belongs to a
 * suspended organization → 401 invalid-api-key. A revocation or suspension committed anywhere is
 * refused from the next request on, without reading the key per request: a verdict is kept in
 * process and trusted only while the key tables' epoch it was read at holds (src/auth/key-verdicts.ts,
 * src/auth/key-check.ts).
 *
 * Then the key's and the organization's token buckets, with the RateLimit headers on every
 * response: the key's, except on a refusal by the organization's bucket, where they describe that
 * bucket (docs/api/README.md, "Rate limits").
 *
 * For a key whose cached verdict is good, the epoch read and the token take start together: with
 * Redis both commands go out in one turn on one connection and come back in one round trip, and
 * no other. A token taken for a key that turns out revoked (or whose organization was suspended)
 * is not given back. The key's own bucket is drawn from by nobody any more, but the organization's
 * is shared: its other keys (in trial, every trial organization on the shared bucket) have one token
 * fewer until it refills. Only requests that find the old verdict cached take one: the first to read
 * the new verdict caches it, and later requests are refused before any bucket is drawn from.
 */
import type { H3Event, Middleware } from "h3";
import type { Principal, Verification } from "../auth/key-service.ts";
import { problem } from "../web/problem.ts";
import { setAnswerHeader } from "./answer-headers.ts";
import type { ApiContext } from "./context.ts";
import { ratesFor, type RateDecision } from "./rate-limit.ts";

/**
 * The organization bucket a principal draws from: its organization's, or, for an organization in
 * trial, the one bucket every trial organization shares, so organizations made by open sign-up
 * add nothing to the rate the service gives away, however many are made (docs/guides/dashboard.md,
 * "Trial organizations"). Organization ids start with `org_`, so this name is no organization's.
 * A trial organization an operator gave a rate of its own draws from its own bucket at that rate
 * (docs/operations/organization-limits.md).
 */
export const TRIAL_BUCKET = "trial";

function organizationBucket(principal: Principal): string {
  return principal.trial && principal.limits.requestsPerSecondPerOrganization === null ? TRIAL_BUCKET : principal.organizationId;
}

/** A good key's principal and the rate-limit decision for this request, or why the key is refused. */
type Admission = { principal: Principal; decision: RateDecision } | { refused: (Verification & { ok: false })["reason"] };

/** The key's verdict and, for a good key, the decision of its buckets. */
async function admit(ctx: ApiContext, key: string): Promise<Admission> {
  const { verdicts } = ctx.keys;
  const hit = verdicts.peek(key);
  if (hit?.verdict.ok) {
    const cached = hit.verdict.principal;
    const taking = ctx.limiter.consume(cached.keyId, organizationBucket(cached), ctx.now().getTime(), cached.limits);
    const epoch = await ctx.keys.epoch();
    const verdict = epoch !== undefined && epoch === hit.epoch ? hit.verdict : await verdicts.read(key, epoch);
    if (!verdict.ok) return { refused: verdict.reason };
    // The in-process buckets decide at once: awaiting their decision would cost a promise per request.
    const decision = taking instanceof Promise ? await taking : taking;
    // An organization verified, or given rates of its own, since the verdict was cached: its buckets as they are now
    // decide, from this request on. The request was taken under the old rates too and that token is not given back,
    // so after a raise (or a verification) it is admitted when either take admits it: a raise never refuses the requests
    // that bring it. After a cut the new rates alone decide (docs/operations/organization-limits.md).
    if (verdict !== hit.verdict && (verdict.principal.trial !== cached.trial || !sameRates(verdict.principal, cached))) {
      const { principal } = verdict;
      const again = await ctx.limiter.consume(principal.keyId, organizationBucket(principal), ctx.now().getTime(), principal.limits);
      const lenient = decision.allowed && !again.allowed && !isCut(ctx, cached, principal);
      return { principal, decision: lenient ? { ...again, allowed: true, retryAfterSeconds: 0 } : again };
    }
    return { principal: verdict.principal, decision };
  }
  const verdict = await verdicts.check(key, await ctx.keys.epoch());
  if (!verdict.ok) return { refused: verdict.reason };
  const { principal } = verdict;
  return { principal, decision: await ctx.limiter.consume(principal.keyId, organizationBucket(principal), ctx.now().getTime(), principal.limits) };
}

/** Whether either rate is lower for `now` than it was for `before`. */
function isCut(ctx: ApiContext, before: Principal, now: Principal): boolean {
  const [old, next] = [ratesFor(ctx.config.rateLimits, before.limits), ratesFor(ctx.config.rateLimits, now.limits)];
  return next.perKey < old.perKey || next.perOrganization < old.perOrganization;
}

function sameRates(a: Principal, b: Principal): boolean {
  return (
    a.limits.requestsPerSecondPerKey === b.limits.requestsPerSecondPerKey && a.limits.requestsPerSecondPerOrganization === b.limits.requestsPerSecondPerOrganization
  );
}

const BEARER = /^Bearer[ \t]+(tax_(?:live|test)_\S*)\s*$/i;

/** Both ways to a key: the dashboard for a customer, the CLI for an operator (README, docs/reference/cli.md). */
const WHERE_KEYS_COME_FROM = "in the dashboard (/dashboard), or by an operator with `npx buckeye key create --org <org_id> --label <label>`";

const INVALID_KEY = {
  malformed: "This is not a valid API key: its checksum does not match, so it was probably mistyped or cut short.",
  unknown: "No such API key.",
  revoked: `This API key has been revoked. Create a new key ${WHERE_KEYS_COME_FROM}.`,
  suspended: "This API key belongs to a suspended organization.",
};

export function admitRequest(ctx: ApiContext): Middleware {
  return async (event: H3Event) => {
    const header = event.req.headers.get("authorization");
    const key = header ? BEARER.exec(header)?.[1] : undefined;
    if (!key) {
      throw problem(
        "unauthorized",
        header
          ? "The Authorization header must be `Bearer <key>` with a key that starts with tax_live_ or tax_test_."
          : `Send your API key as \`Authorization: Bearer <key>\`. Keys are created ${WHERE_KEYS_COME_FROM}.`,
        { headers: { "www-authenticate": 'Bearer realm="buckeye"' } },
      );
    }
    const admission = await admit(ctx, key);
    if ("refused" in admission) {
      throw problem("invalid-api-key", INVALID_KEY[admission.refused], { headers: { "www-authenticate": 'Bearer realm="buckeye", error="invalid_token"' } });
    }
    // Set before the limits decide, so the key's usage counts a 429 too (counted in the response hook, src/http/app.ts).
    event.context.principal = admission.principal;
    limit(event, admission.decision, admission.principal);
  };
}

function limit(event: H3Event, decision: RateDecision, principal: Principal): void {
  setAnswerHeader(event, "ratelimit-limit", String(decision.limit));
  setAnswerHeader(event, "ratelimit-remaining", String(decision.remaining));
  setAnswerHeader(event, "ratelimit-reset", String(decision.resetSeconds));
  if (decision.allowed) return;
  const headers = { headers: { "retry-after": String(decision.retryAfterSeconds) } };
  if (decision.scope === "organization" && organizationBucket(principal) === TRIAL_BUCKET) {
    throw problem(
      "organization-rate-limit-exceeded",
      `This organization is in trial, and organizations in trial share ${decision.limit} requests per second across all their API keys until an operator verifies them. Wait ${decision.retryAfterSeconds} s and retry.`,
      headers,
    );
  }
  if (decision.scope === "organization") {
    throw problem(
      "organization-rate-limit-exceeded",
      `This organization may make ${decision.limit} requests per second across all its API keys. Wait ${decision.retryAfterSeconds} s and retry.`,
      headers,
    );
  }
  throw problem("rate-limit-exceeded", `This key may make ${decision.limit} requests per second. Wait ${decision.retryAfterSeconds} s and retry.`, headers);
}
