/**
 * The headers every answer carries — `x-request-id`, and the RateLimit fields on /api/v1 — kept as
 * a plain list on the event until the answer is built, instead of in h3's `event.res.headers`.
 *
 * Why: `event.res.headers` is undici's `Headers`, which checks every value it is given (WebIDL
 * ByteString, a header-name pattern) and is copied and sorted again on the way out. For a county
 * lookup those five sets and the copy were about 1.5 µs of a 20 µs request on SQLite and 3 µs with
 * Redis (docs/operations/benchmarks.md, "Answer headers without undici's Headers"). Our names are
 * constants and our values are ids and numbers, so the checks can never fail here.
 *
 * An answer built by `jsonAnswer` is srvx's `FastResponse` (the response class h3 itself returns
 * on Node) given the list as it is; srvx writes it to the socket without a `Headers` in between.
 * Every other answer — plain objects, problem responses, dashboard pages — gets the list in the
 * app's response hook (`addAnswerHeaders`), so no route can forget it.
 */
import type { H3Event } from "h3";
import { FastResponse } from "srvx";

declare module "h3" {
  interface H3EventContext {
    /** Headers for the answer, as name/value pairs; emptied once an answer carries them. */
    answerHeaders?: Array<[string, string]>;
  }
}

export function setAnswerHeader(event: H3Event, name: string, value: string): void {
  (event.context.answerHeaders ??= []).push([name, value]);
}

/** A 200 JSON answer from an already serialized body, carrying the event's answer headers. */
export function jsonAnswer(event: H3Event, body: string): Response {
  const headers = event.context.answerHeaders ?? [];
  event.context.answerHeaders = undefined;
  headers.push(["content-type", "application/json;charset=UTF-8"]);
  return new FastResponse(body, { headers });
}

/** Gives `response` the event's answer headers it does not set itself (the response hook calls it for every answer). */
export function addAnswerHeaders(event: H3Event, response: Response): void {
  const pending = event.context.answerHeaders;
  if (!pending?.length) return;
  event.context.answerHeaders = undefined;
  for (const [name, value] of pending) if (!response.headers.has(name)) response.headers.set(name, value);
}
