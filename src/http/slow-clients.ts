/**
 * Clients that hold a connection while sending nothing worth waiting for (docs/operations/README.md,
 * "Connections"). Node checks its own header and request timeouts only every 30 s, and its request
 * timeout is one span for the whole request, so a body of 1 byte every 5 s held a connection for
 * the full 300 s, and enough of them filled the connection cap for everyone. Here each connection
 * is watched, on a sweep a tenth of the shorter timeout apart (at most a second), in the phase it
 * is in:
 *
 * - headers: from the connection (or the first byte after an answer) until the request's headers
 *   are whole, at most `headersTimeoutMs`;
 * - body: from the headers until the body is whole, `bodyTimeoutMs` plus one second for every
 *   `bodyMinBytesPerSecond` bytes received, counting only time the connection is being read (a
 *   body the service is not reading yet is not the client's delay);
 * - answering, or idle between requests: the service's time, or Node's keep-alive timeout.
 *
 * A connection past its time is answered 408 (unless its answer has started) and closed. And near
 * the cap a new connection is let in by closing one that waits on its client: an idle one first,
 * then the oldest still sending headers, then the slowest body, then one whose client does not read
 * its answer; a connection whose answer the service is still working on is never closed for room.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../log.ts";

export interface SlowClientLimits {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  maxConnections: number;
}

type Phase = "headers" | "body" | "answering" | "idle";

interface Watched {
  socket: Socket;
  phase: Phase;
  /** When the phase began (performance.now()). */
  since: number;
  /** socket.bytesRead when the phase began. */
  bytesAt: number;
  /** Time the body phase has spent with the connection being read. */
  readingMs: number;
  /** The latest request parsed on this connection, and its answer. */
  req: IncomingMessage | null;
  res: ServerResponse | null;
}

const REQUEST_TIMEOUT_ANSWER = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";

/** How many of the oldest bodies, or answers, are weighed when one must be closed for room: a bounded look, however many are held. */
const LOOK_AT = 16;

/** How often a warning about closed connections may be logged, with the counts since the last one. */
const LOG_EVERY_MS = 10_000;

/** Connections kept free below the cap, so arrivals in one burst find room while closed ones are still closing. */
export function reservedConnections(maxConnections: number): number {
  return Math.max(1, Math.ceil(maxConnections / 50));
}

export function sweepIntervalMs(limits: Pick<SlowClientLimits, "headersTimeoutMs" | "bodyTimeoutMs">): number {
  return Math.min(1000, Math.max(50, Math.floor(Math.min(limits.headersTimeoutMs, limits.bodyTimeoutMs) / 10)));
}

