/**
 * Applies the key's and the organization's token buckets and writes the RateLimit headers on every
 * response: the key's, except on a refusal by the organization's bucket, where they describe that
 * bucket (docs/api/README.md, "Rate limits").
 */
import type { H3Event, Middleware } from "h3";
import { setAnswerHeader } from "./answer-headers.ts";
import type { ApiContext } from "./context.ts";
import { problem } from "../web/problem.ts";

export function limitRequests(ctx: ApiContext): Middleware {
  return async (event: H3Event) => {
    const principal = event.context.principal;
    if (!principal) throw new Error("limitRequests runs after authenticate");
    const decision = event.context.rateDecision ?? (await ctx.limiter.consume(principal.keyId, principal.organizationId, ctx.now().getTime()));
    setAnswerHeader(event, "ratelimit-limit", String(decision.limit));
    setAnswerHeader(event, "ratelimit-remaining", String(decision.remaining));
    setAnswerHeader(event, "ratelimit-reset", String(decision.resetSeconds));
    if (!decision.allowed) {
      const headers = { headers: { "retry-after": String(decision.retryAfterSeconds) } };
      if (decision.scope === "organization") {
        throw problem(
          "organization-rate-limit-exceeded",
          `This organization may make ${decision.limit} requests per second across all its API keys. Wait ${decision.retryAfterSeconds} s and retry.`,
          headers,
        );
      }
      throw problem("rate-limit-exceeded", `This key may make ${decision.limit} requests per second. Wait ${decision.retryAfterSeconds} s and retry.`, headers);
    }
    ctx.usage?.record(principal.keyId);
  };
}
