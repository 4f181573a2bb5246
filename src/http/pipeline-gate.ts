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
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

interface Connection {
  /** An answer is being built or written. */
  busy: boolean;
  waiting: Array<[IncomingMessage, ServerResponse]>;
}

export function gatePipelinedRequests(handler: NodeListener): NodeListener {
  const connections = new WeakMap<Socket, Connection>();

  const dispatch = (socket: Socket, connection: Connection, req: IncomingMessage, res: ServerResponse) => {
    connection.busy = true;
    // 'close' follows 'finish', and also comes alone when the connection dies mid-answer.
    res.once("close", () => {
      connection.busy = false;
      next(socket, connection);
    });
    handler(req, res);
  };

  const next = (socket: Socket, connection: Connection) => {
    if (socket.destroyed) {
      connection.waiting.length = 0;
      return;
    }
    if (connection.waiting.length === 0) {
      socket.resume();
      return;
    }
    // The answer before is in the socket's buffer but the client has not read it yet: wait until it does.
    if (socket.writableNeedDrain) {
      socket.once("drain", () => next(socket, connection));
      return;
    }
    const [req, res] = connection.waiting.shift()!;
    dispatch(socket, connection, req, res);
  };

  return (req, res) => {
    const socket = req.socket;
    let connection = connections.get(socket);
    if (!connection) {
      connection = { busy: false, waiting: [] };
      connections.set(socket, connection);
      const held = connection;
      // Anything that resumes the socket (Node after a drain, a body being read) while requests wait is undone here.
      socket.on("resume", () => {
        if (held.waiting.length > 0) socket.pause();
      });
    }
    if (!connection.busy && connection.waiting.length === 0 && !socket.writableNeedDrain) {
      dispatch(socket, connection, req, res);
      return;
    }
    connection.waiting.push([req, res]);
    socket.pause();
  };
}