export function watchSlowClients(server: Server, limits: SlowClientLimits, log: Logger): void {
  // One set per phase, each in the order connections entered it: the first is the one waiting longest.
  const phases: Record<Phase, Set<Watched>> = { headers: new Set(), body: new Set(), answering: new Set(), idle: new Set() };
  const bySocket = new WeakMap<Socket, Watched>();
  let watched = 0;
  const closed = { headers: 0, body: 0, for_room: 0 };
  let loggedAt = Number.NEGATIVE_INFINITY;

  const enter = (w: Watched, phase: Phase, now = performance.now()) => {
    phases[w.phase].delete(w);
    w.phase = phase;
    w.since = now;
    w.bytesAt = w.socket.bytesRead;
    w.readingMs = 0;
    phases[phase].add(w);
  };

  /** Called by the sweep: what was closed since the last warning, once there is something and the last is old enough. */
  const report = (now: number) => {
    if (closed.headers + closed.body + closed.for_room === 0 || now - loggedAt < LOG_EVERY_MS) return;
    log({ level: "warn", msg: "closed connections that kept the service waiting on their clients (HTTP_HEADERS_TIMEOUT_MS, HTTP_BODY_TIMEOUT_MS, HTTP_BODY_MIN_BYTES_PER_SECOND, HTTP_MAX_CONNECTIONS)", ...closed });
    loggedAt = now;
    closed.headers = closed.body = closed.for_room = 0;
  };

  /** Whether a 408 can be written without cutting into an answer: none is under way, or the one under way has not begun. */
  const canAnswer = (w: Watched) => w.res === null || w.res.writableFinished || (w.phase === "body" && !w.res.headersSent);

  const close = (w: Watched, why: keyof typeof closed) => {
    const { socket } = w;
    // As Node answers its own timeouts: 408, then closed.
    if (why !== "for_room" && socket.writable && canAnswer(w)) socket.write(REQUEST_TIMEOUT_ANSWER);
    socket.destroy();
    forget(w);
    closed[why] += 1;
  };

  const forget = (w: Watched) => {
    if (!phases[w.phase].delete(w)) return;
    watched -= 1;
  };

  /**
   * The connection to close for a newcomer: idle longest, else sending headers longest, else the
   * slowest of the oldest bodies, else the oldest whose answer waits for its client to read it.
   */
  const leastUseful = (now: number): Watched | undefined => {
    for (const w of phases.idle) return w;
    // Idle too: its answer finished since the last sweep, which has not moved it yet.
    let looked = 0;
    for (const w of phases.answering) {
      if (w.res?.writableFinished) return w;
      if (++looked === LOOK_AT) break;
    }
    for (const w of phases.headers) return w;
    let slowest: Watched | undefined;
    let slowestRate = Number.POSITIVE_INFINITY;
    looked = 0;
    for (const w of phases.body) {
      const rate = (w.socket.bytesRead - w.bytesAt) / Math.max(1, now - w.since);
      if (rate < slowestRate) [slowest, slowestRate] = [w, rate];
      if (++looked === LOOK_AT) break;
    }
    if (slowest) return slowest;
    looked = 0;
    for (const w of phases.answering) {
      if (w.socket.writableNeedDrain) return w;
      if (++looked === LOOK_AT) break;
    }
    return undefined;
  };

  const roomAt = limits.maxConnections - reservedConnections(limits.maxConnections);
  server.on("connection", (socket: Socket) => {
    const now = performance.now();
    if (watched >= roomAt) {
      const victim = leastUseful(now);
      if (victim) close(victim, "for_room");
    }
    const w: Watched = { socket, phase: "headers", since: now, bytesAt: 0, readingMs: 0, req: null, res: null };
    phases.headers.add(w);
    bySocket.set(socket, w);
    watched += 1;
    socket.once("close", () => forget(w));
  });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const w = bySocket.get(req.socket);
    if (!w || !phases[w.phase].has(w)) return;
    w.req = req;
    w.res = res;
    // Judged by what the request declares, not only by `complete`, which some runtimes (Deno) leave unset on a GET.
    const sending = (req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0) && !req.complete;
    if (sending) enter(w, "body");
    else if (w.phase !== "answering") enter(w, "answering");
    else w.bytesAt = w.socket.bytesRead;
    // No listener per answer: the sweep sees an answer finished (`writableFinished`) and moves its connection on.
  });

  const tick = sweepIntervalMs(limits);
  let last = performance.now();
  const sweep = setInterval(() => {
    const now = performance.now();
    const elapsed = now - last;
    last = now;
    for (const w of phases.headers) {
      if (now - w.since <= limits.headersTimeoutMs) break;
      close(w, "headers");
    }
    for (const w of [...phases.body]) {
      if (w.req?.complete) {
        enter(w, w.res?.writableFinished ? "idle" : "answering", now);
        continue;
      }
      if (w.socket.isPaused()) continue;
      // A body that began since the last sweep has been read only since it began.
      w.readingMs += Math.min(elapsed, now - w.since);
      const allowedMs = limits.bodyTimeoutMs + ((w.socket.bytesRead - w.bytesAt) * 1000) / limits.bodyMinBytesPerSecond;
      if (w.readingMs > allowedMs) close(w, "body");
    }
    // Bytes after a whole request are the next request's headers: its time starts with them. An answer that
    // has finished leaves its connection idle.
    for (const phase of ["answering", "idle"] as const) {
      for (const w of [...phases[phase]]) {
        if (w.socket.bytesRead > w.bytesAt) enter(w, "headers", now);
        else if (phase === "answering" && w.res?.writableFinished) enter(w, "idle", now);
      }
    }
    report(now);
  }, tick);
  sweep.unref();
  server.once("close", () => clearInterval(sweep));
}
