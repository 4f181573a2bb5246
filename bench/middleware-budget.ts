/**
 * What each piece of the request path costs a county lookup, in µs, and the budget each is held to
 * (docs/operations/benchmarks.md, "Middleware budget"). Each piece is the service's own function, run in a
 * loop of its own with the input a county lookup gives it, so the figure is its CPU alone; what only a
 * socket can show (Node's HTTP parser, the connection guards, h3's hooks) is the end-to-end figures'
 * difference, which bench/request-cpu.ts reports beside these.
 */
import type { H3Event } from "h3";
import { newId } from "../src/ids.ts";
import { logResponse } from "../src/http/access-log.ts";
import { jsonAnswer } from "../src/http/answer-headers.ts";
import { AnswerKey, CachedAnswers } from "../src/http/cached-answers.ts";
import { countResponse } from "../src/http/request-metrics.ts";
import { readQuery } from "../src/http/query.ts";
import { MemoryRateLimiter } from "../src/http/rate-limit.ts";
import { RATE_QUERY } from "../src/http/routes/rates.ts";
import { TextMemo } from "../src/http/text-memo.ts";
import type { Db } from "../src/store/database.ts";
import { UsageRecorder } from "../src/usage/usage-recorder.ts";
import { combineFields, type LookupItem } from "../src/lookup/lookup-item.ts";
import { loadShippedData } from "../src/load-data.ts";
import { join } from "node:path";
import { root } from "./start-process.ts";

/** A piece, its figure and its budget: what the next feature may spend is the budget less the figure. */
export interface MiddlewareCost {
  piece: string;
  us: number;
  budget_us: number;
}

/** Microseconds per call of `work` (synchronous), after a warm-up, the median of five one-second-or-more spans. */
function perCall(work: () => unknown): number {
  for (let i = 0; i < 50_000; i++) work();
  const spans: number[] = [];
  for (let span = 0; span < 5; span++) {
    let calls = 0;
    const started = performance.now();
    while (performance.now() - started < 200) {
      for (let i = 0; i < 1000; i++) work();
      calls += 1000;
    }
    spans.push(((performance.now() - started) * 1000) / calls);
  }
  spans.sort((a, b) => a - b);
  return Math.round(spans[2]! * 1000) / 1000;
}

const COUNTY_QUERY = "?county=franklin";

/** The event fields the pieces read, as a county lookup's request gives them. */
function countyEvent(): H3Event {
  const url = new URL(`http://127.0.0.1${"/api/v1/rates"}${COUNTY_QUERY}`);
  return {
    url,
    req: { method: "GET" },
    context: { requestId: newId("req"), startedAt: performance.now(), matchedRoute: { route: "/api/v1/rates" } },
  } as unknown as H3Event;
}

export function measureMiddleware(): MiddlewareCost[] {
  const event = countyEvent();
  const limiter = new MemoryRateLimiter({ perKey: 1e7, perOrganization: 1e7 });
  const memo = new TextMemo<LookupItem>(4096);
  const readCounty = () => combineFields(readQuery(event, RATE_QUERY, new Set(["date"])), "2026-06-01") as LookupItem;
  const item = readCounty();
  const asOf = { lastReconciled: "2026-06-01", confirmedThrough: "2026-09-30" };
  const data = loadShippedData(join(root, "data"));
  const answers = new CachedAnswers(async () => {
    throw new Error("a kept body is never rebuilt here");
  });
  const itemKey = CachedAnswers.itemKey(item);
  const answerKey = new AnswerKey(itemKey);
  const key = answerKey.of(asOf, null);
  void answers.answer(data.table, key, item, { lastReconciled: asOf.lastReconciled, confirmedThrough: asOf.confirmedThrough, requestId: "x" } as never, { countyOrZip: true, version: null }).catch(() => {});
  const body = JSON.stringify({ county: "Franklin", request_id: "req_0", combined_rate: "0.0800" });
  const response = new Response("");
  const access = logResponse(() => {}, { slowMs: 1000, everyRequest: false });
  // Never started, so it never writes: what a request pays is the count in memory.
  const usage = new UsageRecorder(null as unknown as Db, { flushIntervalMs: 60_000 });
  return [
    { piece: "request id (`newId`)", us: perCall(() => newId("req")), budget_us: 0.5 },
    { piece: "query read and checked (`readQuery`, `combineFields`), first time", us: perCall(readCounty), budget_us: 3 },
    { piece: "query read, the same text again (`TextMemo`)", us: perCall(() => memo.get(COUNTY_QUERY, readCounty)), budget_us: 0.2 },
    { piece: "rate limits, key and organization (`MemoryRateLimiter.consume`)", us: perCall(() => limiter.consume("key_1", "org_1", Date.now())), budget_us: 0.5 },
    { piece: "body cache key and reuse (`AnswerKey.of`, `find`)", us: perCall(() => answers.find(data.table, answerKey.of(asOf, null), "req_1")), budget_us: 1 },
    { piece: "answer built (`jsonAnswer`)", us: perCall(() => jsonAnswer(event, body)), budget_us: 1 },
    { piece: "the key's usage, counted by outcome (`UsageRecorder.record`)", us: perCall(() => usage.record("key_1", 200)), budget_us: 0.5 },
    { piece: "metrics, counted and timed (`countResponse`)", us: perCall(() => countResponse(response, event)), budget_us: 0.3 },
    { piece: "access log, a request below SLOW_REQUEST_MS (`logResponse`)", us: perCall(() => access(response, event)), budget_us: 0.3 },
  ];
}
