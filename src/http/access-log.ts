/**
 * One structured line per request, written when its response is ready (h3's onResponse):
 * request id, method, path (never the query, which may hold a customer's address), status,
 * duration and the API key's id. What reaches the log is chosen by cost: at LOG_LEVEL=debug every
 * request; otherwise only server errors and requests slower than SLOW_REQUEST_MS (level info),
 * so a busy instance does not spend its time writing lines nobody reads. A 503 is level warn, not
 * error: it reports a state (an upstream down), not a fault of ours. A 503 of /readyz is not even that:
 * it is the answer a probe asks for, every few seconds while the service loads or lacks its polygons,
 * whose reason the start-up log gives once; so it is logged as any request is (debug).
 */
import type { H3Event } from "h3";
import type { Logger } from "../log.ts";

declare module "h3" {
  interface H3EventContext {
    /** performance.now() when the request id was assigned. */
    startedAt?: number;
  }
}

export interface AccessLogOptions {
  slowMs: number;
  everyRequest: boolean;
}

export function logResponse(log: Logger, options: AccessLogOptions) {
  return (response: Response, event: H3Event): void => {
    const ms = performance.now() - (event.context.startedAt ?? performance.now());
    const status = response.status;
    const probe = event.url.pathname === "/readyz";
    const level = status === 503 && !probe ? "warn" : status >= 500 && !probe ? "error" : ms >= options.slowMs ? "info" : "debug";
    if (level === "debug" && !options.everyRequest) return;
    log({
      level,
      msg: level === "info" ? "slow request" : "request",
      request_id: event.context.requestId,
      method: event.req.method,
      path: event.url.pathname,
      status,
      ms: Math.round(ms * 10) / 10,
      ...(event.context.principal && { key_id: event.context.principal.keyId }),
    });
  };
}
