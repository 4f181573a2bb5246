/**
 * One HTTP POST of a delivery, through node:http(s) rather than fetch so that the connection's
 * address can be checked (address-guard.ts), redirects are never followed (a 3xx is a failure,
 * as Standard Webhooks advises) and one deadline covers connecting, sending and the answer.
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { guardedLookup, isAllowedAddress, type AllowedTargets } from "./address-guard.ts";

export interface PostResult {
  statusCode: number | null;
  retryAfter: string | null;
  /** What the customer's delivery log shows. */
  error: string | null;
  /** The socket error's code, for the operator's log only: to a customer it would tell open ports from closed ones. */
  cause: string | null;
  latencyMs: number;
  /** The start of the receiver's answer, for the customer's delivery log; null when none came. */
  response: { excerpt: string; truncated: boolean } | null;
}

export interface PostOptions {
  timeoutMs: number;
  /** Non-public address kinds that may be reached; every other non-public address is refused. */
  allowed: AllowedTargets;
}

// Keep-alive agents: a receiver gets many deliveries, and a new TLS handshake for each is waste.
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** At most this much of a receiver's answer is read; the rest is discarded with the socket. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** This much of it is kept for the delivery log: enough for an error message, bounded for the database. */
export const RESPONSE_EXCERPT_BYTES = 2048;

/** UTF-8 text of the first bytes (a character cut in two becomes U+FFFD); NUL, which PostgreSQL's text refuses, too. */
function excerptOf(chunks: Buffer[], read: number): { excerpt: string; truncated: boolean } {
  const head = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  return { excerpt: head.toString("utf8").replaceAll("\u0000", "\uFFFD"), truncated: read > RESPONSE_EXCERPT_BYTES };
}

export function postJson(target: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, retryAfter: string | null, error: string | null, cause: string | null = null, response: PostResult["response"] = null): PostResult => ({
    statusCode,
    retryAfter,
    error,
    cause,
    latencyMs: performance.now() - started,
    response,
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return resolve(done(null, null, "invalid URL"));
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !isAllowedAddress(host, options.allowed)) {
      return resolve(done(null, null, `refused: ${host} is not a public address`));
    }
    const client = url.protocol === "https:" ? https : http;
    const agent = url.protocol === "https:" ? agents["https:"] : agents["http:"];
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(url, {
      method: "POST",
      agent,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: guardedLookup(options.allowed),
    });
    const timer = setTimeout(() => {
      finish(done(null, null, `timed out after ${options.timeoutMs} ms`));
      request.destroy();
    }, options.timeoutMs);
    request.on("response", (response) => {
      let read = 0;
      const kept: Buffer[] = [];
      response.on("data", (chunk: Buffer) => {
        if (read < RESPONSE_EXCERPT_BYTES) kept.push(chunk);
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) response.destroy();
      });
      const complete = () => {
        const retryAfter = response.headers["retry-after"];
        finish(done(response.statusCode ?? null, typeof retryAfter === "string" ? retryAfter : null, null, null, excerptOf(kept, read)));
      };
      response.on("end", complete);
      response.on("close", complete);
      response.on("error", complete);
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EBLOCKED") return finish(done(null, null, `refused: ${error.message}`));
      if (error.code === "ENOTFOUND") return finish(done(null, null, `${url.hostname} does not resolve`, error.code));
      // Refused, reset, TLS failure or anything else before an HTTP answer: one wording for all.
      finish(done(null, null, "connection failed before an HTTP answer", `${error.code ?? "error"}: ${error.message}`));
    });
    request.end(body);
  });
}
