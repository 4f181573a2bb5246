/**
 * One HTTP POST of a delivery, through node:http(s) rather than fetch so that the connection's
 * address can be checked (address-guard.ts), redirects are never followed (a 3xx is a failure,
 * as Standard Webhooks advises) and one deadline covers connecting, sending and the answer.
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { guardedLookup, isAllowedAddress } from "./address-guard.ts";

export interface PostResult {
  statusCode: number | null;
  retryAfter: string | null;
  error: string | null;
  latencyMs: number;
}

export interface PostOptions {
  timeoutMs: number;
  /** Refuse non-public addresses (webhooks of live keys). */
  publicOnly: boolean;
}

// Keep-alive agents: a receiver gets many deliveries, and a new TLS handshake for each is waste.
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** At most this much of a receiver's answer is read; the rest is discarded with the socket. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export function postJson(target: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, retryAfter: string | null, error: string | null): PostResult => ({
    statusCode,
    retryAfter,
    error,
    latencyMs: performance.now() - started,
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return resolve(done(null, null, "invalid URL"));
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (options.publicOnly && isIP(host) && !isAllowedAddress(host, new Set())) {
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
      ...(options.publicOnly && { lookup: guardedLookup(new Set()) }),
    });
    const timer = setTimeout(() => {
      finish(done(null, null, `timed out after ${options.timeoutMs} ms`));
      request.destroy();
    }, options.timeoutMs);
    request.on("response", (response) => {
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) response.destroy();
      });
      const complete = () => {
        const retryAfter = response.headers["retry-after"];
        finish(done(response.statusCode ?? null, typeof retryAfter === "string" ? retryAfter : null, null));
      };
      response.on("end", complete);
      response.on("close", complete);
      response.on("error", complete);
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      const reason = error.code === "EBLOCKED" ? `refused: ${error.message}` : `${error.code ?? "error"}: ${error.message}`;
      finish(done(null, null, reason));
    });
    request.end(body);
  });
}
