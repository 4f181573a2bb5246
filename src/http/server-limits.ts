/**
 * Limits on the listening socket, so slow or idle connections cannot hold the process's file
 * descriptors: past the descriptor limit every new connection, legitimate or not, is reset and
 * nothing says why. A client must send its headers within `headersTimeoutMs`, its body at a minimum
 * rate (slow-clients.ts, which also makes room near the cap), and its whole request within
 * `requestTimeoutMs` (Node answers 408 and closes; it checks every 30 s); past `maxConnections`
 * new connections are closed at once and a warning says so. A request that asks `Expect:
 * 100-continue` is handed on without the 100: it is sent only when a route starts reading the body
 * (src/web/read-body.ts), after the key, the limits and the declared size have passed, so a refused
 * client never sends its body. Limits per client address belong to the proxy in front
 * (docs/operations/README.md).
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { Logger } from "../log.ts";
import { watchSlowClients } from "./slow-clients.ts";

export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** A body gets this long, plus a second for every `bodyMinBytesPerSecond` bytes it has sent. */
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  /** Connections held at once; null: three quarters of the process's open-file limit. */
  maxConnections: number | null;
}

/** When the limit cannot be read (not Linux): the Linux default soft limit's four times, a common server setting. */
const ASSUMED_OPEN_FILES = 4096;

/** The process's soft limit on open files, from /proc/self/limits; null where that cannot be read. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8").split("\n").find((l) => l.startsWith("Max open files"));
    const soft = line ? Number(line.slice("Max open files".length).trim().split(/\s+/)[0]) : Number.NaN;
    return Number.isFinite(soft) ? soft : null;
  } catch {
    return null;
  }
}

/**
 * The default cap: three quarters of the descriptors, so the store, the worker threads, upstream
 * calls and webhook deliveries keep the rest.
 */
export function defaultMaxConnections(limit = openFileLimit()): number {
  return Math.max(64, Math.floor((limit ?? ASSUMED_OPEN_FILES) * 0.75));
}

/** How often a warning about refused connections may be logged, with the count since the last one. */
const DROP_LOG_EVERY_MS = 10_000;

export function applyServerLimits(server: Server, limits: ServerLimits, log: Logger): number {
  const maxConnections = limits.maxConnections ?? defaultMaxConnections();
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.maxConnections = maxConnections;
  let dropped = 0;
  let loggedAt = Number.NEGATIVE_INFINITY;
  server.on("drop", () => {
    dropped += 1;
    const now = performance.now();
    if (now - loggedAt < DROP_LOG_EVERY_MS) return;
    log({ level: "warn", msg: "connection limit reached: new connections are closed until others end (HTTP_MAX_CONNECTIONS)", max_connections: maxConnections, refused: dropped });
    loggedAt = now;
    dropped = 0;
  });
  // Without a listener Node answers 100 Continue as soon as the headers are in, before anything is checked.
  server.on("checkContinue", (req, res) => server.emit("request", req, res));
  watchSlowClients(server, { headersTimeoutMs: limits.headersTimeoutMs, bodyTimeoutMs: limits.bodyTimeoutMs, bodyMinBytesPerSecond: limits.bodyMinBytesPerSecond, maxConnections }, log);
  return maxConnections;
}
