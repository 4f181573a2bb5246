/**
 * Which methods each known path takes, so that a known path asked with another method answers
 * 405 with `Allow` (RFC 9110 §15.5.6) rather than 404, which would say the resource is not there.
 * Consulted only when the router found nothing, so the hot path pays nothing for it.
 */
import type { H3Event, HTTPError } from "h3";
import { problem } from "../web/problem.ts";

export class AllowedMethods {
  readonly #routes: Array<{ path: string; pattern: RegExp; methods: Set<string> }> = [];

  add(method: string, path: string): void {
    // Routes differing only in a parameter's name are one path: /webhooks/:id and /webhooks/:webhook_id.
    const shape = path.replace(/:[^/]+/g, ":");
    let route = this.#routes.find((r) => r.path === shape);
    if (!route) {
      const source = shape.split("/").map((part) => (part === ":" ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
      this.#routes.push((route = { path: shape, pattern: new RegExp(`^${source}$`), methods: new Set() }));
    }
    route.methods.add(method.toUpperCase());
    // h3 answers HEAD from a GET route.
    if (method.toUpperCase() === "GET") route.methods.add("HEAD");
  }

  /** The methods the path takes, or null when no route has this path. */
  of(pathname: string): string[] | null {
    const route = this.#routes.find((r) => r.pattern.test(pathname));
    return route ? [...route.methods] : null;
  }

  /** A 405 problem for an unrouted request whose path is known; null leaves the error as it is. */
  wrongMethod(error: HTTPError, event: H3Event): HTTPError | null {
    if (error.status !== 404 || (error.data as { slug?: string } | undefined)?.slug) return null;
    const methods = this.of(event.url.pathname);
    if (!methods || methods.includes(event.req.method)) return null;
    const allow = methods.join(", ");
    return problem("method-not-allowed", `${event.req.method} is not allowed on ${event.url.pathname}; it takes ${allow}.`, { headers: { allow } });
  }
}
