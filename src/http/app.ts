/**
 * The h3 application. A request passes, in order: request id (and HSTS over https; the onRequest hook) → (for /api/v1) admission (the key,
 * then the rate limits: admit-request.ts) → route → error hook → response hook (answer headers, the key's usage, metrics, access log). Handlers return
 * data or throw a problem; the error hook is the one place a thrown value becomes an HTTP response.
 */
import { H3, type EventHandler, type H3Event, type HTTPError, type RouteOptions } from "h3";
import { errorFields } from "../error-fields.ts";
import { newId } from "../ids.ts";
import { logResponse, type AccessLogOptions } from "./access-log.ts";
import { AllowedMethods } from "./allowed-methods.ts";
import { addAnswerHeaders, setAnswerHeader } from "./answer-headers.ts";
import { admitRequest } from "./admit-request.ts";
import type { ApiContext } from "./context.ts";
import { toProblemDetails } from "../web/problem.ts";
import { createCertificate, getCertificate, getCertificates, removeCertificate } from "./routes/certificates.ts";
import { getCounties } from "./routes/counties.ts";
import { getReconciliations } from "./routes/reconciliations.ts";
import { getReturn } from "./routes/returns.ts";
import {
  createWebhook,
  getDeliveries,
  getWebhook,
  getWebhooks,
  patchWebhook,
  recoverWebhook,
  redeliverDelivery,
  removeWebhook,
  rotateSecret,
  sendTestEvent,
} from "./routes/webhooks.ts";
import { postRatesBatch } from "./routes/batch.ts";
import { deleteBatch, getBatch, getBatchResults, postBatch, postOrderBatch } from "./routes/batches.ts";
import { getRates } from "./routes/rates.ts";
import { getReadyz } from "./routes/readyz.ts";
import { getTaxSettings, postTax, putTaxSettings } from "./routes/tax.ts";
import { createLocation, getLocation, getLocations, removeLocation } from "./routes/locations.ts";
import { getReplay, getTransaction, getTransactions, postRefund, postTransaction, postVoid } from "./routes/transactions.ts";
import { openApiDocument } from "./openapi.ts";
import type { Logger } from "../log.ts";
import { STRICT_TRANSPORT_SECURITY, isSecureRequest } from "../web/secure-request.ts";
import { FixedAnswer } from "../web/static-files.ts";
import { countProblem, countResponse } from "./request-metrics.ts";

/** The document changes only with a release: a client may keep it, but asks (with its ETag, for a 304) before each use. */
const OPENAPI_CACHE_CONTROL = "no-cache";


function problemResponse(ctx: ApiContext, error: HTTPError, event: H3Event, log: Logger): Response {
  const requestId = event.context.requestId ?? newId("req");
  const { headers: extra, ...body } = toProblemDetails(error, ctx.config.errorsUrl, requestId);
  countProblem(body.type);
  if (body.status >= 500) {
    // A 503 reports a state (an upstream down, no polygons yet), not a fault of ours, as in the access log: one line, no stack.
    const { stack, ...fields } = errorFields(error);
    const expected = body.status === 503;
    log({ level: expected ? "warn" : "error", request_id: requestId, path: event.url.pathname, problem: body.type.split("/").pop(), ...fields, ...(!expected && stack !== undefined && { stack }) });
  }
  const headers = new Headers(event.res.headers);
  headers.set("content-type", "application/problem+json");
  headers.set("x-request-id", requestId);
  for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
  return new Response(JSON.stringify(body), { status: body.status, headers });
}

