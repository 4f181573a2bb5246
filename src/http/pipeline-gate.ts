/**
 * One answer at a time per connection, and no reading while answers wait (docs/operations/README.md,
 * "Connections"). An HTTP/1.1 client may pipeline: send its next requests before reading the answers.
 * Node's own check pauses such a connection only by what is queued when a request is parsed, and one
 * read of 64 KiB holds more than a thousand small requests, each dispatched before the first answer
 * is written; it also resumes reading as soon as a queued answer moves into the socket's buffer. A
 * client that pipelines and never reads thus made the process build answers until its heap ran out.
 *
 * Here a connection's next request reaches the app only once the previous answer has been handed to
 * the operating system ('finish') and the socket's buffer is under its high-water mark; while
 * requests wait, the socket does not read. Answers go out in order either way (HTTP/1.1 requires it),
 * so a client that reads its answers loses nothing but the overlap of two handlers' work.
 *
 * A client that waits for each answer before its next request (nearly every one) finds the previous
 * answer finished when the request arrives, so it is dispatched at once and nothing listens for the end
 * of its answer: a listener is added only when a request has to wait.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

interface Connection {
  /** The latest answer dispatched. */
  current: ServerResponse | null;
  waiting: Array<[IncomingMessage, ServerResponse]>;
  /** A listener will dispatch the waiting requests: the current answer's 'close', or the socket's 'drain'. */
  woken: boolean;
}

/** An answer handed to the operating system, or one that never will be (its connection died mid-answer). */
const done = (res: ServerResponse) => res.writableFinished || res.destroyed;

export function gatePipelinedRequests(handler: NodeListener): NodeListener {
  const connections = new WeakMap<Socket, Connection>();

  const wake = (socket: Socket, connection: Connection) => {
    connection.woken = false;
    next(socket, connection);
  };

  /** Dispatches the waiting requests one by one as each answer before them finishes and the client reads it. */
  const next = (socket: Socket, connection: Connection) => {
    if (connection.woken) return;
    if (socket.destroyed) {
      connection.waiting.length = 0;
      return;
    }
    const { current } = connection;
    // Once requests have waited, the socket reads again only when the last of them has been answered.
    if (connection.waiting.length === 0 && (current === null || done(current))) {
      socket.resume();
      return;
    }
    if (current && !done(current)) {
      connection.woken = true;
      // 'close' follows 'finish', and also comes alone when the connection dies mid-answer.
      current.once("close", () => wake(socket, connection));
      return;
    }
    // The answer before is in the socket's buffer but the client has not read it yet: wait until it does.
    if (socket.writableNeedDrain) {
      connection.woken = true;
      socket.once("drain", () => wake(socket, connection));
      return;
    }
    const [req, res] = connection.waiting.shift()!;
    connection.current = res;
    handler(req, res);
    next(socket, connection);
  };

  return (req, res) => {
    const socket = req.socket;
    let connection = connections.get(socket);
    if (!connection) {
      connection = { current: null, waiting: [], woken: false };
      connections.set(socket, connection);
      const held = connection;
      // Anything that resumes the socket (Node after a drain, a body being read) while requests wait is undone here.
      socket.on("resume", () => {
        if (held.waiting.length > 0) socket.pause();
      });
    }
    const { current } = connection;
    if ((current === null || done(current)) && connection.waiting.length === 0 && !socket.writableNeedDrain) {
      connection.current = res;
      handler(req, res);
      return;
    }
    connection.waiting.push([req, res]);
    socket.pause();
    next(socket, connection);
  };
}
