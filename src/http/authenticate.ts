/**
 * Bearer API keys (spec §5): no header or no `tax_live_`/`tax_test_` key → 401 unauthorized;
 * a key that fails its checksum, is unknown, revoked or belongs to a suspended organization →
 * 401 invalid-api-key. A revocation or suspension committed anywhere is refused from the next
 * request on, without reading the key per request: a verdict is kept in process and trusted only
 * while the key tables' epoch it was read at holds (src/auth/key-verdicts.ts). The epoch comes
 * from SQLite's WAL-index header, from PostgreSQL, or, when the rate limits live in Redis, from the
 * same script call that takes the request's token (redis-rate-limiter.ts), so a request whose
 * key is known makes that one round trip and no other. Either read is shared by the requests of one
 * event-loop turn and starts after all of them arrived (src/per-turn.ts).
 */
import type { H3Event, Middleware } from "h3";
import type { Verification } from "../auth/key-service.ts";
import type { ApiContext } from "./context.ts";
import { problem } from "../web/problem.ts";
import type { RateDecision } from "./rate-limit.ts";

declare module "h3" {
  interface H3EventContext {
    /** The token taken while checking the key (Redis mode); limitRequests uses it instead of taking another. */
    rateDecision?: RateDecision;
  }
}

async function check(ctx: ApiContext, event: H3Event, key: string): Promise<Verification> {
  const { verdicts } = ctx.keys;
  if (!ctx.limiter.reportsKeyEpoch) return verdicts.check(key, await ctx.keys.epoch());
  const hit = verdicts.peek(key);
  // Only a key known to be good has a bucket to take from; any other is read from the store.
  if (!hit?.verdict.ok) return verdicts.read(key, undefined);
  const decision = await ctx.limiter.consume(hit.verdict.principal.keyId, hit.verdict.principal.organizationId, ctx.now().getTime());
  event.context.rateDecision = decision;
  if (decision.keyEpoch !== undefined && decision.keyEpoch === hit.epoch) return hit.verdict;
  return verdicts.read(key, decision.keyEpoch);
}

const BEARER = /^Bearer[ \t]+(tax_(?:live|test)_\S*)\s*$/i;

export function authenticate(ctx: ApiContext): Middleware {
  return async (event: H3Event) => {
    const header = event.req.headers.get("authorization");
    const key = header ? BEARER.exec(header)?.[1] : undefined;
    if (!key) {
      throw problem(
        "unauthorized",
        header
          ? "The Authorization header must be `Bearer <key>` with a key that starts with tax_live_ or tax_test_."
          : "Send your API key as `Authorization: Bearer <key>`. Keys are created in the dashboard.",
        { headers: { "www-authenticate": 'Bearer realm="buckeye"' } },
      );
    }
    const verdict = await check(ctx, event, key);
    if (!verdict.ok) {
      const detail = {
        malformed: "This is not a valid API key: its checksum does not match, so it was probably mistyped or cut short.",
        unknown: "No such API key.",
        revoked: "This API key has been revoked. Create a new key in the dashboard.",
        suspended: "This API key belongs to a suspended organization.",
      }[verdict.reason];
      throw problem("invalid-api-key", detail, { headers: { "www-authenticate": 'Bearer realm="buckeye", error="invalid_token"' } });
    }
    event.context.principal = verdict.principal;
  };
}