/** `countRequests`: add each answer to the request metrics (src/http/request-metrics.ts); on only with a metrics listener to read them. */
export function createApp(ctx: ApiContext, log: Logger = () => {}, access?: AccessLogOptions, countRequests = false): H3 {
  const allowed = new AllowedMethods();
  const logAccess = access && logResponse(log, access);
  // Without a metrics listener nobody reads the request counts, so a request does not pay for them.
  const count = countRequests ? countResponse : undefined;
  const app = new H3({
    silent: true,
    // A hook rather than a middleware: it runs for every request without a layer of h3's middleware chain around it.
    onRequest: (event) => {
      const requestId = newId("req");
      event.context.startedAt = performance.now();
      event.context.requestId = requestId;
      setAnswerHeader(event, "x-request-id", requestId);
      // Every answer that came over https (API, dashboard, reference) tells the browser to stay on it.
      if (isSecureRequest(event)) setAnswerHeader(event, "strict-transport-security", STRICT_TRANSPORT_SECURITY);
    },
    onError: (error, event) => problemResponse(ctx, allowed.wrongMethod(error, event) ?? error, event, log),
    onResponse: (response, event) => {
      addAnswerHeaders(event, response);
      // Once per request with a good key, whatever its outcome (a 400, a 429, a 500 included), once the status is known.
      const principal = event.context.principal;
      if (principal !== undefined) ctx.usage?.record(principal.keyId, response.status);
      count?.(response, event);
      logAccess?.(response, event);
    },
  });

  const api = [admitRequest(ctx)];
  const route = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, handler: EventHandler, options?: RouteOptions) => {
    app.on(method, path, handler, options);
    allowed.add(method, path);
  };
  route("GET", "/api/v1/rates", getRates(ctx), { middleware: api });
  route("POST", "/api/v1/rates/batch", postRatesBatch(ctx), { middleware: api });
  route("POST", "/api/v1/batches", postBatch(ctx), { middleware: api });
  route("GET", "/api/v1/batches/:id", getBatch(ctx), { middleware: api });
  route("DELETE", "/api/v1/batches/:id", deleteBatch(ctx), { middleware: api });
  route("GET", "/api/v1/batches/:id/results", getBatchResults(ctx), { middleware: api });
  route("GET", "/api/v1/counties", getCounties(ctx), { middleware: api });
  route("POST", "/api/v1/webhooks", createWebhook(ctx), { middleware: api });
  route("GET", "/api/v1/webhooks", getWebhooks(ctx), { middleware: api });
  route("GET", "/api/v1/webhooks/:id", getWebhook(ctx), { middleware: api });
  route("PATCH", "/api/v1/webhooks/:id", patchWebhook(ctx), { middleware: api });
  route("DELETE", "/api/v1/webhooks/:id", removeWebhook(ctx), { middleware: api });
  route("POST", "/api/v1/webhooks/:id/rotate-secret", rotateSecret(ctx), { middleware: api });
  route("POST", "/api/v1/webhooks/:id/test", sendTestEvent(ctx), { middleware: api });
  route("GET", "/api/v1/webhooks/:id/deliveries", getDeliveries(ctx), { middleware: api });
  route("POST", "/api/v1/webhooks/:id/deliveries/:delivery_id/redeliver", redeliverDelivery(ctx), { middleware: api });
  route("POST", "/api/v1/webhooks/:id/recover", recoverWebhook(ctx), { middleware: api });
  route("POST", "/api/v1/certificates", createCertificate(ctx), { middleware: api });
  route("GET", "/api/v1/certificates", getCertificates(ctx), { middleware: api });
  route("GET", "/api/v1/certificates/:id", getCertificate(ctx), { middleware: api });
  route("DELETE", "/api/v1/certificates/:id", removeCertificate(ctx), { middleware: api });
  route("GET", "/api/v1/reconciliations", getReconciliations(ctx), { middleware: api });
  route("GET", "/api/v1/returns/:period", getReturn(ctx), { middleware: api });
  route("POST", "/api/v1/tax", postTax(ctx), { middleware: api });
  route("POST", "/api/v1/tax/batches", postOrderBatch(ctx), { middleware: api });
  route("GET", "/api/v1/tax/settings", getTaxSettings(ctx), { middleware: api });
  route("PUT", "/api/v1/tax/settings", putTaxSettings(ctx), { middleware: api });
  route("POST", "/api/v1/locations", createLocation(ctx), { middleware: api });
  route("GET", "/api/v1/locations", getLocations(ctx), { middleware: api });
  route("GET", "/api/v1/locations/:id", getLocation(ctx), { middleware: api });
  route("DELETE", "/api/v1/locations/:id", removeLocation(ctx), { middleware: api });
  route("POST", "/api/v1/transactions", postTransaction(ctx), { middleware: api });
  route("GET", "/api/v1/transactions", getTransactions(ctx), { middleware: api });
  route("GET", "/api/v1/transactions/:id", getTransaction(ctx), { middleware: api });
  route("POST", "/api/v1/transactions/:id/refunds", postRefund(ctx), { middleware: api });
  route("POST", "/api/v1/transactions/:id/void", postVoid(ctx), { middleware: api });
  route("GET", "/api/v1/transactions/:id/replay", getReplay(ctx), { middleware: api });

  route("GET", "/healthz", () => ({ status: "ok" }));
  const openApi = new FixedAnswer("application/json", Buffer.from(JSON.stringify(openApiDocument())), OPENAPI_CACHE_CONTROL);
  route("GET", "/api/v1/openapi.json", (event) => openApi.answer(event.req));
  route("GET", "/readyz", getReadyz(ctx));
  return app;
}
