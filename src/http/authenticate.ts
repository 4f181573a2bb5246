/**
 * Bearer API keys (spec §5): no header or no `tax_live_`/`tax_test_` key → 401 unauthorized;
 * a key that fails its checksum, is unknown, revoked or belongs to a suspended organization →
 * 401 invalid-api-key. The store is read on every request, so revocation is immediate.
 */
import type { H3Event, Middleware } from "h3";
import { verifyKey } from "../auth/key-service.ts";
import type { ApiContext } from "./context.ts";
import { problem } from "./problem.ts";

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
    const verdict = await verifyKey(ctx.findKeys, key);
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
