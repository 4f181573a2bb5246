/**
 * Whether a request reached the service over HTTPS: directly over TLS, or through the proxy in front
 * of it that says so in `X-Forwarded-Proto` (docs/operations/README.md, "Behind a proxy"). Cookies are
 * marked Secure and answers carry HSTS only then: over plain http a browser ignores HSTS, and a
 * Secure cookie would never come back.
 */
import type { H3Event } from "h3";

/** A year, the value HSTS preload lists ask for; no includeSubDomains, since the operator's other hosts are not ours to pin. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

export function isSecureRequest(event: H3Event): boolean {
  if (event.url.protocol === "https:") return true;
  const forwarded = event.req.headers.get("x-forwarded-proto");
  return forwarded !== null && forwarded.split(",")[0]!.trim().toLowerCase() === "https";
}
