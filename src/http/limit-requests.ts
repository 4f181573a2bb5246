/** Applies the per-key token bucket and writes the RateLimit headers on every response. */
import type { H3Event, Middleware } from "h3";
import { setAnswerHeader } from "./answer-headers.ts";
import type { ApiContext } from "./context.ts";
import { problem } from "../web/problem.ts";

export function limitRequests(ctx: ApiContext): Middleware {
  return async (event: H3Event) => {
    const principal = event.context.principal;
    if (!principal) throw new Error("limitRequests runs after authenticate");
    const decision = event.context.rateDecision ?? (await ctx.limiter.consume(principal.keyId, ctx.now().getTime()));
    setAnswerHeader(event, "ratelimit-limit", String(decision.limit));
    setAnswerHeader(event, "ratelimit-remaining", String(decision.remaining));
    setAnswerHeader(event, "ratelimit-reset", String(decision.resetSeconds));
    if (!decision.allowed) {
      throw problem(
        "rate-limit-exceeded",
        `This key may make ${decision.limit} requests per second. Wait ${decision.retryAfterSeconds} s and retry.`,
        { headers: { "retry-after": String(decision.retryAfterSeconds) } },
      );
    }
    ctx.usage?.record(principal.keyId);
  };
}
